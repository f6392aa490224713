//! Every book of the shop as catalog last announced it (`quire.book.v1`): what a book is
//! priced on (genre, length, price, how long it has been in the shop) and whose it is (its
//! writer and publisher may price it and see its sales). Every book event carries the
//! whole book with its version, so an event older than the one applied changes nothing
//! and the order they come in does not matter. Applying one moves the versions of the
//! genres it leaves and joins (see [`super::observations`]).

use chrono::{DateTime, Utc};
use diesel::QueryableByName;
use diesel::sql_types::{BigInt, Bool, Int4, Nullable, Text, Timestamptz};
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use prost::Message;
use quire_kit::db::{DbError, prepared};
use quire_kit::events::{Event, types};
use quire_proto::events::v1 as ev;
use uuid::Uuid;

/// A book as the projection holds it.
#[derive(Debug, Clone, QueryableByName)]
pub struct ShopBook {
    #[diesel(sql_type = diesel::sql_types::Uuid)]
    pub book_id: Uuid,
    #[diesel(sql_type = Text)]
    pub title: String,
    #[diesel(sql_type = Text)]
    pub genre: String,
    #[diesel(sql_type = Int4)]
    pub pages: i32,
    #[diesel(sql_type = BigInt)]
    pub price_cents: i64,
    #[diesel(sql_type = Nullable<diesel::sql_types::Uuid>)]
    pub writer_id: Option<Uuid>,
    #[diesel(sql_type = Nullable<diesel::sql_types::Uuid>)]
    pub publisher_id: Option<Uuid>,
    #[diesel(sql_type = Bool)]
    pub listed: bool,
    #[diesel(sql_type = Nullable<Timestamptz>)]
    pub published_at: Option<DateTime<Utc>>,
}

/// Applies a book event (published, updated, unpublished: each carries the whole book).
pub async fn apply(conn: &mut AsyncPgConnection, event: &Event) -> Result<(), DbError> {
    let data = event.data.as_slice();
    let book = match event.event_type.as_str() {
        types::BOOK_PUBLISHED => ev::BookPublished::decode(data).ok().and_then(|e| e.book),
        types::BOOK_UPDATED => ev::BookUpdated::decode(data).ok().and_then(|e| e.book),
        types::BOOK_UNPUBLISHED => ev::BookUnpublished::decode(data).ok().and_then(|e| e.book),
        _ => None,
    };
    let Some(book) = book else {
        tracing::warn!(event_id = %event.id, "undecodable book event, skipped");
        return Ok(());
    };
    let Some(book_id) = event.id_field("book_id", &book.book_id) else {
        return Ok(());
    };
    let published_at = DateTime::parse_from_rfc3339(&book.published_at)
        .ok()
        .map(|t| t.with_timezone(&Utc));
    // The upsert, and (when it applied) one more version for the genre the book had, the
    // one it has now and all genres together. Every part of the statement reads the rows
    // as they were before it, so `old` holds the genre before the change.
    prepared(
        "WITH up AS ( \
           INSERT INTO shop_books (book_id, title, genre, pages, price_cents, writer_id, \
                                   publisher_id, listed, published_at, version) \
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) \
           ON CONFLICT (book_id) DO UPDATE SET title = EXCLUDED.title, genre = EXCLUDED.genre, \
             pages = EXCLUDED.pages, price_cents = EXCLUDED.price_cents, \
             writer_id = EXCLUDED.writer_id, publisher_id = EXCLUDED.publisher_id, \
             listed = EXCLUDED.listed, published_at = EXCLUDED.published_at, \
             version = EXCLUDED.version \
           WHERE shop_books.version < EXCLUDED.version \
           RETURNING book_id, genre), \
         old AS (SELECT b.genre FROM shop_books b JOIN up USING (book_id)) \
         INSERT INTO genre_versions (genre, version) \
         SELECT genre, 1 FROM (SELECT lower(genre) AS genre FROM up \
                               UNION SELECT lower(genre) FROM old \
                               UNION SELECT '' FROM up) g \
         ON CONFLICT (genre) DO UPDATE SET version = genre_versions.version + 1",
    )
    .bind::<diesel::sql_types::Uuid, _>(book_id)
    .bind::<Text, _>(book.title.as_str())
    .bind::<Text, _>(book.genre.trim())
    .bind::<Int4, _>(i32::try_from(book.pages).unwrap_or(i32::MAX))
    .bind::<BigInt, _>(book.price_cents.max(0))
    .bind::<Nullable<diesel::sql_types::Uuid>, _>(
        event.opt_id_field("upload_writer_id", &book.upload_writer_id),
    )
    .bind::<Nullable<diesel::sql_types::Uuid>, _>(
        event.opt_id_field("publisher_id", &book.publisher_id),
    )
    .bind::<Bool, _>(book.listed)
    .bind::<Nullable<Timestamptz>, _>(published_at)
    .bind::<BigInt, _>(book.version)
    .execute(conn)
    .await?;
    Ok(())
}

/// Book `book_id` as last announced, if the projection has seen it.
pub async fn find(
    conn: &mut AsyncPgConnection,
    book_id: Uuid,
) -> Result<Option<ShopBook>, DbError> {
    use diesel::OptionalExtension;
    Ok(prepared(
        "SELECT book_id, title, genre, pages, price_cents, writer_id, publisher_id, listed, \
                published_at \
         FROM shop_books WHERE book_id = $1",
    )
    .bind::<diesel::sql_types::Uuid, _>(book_id)
    .get_result::<ShopBook>(conn)
    .await
    .optional()?)
}
