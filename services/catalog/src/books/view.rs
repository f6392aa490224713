//! A book as callers see it (`Book` of the catalog proto) and as events carry it
//! (`BookSnapshot`), with the per-caller marks (entitled, bought, favourite) loaded for
//! a whole page at once.

use std::collections::HashMap;

use chrono::{DateTime, SecondsFormat, Utc};
use diesel::dsl::{count_star, exists};
use diesel::pg::Pg;
use diesel::prelude::*;
use diesel::query_builder::QueryFragment;
use diesel::sql_types::Bool;
use diesel_async::methods::LoadQuery;
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use quire_kit::caller::Caller;
use quire_proto::catalog::v1 as pb;
use quire_proto::events::v1::BookSnapshot;
use uuid::Uuid;

use crate::db::book::BookRow;
use crate::db::book_file::BookFileRow;
use crate::db::schema::{book_files, book_ratings, books, comments, favourites, purchases};
use crate::db::texts;
use crate::error::{CatalogError, CommonErrors, Result};
use crate::{access, ratings};

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
    my_rating: Option<i16>,
}

/// A book's row, its first file, its comment count, whether the caller bought it and
/// marked it a favourite, and the caller's stars.
type LoadedRow = (
    BookRow,
    Option<BookFileRow>,
    Option<i64>,
    bool,
    bool,
    Option<i16>,
);

/// The books of `ids` with their first file (the part both statements of [`load`] share).
#[diesel::dsl::auto_type(no_type_alias)]
fn page_rows<'a>(ids: &'a [Uuid]) -> _ {
    books::table
        .left_join(
            book_files::table.on(book_files::book_id
                .eq(books::id)
                .and(book_files::file_index.eq(0_i32))),
        )
        .filter(books::id.eq_any(ids))
}

/// The statement behind [`load`] for a signed-in `user`. Written in diesel's DSL, not with
/// `sql` literals, so the statement stays prepared on its connection: a literal makes
/// diesel parse and plan it afresh on every page, which cost more than the index search
/// itself on a page of search hits.
fn page_query(
    user: Uuid,
    ids: &[Uuid],
) -> impl LoadQuery<'_, AsyncPgConnection, LoadedRow> + QueryFragment<Pg> + '_ {
    let bought = exists(
        purchases::table
            .filter(purchases::book_id.eq(books::id))
            .filter(purchases::user_id.eq(user)),
    );
    let favourite = exists(
        favourites::table
            .filter(favourites::book_id.eq(books::id))
            .filter(favourites::user_id.eq(user)),
    );
    let my_rating = book_ratings::table
        .filter(book_ratings::book_id.eq(books::id))
        .filter(book_ratings::user_id.eq(user))
        .select(book_ratings::stars)
        .single_value();
    page_rows(ids).select((
        BookRow::as_select(),
        Option::<BookFileRow>::as_select(),
        comment_count(),
        bought,
        favourite,
        my_rating,
    ))
}

/// [`page_query`] for an anonymous caller: bought and favourite are false without asking,
/// which spares Postgres two lookups per book (a fifth of the statement's time on a page of
/// search hits, most of which anonymous readers ask for).
fn anonymous_page_query(
    ids: &[Uuid],
) -> impl LoadQuery<'_, AsyncPgConnection, LoadedRow> + QueryFragment<Pg> + '_ {
    page_rows(ids).select((
        BookRow::as_select(),
        Option::<BookFileRow>::as_select(),
        comment_count(),
        false.into_sql::<Bool>(),
        false.into_sql::<Bool>(),
        None::<i16>.into_sql::<diesel::sql_types::Nullable<diesel::sql_types::SmallInt>>(),
    ))
}

