//! A book as callers see it (`Book` of the catalog proto) and as events carry it
//! (`BookSnapshot`), with the per-caller marks (entitled, bought, favourite) loaded for
//! a whole page at once.

use std::collections::HashMap;

use chrono::{DateTime, SecondsFormat, Utc};
use diesel::dsl::sql;
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Bool, Nullable, Uuid as SqlUuid};
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use quire_kit::caller::Caller;
use quire_proto::catalog::v1 as pb;
use quire_proto::events::v1::BookSnapshot;
use uuid::Uuid;

use crate::access;
use crate::db::book::BookRow;
use crate::db::book_file::BookFileRow;
use crate::db::schema::{book_files, books};
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

/// What a book's wire form needs besides its row.
#[derive(Default)]
struct Marks {
    file: Option<BookFileRow>,
    comments: i64,
    bought: bool,
    favourite: bool,
}

/// The books of `ids` that exist (in no particular order), each with its marks for
/// `caller`, in one round trip: a page of books costs one query, not one per mark.
async fn load(
    conn: &mut AsyncPgConnection,
    caller: Option<&Caller>,
    ids: &[Uuid],
) -> Result<Vec<(BookRow, Marks)>> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let user = caller.map(|c| c.user_id());
    let comments = sql::<BigInt>("(SELECT count(*) FROM comments c WHERE c.book_id = books.id)");
    let bought = sql::<Bool>(
        "EXISTS (SELECT 1 FROM purchases p WHERE p.book_id = books.id AND p.user_id = ",
    )
    .bind::<Nullable<SqlUuid>, _>(user)
    .sql(")");
    let favourite = sql::<Bool>(
        "EXISTS (SELECT 1 FROM favourites f WHERE f.book_id = books.id AND f.user_id = ",
    )
    .bind::<Nullable<SqlUuid>, _>(user)
    .sql(")");
    let rows: Vec<(BookRow, Option<BookFileRow>, i64, bool, bool)> = books::table
        .left_join(
            book_files::table.on(book_files::book_id
                .eq(books::id)
                .and(book_files::file_index.eq(0))),
        )
        .filter(books::id.eq_any(ids))
        .select((
            BookRow::as_select(),
            Option::<BookFileRow>::as_select(),
            comments,
            bought,
            favourite,
        ))
        .load(conn)
        .await?;
    Ok(rows
        .into_iter()
        .map(|(row, file, comments, bought, favourite)| {
            let marks = Marks {
                file,
                comments,
                bought,
                favourite,
            };
            (row, marks)
        })
        .collect())
}

fn marked(row: &BookRow, m: &Marks, caller: Option<&Caller>) -> pb::Book {
    let mut b = plain(row, m.file.as_ref());
    b.bought = m.bought;
    b.entitled = m.bought || access::privileged(caller, row);
    b.favourite = m.favourite;
    b.comment_count = u32::try_from(m.comments).unwrap_or(u32::MAX);
    b
}

/// The wire form of each row, in order, marked for `caller`.
pub async fn books(
    conn: &mut AsyncPgConnection,
    caller: Option<&Caller>,
    rows: Vec<BookRow>,
) -> Result<Vec<pb::Book>> {
    let ids: Vec<Uuid> = rows.iter().map(|r| r.id).collect();
    let mut marks: HashMap<Uuid, Marks> = load(conn, caller, &ids)
        .await?
        .into_iter()
        .map(|(row, m)| (row.id, m))
        .collect();
    Ok(rows
        .iter()
        .map(|row| marked(row, &marks.remove(&row.id).unwrap_or_default(), caller))
        .collect())
}

/// The listed books among `ids`, in the order of `ids`, marked for `caller`: what a page of
/// search hits shows. Books the index still held but Postgres no longer lists are left out.
pub async fn listed_books(
    conn: &mut AsyncPgConnection,
    caller: Option<&Caller>,
    ids: &[Uuid],
) -> Result<Vec<Option<pb::Book>>> {
    let mut found: HashMap<Uuid, (BookRow, Marks)> = load(conn, caller, ids)
        .await?
        .into_iter()
        .map(|(row, m)| (row.id, (row, m)))
        .collect();
    Ok(ids
        .iter()
        .map(|id| {
            found
                .remove(id)
                .filter(|(row, _)| access::visible(None, row))
                .map(|(row, m)| marked(&row, &m, caller))
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
