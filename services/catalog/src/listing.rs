//! Whether a book is in the shop, and the events that say so.
//!
//! A book is listed when its writer's switch is on and no admin took it down. Every change
//! of a book writes its event in the same transaction: `book.published` when it enters the
//! shop, `book.unpublished` when it leaves, `book.updated` otherwise. Each event carries the
//! whole book with `version` = its `updated_at` in microseconds, so consumers can drop
//! older snapshots.

use chrono::{DateTime, Utc};
use diesel::prelude::*;
use diesel_async::scoped_futures::ScopedFutureExt;
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use quire_kit::audit::{self, AuditRecord};
use quire_kit::caller::Caller;
use quire_kit::events::{topics, types};
use quire_proto::catalog::v1 as pb;
use quire_proto::events::v1 as ev;
use uuid::Uuid;

use crate::books::view;
use crate::db::book::{BookChanges, BookRow};
use crate::db::book_file::BookFileRow;
use crate::db::publish_status::{PublishStatusRow, ROLE_PUBLISHER, ROLE_WRITER};
use crate::db::schema::{book_files, books, publish_status};
use crate::error::{CatalogError, CommonErrors, Result};
use crate::{SERVICE, input};

pub const SOURCE: &str = "quire-catalog";

/// The time of a change: now, but always after the previous one, so versions only grow.
pub fn change_time(previous: DateTime<Utc>) -> DateTime<Utc> {
    let now = Utc::now();
    if now > previous {
        now
    } else {
        previous + chrono::Duration::microseconds(1)
    }
}

/// Writes the event of a change of `row` (as it is after the change); `was_listed` is
/// `None` for a new book.
pub async fn announce(
    conn: &mut AsyncPgConnection,
    was_listed: Option<bool>,
    row: &BookRow,
) -> Result<()> {
    let file: Option<BookFileRow> = book_files::table
        .filter(book_files::book_id.eq(row.id))
        .filter(book_files::file_index.eq(0))
        .select(BookFileRow::as_select())
        .first(conn)
        .await
        .optional()?;
    let book = Some(view::snapshot(row, file.as_ref()));
    let key = row.id.to_string();
    let (kind, now_listed) = (was_listed.unwrap_or(false), row.listed());
    let id = match (kind, now_listed) {
        (false, true) => {
            let data = ev::BookPublished { book };
            quire_kit::outbox::enqueue(
                conn,
                topics::BOOK,
                &key,
                types::BOOK_PUBLISHED,
                SOURCE,
                &data,
            )
            .await?
        }
        (true, false) => {
            let data = ev::BookUnpublished { book };
            quire_kit::outbox::enqueue(
                conn,
                topics::BOOK,
                &key,
                types::BOOK_UNPUBLISHED,
                SOURCE,
                &data,
            )
            .await?
        }
        _ => {
            let data = ev::BookUpdated { book };
            quire_kit::outbox::enqueue(conn, topics::BOOK, &key, types::BOOK_UPDATED, SOURCE, &data)
                .await?
        }
    };
    tracing::debug!(book_id = %row.id, event_id = %id, listed = now_listed, "book event written");
    Ok(())
}

/// Applies `changes` to a locked book and writes its event, in the caller's transaction.
pub async fn change_book(
    conn: &mut AsyncPgConnection,
    before: &BookRow,
    mut changes: BookChanges,
) -> Result<BookRow> {
    let at = change_time(before.updated_at);
    changes.updated_at = Some(at);
    changes.version = Some(at.timestamp_micros());
    let becomes_listed = changes.writer_on.unwrap_or(before.writer_on)
        && !changes.taken_down.unwrap_or(before.taken_down);
    if becomes_listed && before.published_at.is_none() {
        changes.published_at = Some(Some(at));
    }
    let after: BookRow = diesel::update(books::table.find(before.id))
        .set(&changes)
        .returning(BookRow::as_returning())
        .get_result(conn)
        .await?;
    announce(conn, Some(before.listed()), &after).await?;
    Ok(after)
}

/// The book, locked for the rest of the transaction; 404 when unknown.
pub async fn lock_book(conn: &mut AsyncPgConnection, book_id: Uuid) -> Result<BookRow> {
    books::table
        .find(book_id)
        .select(BookRow::as_select())
        .for_update()
        .first(conn)
        .await
        .optional()?
        .ok_or_else(|| CatalogError::not_found("Book"))
}

