//! The books Quinn knows: catalog's `quire.book.v1` snapshots kept in the `books` table
//! (the latest of each, version-guarded) and, for the listed ones, in the in-memory
//! ranking [`Index`]; and a book as lists show it, built from what the index holds.

use diesel::prelude::*;
use diesel::sql_types::{BigInt, Bool, Bytea, Text};
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use prost::Message;
use quire_kit::db::{DbError, prepared};
use quire_proto::catalog::v1 as catalog_pb;
use quire_proto::events::v1::BookSnapshot;
use uuid::Uuid;

use crate::db::schema::{books, sales};
use crate::ranking::{BookDoc, Index};

/// The ranking's view of a snapshot.
pub fn doc(s: &BookSnapshot) -> BookDoc {
    BookDoc {
        book_id: s.book_id.clone(),
        title: s.title.clone(),
        author: s.author.clone(),
        authors: s.authors.clone(),
        short_summary: s.short_summary.clone(),
        long_summary: s.long_summary.clone(),
        tags: s.tags.clone(),
        genre: s.genre.clone(),
        price_cents: s.price_cents,
        pages: s.pages,
        publish_date: s.publish_date.clone(),
        published_at: s.published_at.clone(),
        created_time: s.created_time.clone(),
        assessment_score: s.assessment_score,
        cover_image: s.cover_image.clone(),
        format: s.format.clone(),
        language: s.language.clone(),
        upload_writer_id: s.upload_writer_id.clone(),
        publisher_id: s.publisher_id.clone(),
        version: s.version,
    }
}

/// A listed book as lists show it (no long summary, no per-caller marks).
pub fn card(d: &BookDoc) -> catalog_pb::Book {
    catalog_pb::Book {
        book_id: d.book_id.clone(),
        title: d.title.clone(),
        author: d.author.clone(),
        authors: d.authors.clone(),
        cover_image: d.cover_image.clone(),
        price_cents: d.price_cents,
        publish_date: d.publish_date.clone(),
        created_time: d.created_time.clone(),
        published_at: d.published_at.clone(),
        short_summary: d.short_summary.clone(),
        long_summary: String::new(),
        tags: d.tags.clone(),
        genre: d.genre.clone(),
        // The analysis's score is for the writer, not for lists (catalog's rule).
        assessment_score: None,
        upload_writer_id: d.upload_writer_id.clone(),
        publisher_id: d.publisher_id.clone(),
        format: d.format.clone(),
        language: d.language.clone(),
        on: true,
        taken_down: false,
        listed: true,
        ..catalog_pb::Book::default()
    }
}

/// Keeps `snapshot` unless a newer one is held; true when it was kept.
pub async fn store(conn: &mut AsyncPgConnection, snapshot: &BookSnapshot) -> Result<bool, DbError> {
    let Ok(id) = Uuid::parse_str(&snapshot.book_id) else {
        return Ok(false);
    };
    let changed = prepared(
        "INSERT INTO books (book_id, version, listed, genre, snapshot) VALUES ($1, $2, $3, $4, $5) \
         ON CONFLICT (book_id) DO UPDATE SET version = EXCLUDED.version, listed = EXCLUDED.listed, \
         genre = EXCLUDED.genre, snapshot = EXCLUDED.snapshot WHERE books.version < EXCLUDED.version",
    )
    .bind::<diesel::sql_types::Uuid, _>(id)
    .bind::<BigInt, _>(snapshot.version)
    .bind::<Bool, _>(snapshot.listed)
    .bind::<Text, _>(snapshot.genre.clone())
    .bind::<Bytea, _>(snapshot.encode_to_vec())
    .execute(conn)
    .await?;
    Ok(changed == 1)
}

/// The snapshots of `ids` held (listed or not), for showing books recommended earlier.
pub async fn snapshots(
    conn: &mut AsyncPgConnection,
    ids: &[Uuid],
) -> Result<Vec<BookSnapshot>, DbError> {
    let rows: Vec<Vec<u8>> = books::table
        .filter(books::book_id.eq_any(ids))
        .select(books::snapshot)
        .load(conn)
        .await?;
    Ok(rows
        .iter()
        .filter_map(|b| BookSnapshot::decode(b.as_slice()).ok())
        .collect())
}

/// The sales the table holds for `book` (0 before its first).
pub async fn sales_of(conn: &mut AsyncPgConnection, book: Uuid) -> Result<u32, DbError> {
    let count: Option<i32> = sales::table
        .find(book)
        .select(sales::count)
        .first(conn)
        .await
        .optional()?;
    Ok(count.map_or(0, |n| u32::try_from(n).unwrap_or(0)))
}

/// The index as the tables hold it: every listed book, the sales of each book, and the
/// stored vectors whose text is still the book's (see [`crate::embedding`]).
pub async fn load_index(conn: &mut AsyncPgConnection) -> Result<Index, DbError> {
    let mut index = Index::new();
    let rows: Vec<Vec<u8>> = books::table
        .filter(books::listed.eq(true))
        .select(books::snapshot)
        .load(conn)
        .await?;
    for row in rows {
        match BookSnapshot::decode(row.as_slice()) {
            Ok(s) => {
                index.upsert(doc(&s));
            }
            Err(error) => tracing::warn!(%error, "unreadable stored book snapshot skipped"),
        }
    }
    let counts: Vec<(Uuid, i32)> = sales::table
        .select((sales::book_id, sales::count))
        .load(conn)
        .await?;
    for (book, count) in counts {
        index.set_sales(&book.to_string(), u32::try_from(count).unwrap_or(0));
    }
    crate::embedding::load_vectors(conn, &mut index).await?;
    Ok(index)
}
