//! The chat routes: Quinn, the book assistant. A turn of the conversation, the books that
//! answer its query, the moods of the opening panel and a conversation read back. Each is
//! one call to the chat service, which keeps the conversations and decides what to
//! recommend; the gateway refuses what it can see is wrong before the call (someone
//! else's `uid`, a blank or too long text, a malformed conversation id, a bad `limit`)
//! and limits how often each user may ask, since every turn costs the service real work.

use std::time::Duration;

use actix_web::{get, post, web};
use quire_kit::ApiError;
use quire_kit::caller::Caller;
use quire_kit::grpc::outgoing;
use quire_proto::chat::v1 as pb;

use super::chat_dto::*;
use crate::auth_guard::Authenticated;
use crate::envelope::{Envelope, Failure, Reply, ok};
use crate::grpc_call::call;
use crate::json_body::JsonBody;
use crate::live_limits::Class;
use crate::state::AppState;

/// A turn or a recommendation: understanding the words, then ranking the catalog's books.
const CHAT_DEADLINE: Duration = Duration::from_secs(30);
/// The longest text a reader may send (the spec's chat input maximum).
const MAX_INPUT_CHARS: usize = 500;
/// The spec's words for a text over [`MAX_INPUT_CHARS`], shown to the reader as they are.
const TOO_LONG: &str = "Input exceeds 500 characters limit";
/// The longest conversation id (the client makes them; a UUID is 36).
const MAX_CONVERSATION_ID: usize = 64;
/// Books per recommendation: the default and the most.
const DEFAULT_LIMIT: u32 = 5;
const MAX_LIMIT: u32 = 20;

/// `uid` must name the caller: a conversation is the reader's own, even for an admin.
/// (Left empty, it names the caller, as on every route that takes a `uid`.)
fn own_uid(who: &Caller, uid: &str) -> Result<String, Failure> {
    let uid = crate::input::opt_uuid("uid", Some(uid))?.unwrap_or(who.user_id());
    if uid != who.user_id() {
        return Err(ApiError::forbidden("uid: you can only chat as yourself").into());
    }
    Ok(uid.to_string())
}

/// 1-64 of `A-Z a-z 0-9 - _`.
fn conversation_id(id: &str) -> Result<String, Failure> {
    let well_formed = (1..=MAX_CONVERSATION_ID).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if !well_formed {
        return Err(Failure::bad_request(
            "invalid_id",
            format!("conversation_id: 1 to {MAX_CONVERSATION_ID} letters, digits, - or _ (a UUID)"),
        ));
    }
    Ok(id.to_owned())
}

/// What the reader typed (or a query), trimmed: not blank, at most 500 characters (as the
/// chat service counts them).
fn words(field: &str, text: &str, blank: &str) -> Result<String, Failure> {
    let text = text.trim();
    if text.is_empty() {
        return Err(Failure::bad_request(
            "missing_field",
            format!("{field}: {blank}"),
        ));
    }
    if text.chars().count() > MAX_INPUT_CHARS {
        return Err(Failure::bad_request("too_long", TOO_LONG));
    }
    Ok(text.to_owned())
}

#[utoipa::path(post, path = "/api/chat", tag = "chat", request_body = ChatBody,
    responses((status = 200, body = Envelope<ChatOut>, description = "Quinn's answer to the turn, and the query to recommend books with when it has one"),
        (status = 400, description = "A blank text, one over 500 characters (Input exceeds 500 characters limit), a malformed conversation id or uid"),
        (status = 403, description = "uid is not the caller"),
        (status = 404, description = "Another user's conversation")),
    security(("bearer" = [])))]
#[post("/chat")]
pub async fn chat(
    state: web::Data<AppState>,
    who: Authenticated,
    body: JsonBody<ChatBody>,
) -> Reply {
    let b = body.into_inner();
    let uid = own_uid(&who.0, &b.uid)?;
    let conversation_id = conversation_id(&b.conversation_id)?;
    let current_input = words(
        "current_input",
        &b.current_input,
        "say something to start (a mood, a genre, a book you liked)",
    )?;
    state.limit_user(&who.0, Class::Chat).await?;
    let r = state
        .chat
        .clone()
        .chat(outgoing(
            pb::ChatRequest {
                uid,
                conversation_id,
                current_input,
            },
            Some(&who.0),
            CHAT_DEADLINE,
        ))
        .await?;
    Ok(ok(ChatOut::from(r.into_inner())))
}

