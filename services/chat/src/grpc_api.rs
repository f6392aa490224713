//! The gRPC face of the chat service: each method reads its request, calls the domain
//! module that does the work, and converts the answer. No rule lives here.

use quire_kit::caller::Caller;
use quire_proto::chat::v1 as pb;
use quire_proto::chat::v1::chat_service_server::ChatService;
use tonic::{Request, Response, Status};

use crate::error::{ChatError, Result};
use crate::{AppState, history, moods, recommend, settings, stats, turn};

pub struct ChatApi {
    pub state: AppState,
}

type Reply<T> = std::result::Result<Response<T>, Status>;

fn ok<T>(value: T) -> Reply<T> {
    Ok(Response::new(value))
}

/// The verified caller; every method but ListMoods and GetChatSettings needs one.
fn caller<T>(req: &Request<T>) -> Result<Caller> {
    Ok(quire_kit::caller::caller_of(req)
        .map_err(ChatError::from)?
        .clone())
}

impl ChatApi {
    async fn conn(&self) -> Result<quire_kit::db::PgConn> {
        Ok(quire_kit::db::conn(&self.state.pool).await?)
    }
}

#[tonic::async_trait]
impl ChatService for ChatApi {
    async fn chat(&self, req: Request<pb::ChatRequest>) -> Reply<pb::ChatReply> {
        let who = caller(&req)?;
        ok(turn::chat(&self.state, &who, req.into_inner()).await?)
    }

    async fn recommend_books(
        &self,
        req: Request<pb::RecommendBooksRequest>,
    ) -> Reply<pb::RecommendBooksReply> {
        let who = caller(&req)?;
        ok(recommend::recommend(&self.state, &who, req.into_inner()).await?)
    }

    async fn list_moods(&self, _req: Request<pb::ListMoodsRequest>) -> Reply<pb::MoodList> {
        let mut conn = self.conn().await?;
        let name = settings::assistant_name(&mut conn).await?;
        ok(moods::list(name))
    }

    async fn get_conversation(
        &self,
        req: Request<pb::GetConversationRequest>,
    ) -> Reply<pb::Conversation> {
        let who = caller(&req)?;
        ok(history::get(&self.state, &who, req.into_inner()).await?)
    }

    async fn get_chat_settings(
        &self,
        _req: Request<pb::GetChatSettingsRequest>,
    ) -> Reply<pb::ChatSettings> {
        let mut conn = self.conn().await?;
        ok(settings::get(&mut conn).await?)
    }

    async fn update_chat_settings(
        &self,
        req: Request<pb::UpdateChatSettingsRequest>,
    ) -> Reply<pb::ChatSettings> {
        let who = caller(&req)?;
        let mut conn = self.conn().await?;
        ok(settings::update(&mut conn, &who, req.get_ref()).await?)
    }

    async fn chat_stats(
        &self,
        req: Request<quire_proto::ops::v1::StatsRequest>,
    ) -> Reply<pb::ChatStats> {
        let who = caller(&req)?;
        let mut conn = self.conn().await?;
        ok(stats::chat_stats(&mut conn, &who, req.get_ref()).await?)
    }
}
