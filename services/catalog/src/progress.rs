//! Where a reader is in a book. Saving progress also records the book in the reader's
//! history, in one transaction.

use chrono::Utc;
use diesel::prelude::*;
use diesel_async::scoped_futures::ScopedFutureExt;
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use quire_kit::caller::Caller;
use quire_proto::catalog::v1 as pb;

use crate::books::view::rfc3339;
use crate::db::reading_history::HistoryRow;
use crate::db::reading_progress::ProgressRow;
use crate::db::schema::{reading_history, reading_progress};
use crate::error::{CatalogError, CommonErrors, Result};
use crate::{access, input};

pub async fn get(
    conn: &mut AsyncPgConnection,
    caller: Option<&Caller>,
    book_id: &str,
) -> Result<pb::Progress> {
    let c = input::required(caller)?;
    let book_id = input::uuid("book_id", book_id)?;
    access::visible_book(conn, caller, book_id).await?;
    let row: Option<ProgressRow> = reading_progress::table
        .find((c.user_id(), book_id))
        .select(ProgressRow::as_select())
        .first(conn)
        .await
        .optional()?;
    Ok(match row {
        Some(r) => pb::Progress {
            book_id: book_id.to_string(),
            position: r.position,
            percent: r.percent,
            updated_at: rfc3339(r.updated_at),
        },
        None => pb::Progress {
            book_id: book_id.to_string(),
            ..Default::default()
        },
    })
}

pub async fn set(
    conn: &mut AsyncPgConnection,
    caller: Option<&Caller>,
    req: &pb::SetProgressRequest,
) -> Result<pb::Progress> {
    let c = input::required(caller)?;
    let book_id = input::uuid("book_id", &req.book_id)?;
    if !req.percent.is_finite() || !(0.0..=100.0).contains(&req.percent) {
        return Err(CatalogError::invalid(
            "percent",
            "percent must be between 0 and 100",
        ));
    }
    let position = input::text("position", &req.position, 2000)?;
    access::visible_book(conn, caller, book_id).await?;
    let now = Utc::now();
    let progress = ProgressRow {
        user_id: c.user_id(),
        book_id,
        position,
        percent: req.percent,
        updated_at: now,
    };
    let history = HistoryRow {
        user_id: c.user_id(),
        book_id,
        last_read_at: now,
        percent: req.percent,
    };
    let saved = conn
        .transaction::<_, CatalogError, _>(|conn| {
            async move {
                let saved: ProgressRow = diesel::insert_into(reading_progress::table)
                    .values(&progress)
                    .on_conflict((reading_progress::user_id, reading_progress::book_id))
                    .do_update()
                    .set(&progress)
                    .returning(ProgressRow::as_returning())
                    .get_result(conn)
                    .await?;
                diesel::insert_into(reading_history::table)
                    .values(&history)
                    .on_conflict((reading_history::user_id, reading_history::book_id))
                    .do_update()
                    .set(&history)
                    .execute(conn)
                    .await?;
                Ok(saved)
            }
            .scope_boxed()
        })
        .await?;
    Ok(pb::Progress {
        book_id: book_id.to_string(),
        position: saved.position,
        percent: saved.percent,
        updated_at: rfc3339(saved.updated_at),
    })
}
