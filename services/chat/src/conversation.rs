//! A conversation as the `chat` schema keeps it: its owner, its messages, what was asked
//! last (the request and the query) and what was shown (the books last shown in order,
//! and every book it ever showed). A turn locks its conversation's row, so two turns of one
//! conversation at once follow each other and neither loses what the other wrote.

use std::collections::HashSet;

use chrono::{DateTime, Utc};
use diesel::prelude::*;
use diesel::sql_types::{Jsonb, Nullable, Text, Timestamptz};
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use quire_kit::db::prepared;
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use crate::db::schema::{conversation_shown, conversations, messages};
use crate::error::{ChatError, CommonErrors, Result};
use crate::understanding::{Request, Shown};

/// What a conversation remembers between turns.
#[derive(Debug, Clone, Default)]
pub struct State {
    pub request: Option<Request>,
    pub query: Option<String>,
    pub last_shown: Vec<Shown>,
    /// The last turn narrowed the request that gave `last_shown`.
    pub refines: bool,
}

/// One recommended book as a bot message keeps it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StoredPick {
    pub book_id: String,
    pub match_percentage: u32,
    pub reason: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    User,
    Bot,
}

impl Kind {
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::User => "user",
            Kind::Bot => "bot",
        }
    }
}

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = messages)]
pub struct MessageRow {
    pub id: Uuid,
    pub conversation_id: String,
    pub kind: String,
    pub content: String,
    pub books: serde_json::Value,
    pub created_at: DateTime<Utc>,
}

impl MessageRow {
    pub fn picks(&self) -> Vec<StoredPick> {
        serde_json::from_value(self.books.clone()).unwrap_or_default()
    }
}

type StateRow = (
    Uuid,
    Option<serde_json::Value>,
    Option<String>,
    serde_json::Value,
    bool,
);

fn state_of(row: StateRow, owner: Uuid) -> Result<State> {
    let (held_by, request, query, last_shown, refines) = row;
    if held_by != owner {
        // Another reader's conversation is as good as none.
        return Err(ChatError::not_found("Conversation"));
    }
    Ok(State {
        request: request.map(serde_json::from_value).transpose()?,
        query,
        last_shown: serde_json::from_value(last_shown)?,
        refines,
    })
}

/// The conversation `id` of `owner`, locked until the transaction ends; started when new.
/// NOT_FOUND when it is another reader's.
pub async fn lock_or_start(conn: &mut AsyncPgConnection, id: &str, owner: Uuid) -> Result<State> {
    prepared("INSERT INTO conversations (id, owner) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING")
        .bind::<Text, _>(id.to_owned())
        .bind::<diesel::sql_types::Uuid, _>(owner)
        .execute(conn)
        .await?;
    let row: StateRow = conversations::table
        .find(id)
        .select((
            conversations::owner,
            conversations::request,
            conversations::query,
            conversations::last_shown,
            conversations::refines,
        ))
        .for_update()
        .first(conn)
        .await?;
    state_of(row, owner)
}

/// The conversation `id` of `owner` as it is now; `None` while it does not exist.
pub async fn find(conn: &mut AsyncPgConnection, id: &str, owner: Uuid) -> Result<Option<State>> {
    let row: Option<StateRow> = conversations::table
        .find(id)
        .select((
            conversations::owner,
            conversations::request,
            conversations::query,
            conversations::last_shown,
            conversations::refines,
        ))
        .first(conn)
        .await
        .optional()?;
    row.map(|r| state_of(r, owner)).transpose()
}

/// Remembers `state` as the conversation's, at `now`.
pub async fn save(
    conn: &mut AsyncPgConnection,
    id: &str,
    state: &State,
    now: DateTime<Utc>,
) -> Result<()> {
    let request = state
        .request
        .as_ref()
        .map(serde_json::to_value)
        .transpose()?;
    prepared(
        "UPDATE conversations SET request = $1, query = $2, last_shown = $3, refines = $4, \
         updated_at = $5 WHERE id = $6",
    )
    .bind::<Nullable<Jsonb>, _>(request)
    .bind::<Nullable<Text>, _>(state.query.clone())
    .bind::<Jsonb, _>(serde_json::to_value(&state.last_shown)?)
    .bind::<diesel::sql_types::Bool, _>(state.refines)
    .bind::<Timestamptz, _>(now)
    .bind::<Text, _>(id.to_owned())
    .execute(conn)
    .await?;
    Ok(())
}

/// Adds a message to conversation `id`.
pub async fn add_message(
    conn: &mut AsyncPgConnection,
    id: &str,
    kind: Kind,
    content: &str,
    picks: &[StoredPick],
    at: DateTime<Utc>,
) -> Result<MessageRow> {
    let row = MessageRow {
        id: Uuid::now_v7(),
        conversation_id: id.to_owned(),
        kind: kind.as_str().to_owned(),
        content: content.to_owned(),
        books: serde_json::to_value(picks)?,
        created_at: at,
    };
    prepared(
        "INSERT INTO messages (id, conversation_id, kind, content, books, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind::<diesel::sql_types::Uuid, _>(row.id)
    .bind::<Text, _>(row.conversation_id.clone())
    .bind::<Text, _>(row.kind.clone())
    .bind::<Text, _>(row.content.clone())
    .bind::<Jsonb, _>(row.books.clone())
    .bind::<Timestamptz, _>(row.created_at)
    .execute(conn)
    .await?;
    Ok(row)
}

/// Every book conversation `id` showed.
pub async fn shown(conn: &mut AsyncPgConnection, id: &str) -> Result<HashSet<String>> {
    let ids: Vec<Uuid> = conversation_shown::table
        .filter(conversation_shown::conversation_id.eq(id))
        .select(conversation_shown::book_id)
        .load(conn)
        .await?;
    Ok(ids.into_iter().map(|b| b.to_string()).collect())
}

/// Marks `books` as shown in conversation `id`.
pub async fn mark_shown(conn: &mut AsyncPgConnection, id: &str, books: &[Uuid]) -> Result<()> {
    for book in books {
        prepared(
            "INSERT INTO conversation_shown (conversation_id, book_id) VALUES ($1, $2) \
             ON CONFLICT DO NOTHING",
        )
        .bind::<Text, _>(id.to_owned())
        .bind::<diesel::sql_types::Uuid, _>(*book)
        .execute(conn)
        .await?;
    }
    Ok(())
}

/// The messages of conversation `id`, oldest first.
pub async fn messages(conn: &mut AsyncPgConnection, id: &str) -> Result<Vec<MessageRow>> {
    Ok(messages::table
        .filter(messages::conversation_id.eq(id))
        .order((messages::created_at.asc(), messages::id.asc()))
        .select(MessageRow::as_select())
        .load(conn)
        .await?)
}