#[utoipa::path(post, path = "/api/recbooks", tag = "chat", request_body = RecBooksBody,
    responses((status = 200, body = Envelope<Vec<RecBookOut>>, description = "The books that answer the query, best first, none shown before in the conversation"),
        (status = 400, description = "A blank query, one over 500 characters (Input exceeds 500 characters limit), a limit outside 1-20, a malformed conversation id or uid"),
        (status = 403, description = "uid is not the caller"),
        (status = 404, description = "Another user's conversation")),
    security(("bearer" = [])))]
#[post("/recbooks")]
pub async fn recbooks(
    state: web::Data<AppState>,
    who: Authenticated,
    body: JsonBody<RecBooksBody>,
) -> Reply {
    let b = body.into_inner();
    let uid = own_uid(&who.0, &b.uid)?;
    let conversation_id = conversation_id(&b.conversation_id)?;
    let query = words("query", &b.query, "required")?;
    let limit = b.limit.unwrap_or(DEFAULT_LIMIT);
    if !(1..=MAX_LIMIT).contains(&limit) {
        return Err(Failure::bad_request(
            "invalid_number",
            format!("limit: must be a whole number from 1 to {MAX_LIMIT}"),
        ));
    }
    state.limit_user(&who.0, Class::Chat).await?;
    let r = state
        .chat
        .clone()
        .recommend_books(outgoing(
            pb::RecommendBooksRequest {
                uid,
                conversation_id,
                query,
                limit,
            },
            Some(&who.0),
            CHAT_DEADLINE,
        ))
        .await?;
    Ok(ok(rec_books(r.into_inner().books)))
}

#[utoipa::path(get, path = "/api/chat/moods", tag = "chat",
    responses((status = 200, body = Envelope<MoodsOut>, description = "The moods of the opening panel and the assistant's name")),
    security((), ("bearer" = [])))]
#[get("/chat/moods")]
pub async fn moods(state: web::Data<AppState>) -> Reply {
    let r = state
        .chat
        .clone()
        .list_moods(call(pb::ListMoodsRequest {}, None))
        .await?;
    Ok(ok(MoodsOut::from(r.into_inner())))
}

#[utoipa::path(get, path = "/api/chat/conversations/{conversation_id}", tag = "chat",
    params(("conversation_id" = String, Path, pattern = "^[A-Za-z0-9_-]{1,64}$")),
    responses((status = 200, body = Envelope<ConversationOut>, description = "The conversation's messages, oldest first"),
        (status = 404, description = "Unknown conversation, or another user's")),
    security(("bearer" = [])))]
#[get("/chat/conversations/{conversation_id}")]
pub async fn conversation(
    state: web::Data<AppState>,
    who: Authenticated,
    path: web::Path<String>,
) -> Reply {
    let conversation_id = conversation_id(&path.into_inner())?;
    let r = state
        .chat
        .clone()
        .get_conversation(call(
            pb::GetConversationRequest {
                uid: who.0.user_id().to_string(),
                conversation_id,
            },
            Some(&who.0),
        ))
        .await?;
    Ok(ok(ConversationOut::from(r.into_inner())))
}

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(chat)
        .service(recbooks)
        .service(moods)
        .service(conversation);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conversation_ids_are_short_plain_words() {
        assert!(conversation_id("0190c2a4-6a6e-7b6e-8d1c-3f4e5a6b7c8d").is_ok());
        assert!(conversation_id("my_chat-1").is_ok());
        assert!(conversation_id(&"a".repeat(64)).is_ok());
        for bad in ["", "a b", "a/b", "é", "../x"] {
            assert!(conversation_id(bad).is_err(), "{bad}");
        }
        assert!(conversation_id(&"a".repeat(65)).is_err());
    }

    #[test]
    fn texts_are_counted_in_characters_and_refused_in_the_specs_words() {
        assert_eq!(
            words("q", &format!("  {}\n", "é".repeat(500)), "x")
                .unwrap()
                .len(),
            1000
        );
        let Err(Failure(e)) = words("q", &"é".repeat(501), "x") else {
            panic!("501 characters accepted");
        };
        assert_eq!(e.message, TOO_LONG);
        assert!(words("q", " \n\t", "x").is_err());
    }
}
