//! One turn of a conversation (Chat): the reader's words are understood against what the
//! conversation asked and showed so far, and both messages and the new state are stored in
//! one transaction that holds the conversation's row.

use chrono::Utc;
use diesel_async::AsyncConnection;
use diesel_async::scoped_futures::ScopedFutureExt;
use quire_kit::caller::Caller;
use quire_proto::chat::v1 as pb;

use crate::conversation::{self, Kind, State};
use crate::error::{ChatError, Result};
use crate::understanding::{self, Intent};
use crate::{AppState, input, settings, view};

/// What an empty turn is told.
pub const SAY_SOMETHING: &str =
    "Say something to Quinn: a mood, a genre, an author or a book you loved";

pub async fn chat(
    state: &AppState,
    caller: &Caller,
    req: pb::ChatRequest,
) -> Result<pb::ChatReply> {
    let owner = input::uid(caller, &req.uid)?;
    let id = input::conversation_id(&req.conversation_id)?;
    let said = input::utterance("current_input", &req.current_input, SAY_SOMETHING)?;
    let mut conn = quire_kit::db::conn(&state.pool).await?;
    let (turn, searched, user, bot) = conn
        .transaction::<_, ChatError, _>(|conn| {
            let id = id.clone();
            async move {
                let name = settings::assistant_name(conn).await?;
                let held = conversation::lock_or_start(conn, &id, owner).await?;
                let turn = understanding::understand(
                    held.request.as_ref(),
                    &held.last_shown,
                    &said,
                    &name,
                );
                let reply = understanding::reply_text(&turn, &name);
                let now = Utc::now();
                let user =
                    conversation::add_message(conn, &id, Kind::User, &said, &[], now).await?;
                let later = now + chrono::Duration::microseconds(1);
                let bot =
                    conversation::add_message(conn, &id, Kind::Bot, &reply, &[], later).await?;
                // The query stays the last one searched until a turn gives a new one, as
                // long as the request it came from is unchanged.
                // A request with nothing to search by words ("free books") is searched by
                // what the reader said.
                let searched = turn.query.as_ref().map(|q| {
                    if q.trim().is_empty() {
                        said.clone()
                    } else {
                        q.clone()
                    }
                });
                let query = match &searched {
                    Some(q) => Some(q.clone()),
                    None if turn.request == held.request => held.query.clone(),
                    None => None,
                };
                let refines = match turn.intent {
                    Intent::Refine => true,
                    Intent::Search => false,
                    _ => held.refines,
                };
                let next = State {
                    request: turn.request.clone(),
                    query,
                    last_shown: held.last_shown,
                    refines,
                };
                conversation::save(conn, &id, &next, later).await?;
                Ok((turn, searched, user, bot))
            }
            .scope_boxed()
        })
        .await?;
    Ok(pb::ChatReply {
        conversation_id: id,
        reply_user: bot.content.clone(),
        query: searched,
        intent: intent(turn.intent).to_owned(),
        user_message: Some(view::message(&user, Vec::new())),
        bot_message: Some(view::message(&bot, Vec::new())),
    })
}

/// The intent as the wire names it.
pub fn intent(intent: Intent) -> &'static str {
    match intent {
        Intent::Greeting => "greeting",
        Intent::Help => "help",
        Intent::Thanks => "thanks",
        Intent::Goodbye => "goodbye",
        Intent::Search => "search",
        Intent::Refine => "refine",
        Intent::Unclear => "unclear",
    }
}