async fn upsert_switch(
    conn: &mut AsyncPgConnection,
    user_id: Uuid,
    book_id: Uuid,
    role: &str,
    on: bool,
) -> Result<PublishStatusRow> {
    let row = PublishStatusRow {
        user_id,
        book_id,
        role: role.to_owned(),
        is_on: on,
        updated_at: Utc::now(),
    };
    Ok(diesel::insert_into(publish_status::table)
        .values(&row)
        .on_conflict((publish_status::user_id, publish_status::book_id))
        .do_update()
        .set((
            publish_status::is_on.eq(on),
            publish_status::role.eq(role),
            publish_status::updated_at.eq(row.updated_at),
        ))
        .returning(PublishStatusRow::as_returning())
        .get_result(conn)
        .await?)
}

/// `publish_book_status`: the writer's switch (by the writer, or an admin acting for
/// them) or a publisher's shelf (by a publisher, for a listed book).
pub async fn set_publish_status(
    conn: &mut AsyncPgConnection,
    caller: &Caller,
    user_id: &str,
    book_id: &str,
    on: bool,
) -> Result<pb::PublishStatus> {
    let user_id = input::acting_for(caller, "user_id", user_id)?;
    let book_id = input::uuid("book_id", book_id)?;
    let caller = caller.clone();
    conn.transaction::<_, CatalogError, _>(|conn| {
        async move {
            let before = lock_book(conn, book_id).await?;
            let publisher = caller.claims.roles.iter().any(|r| r == ROLE_PUBLISHER);
            if user_id == before.upload_writer_id {
                let status = upsert_switch(conn, user_id, book_id, ROLE_WRITER, on).await?;
                let after = if before.writer_on == on {
                    before
                } else {
                    let changes = BookChanges {
                        writer_on: Some(on),
                        ..Default::default()
                    };
                    change_book(conn, &before, changes).await?
                };
                tracing::info!(%book_id, on, listed = after.listed(), "writer switch set");
                return Ok(pb::PublishStatus {
                    user_id: user_id.to_string(),
                    book_id: book_id.to_string(),
                    on,
                    listed: after.listed(),
                    updated_at: view::rfc3339(status.updated_at),
                });
            }
            let for_publisher = if user_id == caller.user_id() {
                publisher
            } else {
                // An admin acting for someone who is not the writer curates their shelf.
                caller.is_admin()
            };
            if !for_publisher {
                return Err(CatalogError::forbidden(
                    "Only the book's writer or a publisher may switch it",
                ));
            }
            if on && !before.listed() {
                // A publisher cannot see an unlisted book of someone else.
                if !crate::access::privileged(Some(&caller), &before) {
                    return Err(CatalogError::not_found("Book"));
                }
                return Err(CatalogError::invalid(
                    "book_id",
                    "only a book in the shop can go on a shelf",
                ));
            }
            let status = upsert_switch(conn, user_id, book_id, ROLE_PUBLISHER, on).await?;
            tracing::info!(%book_id, publisher_id = %user_id, on, "shelf switch set");
            Ok(pb::PublishStatus {
                user_id: user_id.to_string(),
                book_id: book_id.to_string(),
                on,
                listed: before.listed(),
                updated_at: view::rfc3339(status.updated_at),
            })
        }
        .scope_boxed()
    })
    .await
}

/// An admin takes a book out of the shop (or lets it back), with the audit entry of the
/// change in the same transaction.
pub async fn set_taken_down(
    conn: &mut AsyncPgConnection,
    caller: &Caller,
    book_id: &str,
    taken_down: bool,
    reason: &str,
) -> Result<BookRow> {
    caller.require_admin()?;
    let book_id = input::uuid("book_id", book_id)?;
    let reason = input::text("reason", reason, 2000)?;
    let admin = caller.user_id();
    conn.transaction::<_, CatalogError, _>(|conn| {
        async move {
            let before = lock_book(conn, book_id).await?;
            let changes = BookChanges {
                taken_down: Some(taken_down),
                taken_down_reason: Some(if taken_down { reason } else { String::new() }),
                ..Default::default()
            };
            let after = change_book(conn, &before, changes).await?;
            let takedown = |row: &BookRow| {
                serde_json::json!({"taken_down": row.taken_down, "reason": row.taken_down_reason})
            };
            let (was, now) = (takedown(&before), takedown(&after));
            if was != now {
                let action = if taken_down {
                    "book.take_down"
                } else {
                    "book.restore"
                };
                let target = format!("book:{book_id}");
                let entry = AuditRecord {
                    actor_id: admin,
                    action,
                    target,
                    before: was,
                    after: now,
                };
                audit::record(conn, SERVICE, entry).await?;
            }
            tracing::info!(%book_id, taken_down, "takedown set");
            Ok(after)
        }
        .scope_boxed()
    })
    .await
}
