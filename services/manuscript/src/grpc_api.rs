//! The gRPC face of the manuscript service: each method reads its request, calls the
//! domain module that does the work, and converts the answer. No rule lives here.

use quire_kit::caller::Caller;
use quire_kit::db::PgConn;
use quire_proto::manuscript::v1 as pb;
use quire_proto::manuscript::v1::manuscript_service_server::ManuscriptService;
use tonic::{Request, Response, Status};

use crate::analytics::{pricing, sales_report};
use crate::error::{ManuscriptError, Result};
use crate::uploads::{ai_checker, listing, progress, publish};
use crate::{AppState, input};

pub struct ManuscriptApi {
    pub state: AppState,
}

type Reply<T> = std::result::Result<Response<T>, Status>;

fn ok<T>(value: T) -> Reply<T> {
    Ok(Response::new(value))
}

/// The verified caller; every method needs one.
fn caller<T>(req: &Request<T>) -> Result<Caller> {
    input::required(req.extensions().get::<Caller>()).cloned()
}

impl ManuscriptApi {
    async fn conn(&self) -> Result<PgConn> {
        quire_kit::db::conn(&self.state.pool)
            .await
            .map_err(ManuscriptError::from)
    }
}

#[tonic::async_trait]
impl ManuscriptService for ManuscriptApi {
    async fn publish_entry(
        &self,
        req: Request<pb::PublishEntryRequest>,
    ) -> Reply<pb::ManuscriptReport> {
        let who = caller(&req)?;
        ok(publish::publish(&self.state, who, req.into_inner()).await?)
    }

    async fn get_progress(
        &self,
        req: Request<pb::GetProgressRequest>,
    ) -> Reply<pb::UploadProgress> {
        let who = caller(&req)?;
        ok(progress::get(&self.state.pool, who.user_id(), &req.get_ref().upload_id).await?)
    }

    async fn list_manuscripts(
        &self,
        req: Request<pb::ListManuscriptsRequest>,
    ) -> Reply<pb::ManuscriptPage> {
        let who = caller(&req)?;
        let mut conn = self.conn().await?;
        ok(listing::list(&mut conn, &who, req.get_ref()).await?)
    }

    async fn get_manuscript(
        &self,
        req: Request<pb::GetManuscriptRequest>,
    ) -> Reply<pb::ManuscriptReport> {
        let who = caller(&req)?;
        let mut conn = self.conn().await?;
        ok(listing::get(&mut conn, &who, &req.get_ref().manuscript_id).await?)
    }

    async fn check_text(&self, req: Request<pb::CheckTextRequest>) -> Reply<pb::AiCheck> {
        caller(&req)?;
        ok(ai_checker::check(&self.state, req.into_inner()).await?)
    }

    async fn revenue_curve(
        &self,
        req: Request<pb::RevenueCurveRequest>,
    ) -> Reply<pb::RevenueCurve> {
        let who = caller(&req)?;
        let mut conn = self.conn().await?;
        ok(pricing::revenue_curve(&self.state, &mut conn, &who, req.get_ref()).await?)
    }

    async fn sales_report(&self, req: Request<pb::SalesReportRequest>) -> Reply<pb::SalesReport> {
        let who = caller(&req)?;
        let mut conn = self.conn().await?;
        ok(sales_report::report(&mut conn, &who, req.get_ref()).await?)
    }
}