#[diesel::dsl::auto_type(no_type_alias)]
fn comment_count() -> _ {
    comments::table
        .filter(comments::book_id.eq(books::id))
        .select(count_star())
        .single_value()
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
    let rows: Vec<LoadedRow> = match caller {
        Some(caller) => page_query(caller.user_id(), ids).load(conn).await?,
        None => anonymous_page_query(ids).load(conn).await?,
    };
    Ok(rows
        .into_iter()
        .map(|(row, file, comments, bought, favourite, my_rating)| {
            let marks = Marks {
                file,
                comments: comments.unwrap_or(0),
                bought,
                favourite,
                my_rating,
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
    b.my_rating = m.my_rating.and_then(|s| u32::try_from(s).ok()).unwrap_or(0);
    if sees_assessment(caller, row) {
        b.assessment_score = Some(row.assessment_score);
    }
    b
}

/// The analysis's quality score is the writer's (and admins'): readers see their own
/// ratings, never the machine's opinion of the manuscript.
fn sees_assessment(caller: Option<&Caller>, row: &BookRow) -> bool {
    caller.is_some_and(|c| c.is_admin() || c.user_id() == row.upload_writer_id)
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
        .ok_or_else(|| CatalogError::internal("book view lost its row"))
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
        // Set by `marked` for those who may see it.
        assessment_score: None,
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
        rating_average: ratings::average(row.rating_count, row.rating_sum).unwrap_or(0.0),
        rating_count: u32::try_from(row.rating_count).unwrap_or(0),
        my_rating: 0,
    }
}

/// Characters of text a page holds, for books whose length is counted in characters.
pub const CHARS_PER_PAGE: i64 = 1800;

/// A book's length in pages from its first file: a pdf's weight is its pages, an epub's or
/// a txt's its characters (1,800 a page, at least 1); 0 without a file.
pub fn pages(file: Option<&BookFileRow>) -> u32 {
    let Some(file) = file else { return 0 };
    let weight = file.total_weight.max(0);
    let pages = if file.format == "pdf" {
        weight
    } else {
        ((weight + CHARS_PER_PAGE - 1) / CHARS_PER_PAGE).max(1)
    };
    u32::try_from(pages).unwrap_or(u32::MAX)
}

/// The book as its events carry it, `file` its first file (none while it has none).
pub fn snapshot(row: &BookRow, file: Option<&BookFileRow>) -> BookSnapshot {
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
        format: file.map(|f| f.format.clone()).unwrap_or_default(),
        language: row.language.clone(),
        publish_date: row
            .publish_date
            .map(|d| d.format("%Y-%m-%d").to_string())
            .unwrap_or_default(),
        pages: pages(file),
        authors: texts(row.authors.clone()),
    }
}

#[cfg(test)]
mod tests {
    use diesel::pg::Pg;
    use diesel::query_builder::QueryFragment;
    use uuid::Uuid;

    use crate::db::book_file::BookFileRow;

    fn file(format: &str, total_weight: i64) -> BookFileRow {
        BookFileRow {
            book_id: Uuid::nil(),
            file_index: 0,
            format: format.into(),
            object_key: String::new(),
            size_bytes: 0,
            sha256: String::new(),
            total_weight,
            chapter_count: 1,
        }
    }

    #[test]
    fn a_pdf_counts_its_pages_and_text_counts_1800_characters_a_page() {
        assert_eq!(super::pages(Some(&file("pdf", 212))), 212);
        assert_eq!(super::pages(Some(&file("epub", 1800))), 1);
        assert_eq!(super::pages(Some(&file("epub", 1801))), 2);
        assert_eq!(super::pages(Some(&file("txt", 90_000))), 50);
        assert_eq!(super::pages(Some(&file("txt", 0))), 1);
        assert_eq!(super::pages(None), 0);
    }

    #[test]
    fn a_page_of_books_is_read_by_a_statement_that_stays_prepared() {
        let ids = [Uuid::now_v7(), Uuid::now_v7()];
        let cacheable = super::page_query(Uuid::nil(), &ids)
            .is_safe_to_cache_prepared(&Pg)
            .unwrap();
        assert!(
            cacheable,
            "diesel would prepare the page's statement afresh on every call"
        );
    }
}
