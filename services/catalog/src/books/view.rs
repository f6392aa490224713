//! A book as callers see it (`Book` of the catalog proto) and as events carry it
//! (`BookSnapshot`), with the per-caller marks (entitled, bought, favourite) loaded for
//! a whole page at once.

use std::collections::{HashMap, HashSet};

use chrono::{DateTime, SecondsFormat, Utc};
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use quire_kit::caller::Caller;
use quire_proto::catalog::v1 as pb;
use quire_proto::events::v1::BookSnapshot;
use uuid::Uuid;

use crate::access;
use crate::db::book::BookRow;
use crate::db::book_file::BookFileRow;
use crate::db::schema::{book_files, comments, favourites, purchases};
use crate::db::texts;
use crate::error::Result;

pub fn rfc3339(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(SecondsFormat::Millis, true)
}

pub fn cover_url(book_id: Uuid) -> String {
    format!("/api/books/{book_id}/cover")
}

pub fn spine_url(book_id: Uuid) -> String {
    format!("/api/books/{book_id}/spine")
}

/// What a page of books needs besides the rows.
#[derive(Default)]
struct Marks {
    files: HashMap<Uuid, BookFileRow>,
    bought: HashSet<Uuid>,
    favourite: HashSet<Uuid>,
    comments: HashMap<Uuid, i64>,
}

async fn marks(
    conn: &mut AsyncPgConnection,
    caller: Option<&Caller>,
    ids: &[Uuid],
) -> Result<Marks> {
    let mut m = Marks::default();
    if ids.is_empty() {
        return Ok(m);
    }
    let files: Vec<BookFileRow> = book_files::table
        .filter(book_files::book_id.eq_any(ids))
        .filter(book_files::file_index.eq(0))
        .select(BookFileRow::as_select())
        .load(conn)
        .await?;
    m.files = files.into_iter().map(|f| (f.book_id, f)).collect();
    let counts: Vec<(Uuid, i64)> = comments::table
        .filter(comments::book_id.eq_any(ids))
        .group_by(comments::book_id)
        .select((comments::book_id, diesel::dsl::count_star()))
        .load(conn)
        .await?;
    m.comments = counts.into_iter().collect();
    if let Some(c) = caller {
        let bought: Vec<Uuid> = purchases::table
            .filter(purchases::user_id.eq(c.user_id()))
            .filter(purchases::book_id.eq_any(ids))
            .select(purchases::book_id)
            .load(conn)
            .await?;
        m.bought = bought.into_iter().collect();
        let favs: Vec<Uuid> = favourites::table
            .filter(favourites::user_id.eq(c.user_id()))
            .filter(favourites::book_id.eq_any(ids))
            .select(favourites::book_id)
            .load(conn)
            .await?;
        m.favourite = favs.into_iter().collect();
    }
    Ok(m)
}

/// The wire form of each row, in order, marked for `caller`.
pub async fn books(
    conn: &mut AsyncPgConnection,
    caller: Option<&Caller>,
    rows: Vec<BookRow>,
) -> Result<Vec<pb::Book>> {
    let ids: Vec<Uuid> = rows.iter().map(|r| r.id).collect();
    let m = marks(conn, caller, &ids).await?;
    Ok(rows
        .into_iter()
        .map(|row| {
            let bought = m.bought.contains(&row.id);
            let entitled = bought || access::privileged(caller, &row);
            let mut b = plain(&row, m.files.get(&row.id));
            b.bought = bought;
            b.entitled = entitled;
            b.favourite = m.favourite.contains(&row.id);
            b.comment_count = m
                .comments
                .get(&row.id)
                .copied()
                .unwrap_or(0)
                .try_into()
                .unwrap_or(u32::MAX);
            b
        })
        .collect())
}

pub async fn book(
    conn: &mut AsyncPgConnection,
    caller: Option<&Caller>,
    row: BookRow,
) -> Result<pb::Book> {
    let mut list = books(conn, caller, vec![row]).await?;
    list.pop()
        .ok_or_else(|| crate::error::CatalogError::Internal("book view lost its row".into()))
}

/// The wire form without per-caller marks.
pub fn plain(row: &BookRow, file: Option<&BookFileRow>) -> pb::Book {
    pb::Book {
        book_id: row.id.to_string(),
        title: row.title.clone(),
        author: row.author.clone(),
        authors: texts(row.authors.clone()),
        cover_image: cover_url(row.id),
        price_cents: row.price_cents,
        publish_date: row
            .publish_date
            .map(|d| d.format("%Y-%m-%d").to_string())
            .unwrap_or_default(),
        created_time: rfc3339(row.created_time),
        published_at: row.published_at.map(rfc3339).unwrap_or_default(),
        short_summary: row.short_summary.clone(),
        long_summary: row.long_summary.clone(),
        tags: texts(row.tags.clone()),
        genre: row.genre.clone(),
        assessment_score: row.assessment_score,
        upload_writer_id: row.upload_writer_id.to_string(),
        publisher_id: row.publisher_id.map(|p| p.to_string()).unwrap_or_default(),
        format: file.map(|f| f.format.clone()).unwrap_or_default(),
        language: row.language.clone(),
        on: row.writer_on,
        taken_down: row.taken_down,
        listed: row.listed(),
        chapter_count: file
            .map(|f| u32::try_from(f.chapter_count).unwrap_or(0))
            .unwrap_or(0),
        file_size: file
            .map(|f| u64::try_from(f.size_bytes).unwrap_or(0))
            .unwrap_or(0),
        entitled: false,
        bought: false,
        favourite: false,
        comment_count: 0,
        updated_at: rfc3339(row.updated_at),
    }
}

/// The book as its events carry it.
pub fn snapshot(row: &BookRow, format: &str) -> BookSnapshot {
    BookSnapshot {
        book_id: row.id.to_string(),
        title: row.title.clone(),
        author: row.author.clone(),
        short_summary: row.short_summary.clone(),
        long_summary: row.long_summary.clone(),
        tags: texts(row.tags.clone()),
        genre: row.genre.clone(),
        price_cents: row.price_cents,
        upload_writer_id: row.upload_writer_id.to_string(),
        publisher_id: row.publisher_id.map(|p| p.to_string()).unwrap_or_default(),
        published_at: row.published_at.map(rfc3339).unwrap_or_default(),
        created_time: rfc3339(row.created_time),
        assessment_score: row.assessment_score,
        listed: row.listed(),
        version: row.version,
        cover_image: cover_url(row.id),
        format: format.to_owned(),
        language: row.language.clone(),
    }
}
