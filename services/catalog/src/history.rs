//! The books a reader opened, most recent first.

use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use quire_kit::caller::Caller;
use quire_proto::catalog::v1 as pb;

use crate::books::view;
use crate::db::book::BookRow;
use crate::db::reading_history::HistoryRow;
use crate::db::schema::{books, reading_history};
use crate::error::{CatalogError, CommonErrors, Result};
use crate::{access, input};

pub const DEFAULT_LIMIT: u32 = 50;
pub const MAX_LIMIT: u32 = 500;

pub async fn list(
    conn: &mut AsyncPgConnection,
    caller: Option<&Caller>,
    limit: u32,
) -> Result<pb::HistoryList> {
    let c = input::required(caller)?;
    let limit = match limit {
        0 => DEFAULT_LIMIT,
        l if l > MAX_LIMIT => {
            return Err(CatalogError::invalid(
                "limit",
                format!("limit must be between 1 and {MAX_LIMIT}"),
            ));
        }
        l => l,
    };
    let rows: Vec<(HistoryRow, BookRow)> = reading_history::table
        .inner_join(books::table)
        .filter(reading_history::user_id.eq(c.user_id()))
        .order(reading_history::last_read_at.desc())
        .limit(i64::from(limit))
        .select((HistoryRow::as_select(), BookRow::as_select()))
        .load(conn)
        .await?;
    let rows: Vec<(HistoryRow, BookRow)> = rows
        .into_iter()
        .filter(|(_, b)| access::visible(caller, b))
        .collect();
    let (history, book_rows): (Vec<HistoryRow>, Vec<BookRow>) = rows.into_iter().unzip();
    let books = view::books(conn, caller, book_rows).await?;
    Ok(pb::HistoryList {
        entries: history
            .into_iter()
            .zip(books)
            .map(|(h, b)| pb::HistoryEntry {
                book: Some(b),
                last_read_at: view::rfc3339(h.last_read_at),
                percent: h.percent,
            })
            .collect(),
    })
}
