//! What calibration reads: every book of a genre with how long it has been in the shop and
//! its sales counted by the price paid (backers of a campaign left out), in one indexed,
//! aggregated query; and the genre's version, which the projections move in the
//! transaction that changes what that query would answer (a book of the genre, a sale of
//! one), so a cached calibration is checked with one primary-key read.
//!
//! Genres are keyed in lower case, as the pricing model matches them; the key `""` is all
//! genres together (a book without a genre, or the shop as a whole).

use diesel::QueryableByName;
use diesel::sql_types::{BigInt, Double, Int4, Nullable, Text};
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use quire_kit::db::prepared;
use quire_pricing::{BookObservation, HORIZON_DAYS, Sale};
use uuid::Uuid;

use crate::analytics::shop_books::ShopBook;
use crate::error::Result;

/// The key of `genre` in the pricing cache (Postgres lowers it the same way for
/// `genre_versions`; genres are taxonomy names).
pub fn genre_key(genre: &str) -> String {
    genre.trim().to_lowercase()
}

#[derive(QueryableByName)]
struct Version {
    #[diesel(sql_type = BigInt)]
    version: i64,
}

/// The version of genre `key` (0 while nothing of it was seen).
pub async fn genre_version(conn: &mut AsyncPgConnection, key: &str) -> Result<i64> {
    Ok(prepared(
        "SELECT coalesce((SELECT version FROM genre_versions WHERE genre = lower($1)), 0)::int8 \
         AS version",
    )
    .bind::<Text, _>(key)
    .get_result::<Version>(conn)
    .await?
    .version)
}

#[derive(QueryableByName)]
struct BookAndVersion {
    #[diesel(embed)]
    book: ShopBook,
    #[diesel(sql_type = BigInt)]
    genre_version: i64,
}

/// Book `book_id` as the projection holds it, with its genre's version (one read).
pub async fn book_with_version(
    conn: &mut AsyncPgConnection,
    book_id: Uuid,
) -> Result<Option<(ShopBook, i64)>> {
    use diesel::OptionalExtension;
    let found = prepared(
        "SELECT b.book_id, b.title, b.genre, b.pages, b.price_cents, b.writer_id, \
                b.publisher_id, b.listed, b.published_at, \
                coalesce(v.version, 0)::int8 AS genre_version \
         FROM shop_books b \
         LEFT JOIN genre_versions v \
           ON v.genre = lower(b.genre) \
         WHERE b.book_id = $1",
    )
    .bind::<diesel::sql_types::Uuid, _>(book_id)
    .get_result::<BookAndVersion>(conn)
    .await
    .optional()?;
    Ok(found.map(|r| (r.book, r.genre_version)))
}

/// One book and one price it sold at (none: it sold nothing).
#[derive(QueryableByName)]
struct ObservedRow {
    #[diesel(sql_type = diesel::sql_types::Uuid)]
    book_id: Uuid,
    #[diesel(sql_type = Text)]
    genre: String,
    #[diesel(sql_type = Int4)]
    pages: i32,
    #[diesel(sql_type = BigInt)]
    price_cents: i64,
    #[diesel(sql_type = Double)]
    exposure_days: f64,
    #[diesel(sql_type = Nullable<BigInt>)]
    sale_price: Option<i64>,
    #[diesel(sql_type = Nullable<BigInt>)]
    sales: Option<i64>,
}

/// The same for one genre (`$2`) or every book; `$1` caps the exposure (the model's
/// horizon). A book that was never in the shop and sold nothing tells nothing and is left
/// out; a listed book has been exposed at least a day.
macro_rules! observations_sql {
    ($filter:literal) => {
        concat!(
            "SELECT b.book_id, b.genre, b.pages, b.price_cents, \
                    (CASE WHEN b.published_at IS NULL THEN 0 \
                          ELSE LEAST($1, GREATEST(1, \
                                 extract(epoch FROM now() - b.published_at) / 86400)) \
                     END)::float8 AS exposure_days, \
                    s.price_cents AS sale_price, s.n AS sales \
             FROM shop_books b \
             LEFT JOIN LATERAL (SELECT price_cents, count(*) AS n FROM sales \
                                WHERE sales.book_id = b.book_id AND sales.campaign_id IS NULL \
                                GROUP BY price_cents) s ON true \
             WHERE (b.published_at IS NOT NULL OR s.n IS NOT NULL)",
            $filter,
            " ORDER BY b.book_id"
        )
    };
}

/// Every observed book of genre `key` (all books for `""`), with its sales.
pub async fn load(conn: &mut AsyncPgConnection, key: &str) -> Result<Vec<BookObservation>> {
    let cap = f64::from(HORIZON_DAYS);
    let rows: Vec<ObservedRow> = if key.is_empty() {
        prepared(observations_sql!(""))
            .bind::<Double, _>(cap)
            .load(conn)
            .await?
    } else {
        prepared(observations_sql!(" AND lower(b.genre) = lower($2)"))
            .bind::<Double, _>(cap)
            .bind::<Text, _>(key)
            .load(conn)
            .await?
    };
    let mut books: Vec<BookObservation> = Vec::new();
    for row in rows {
        let same = books.last().is_some_and(|b| b.book_id == row.book_id);
        if !same {
            books.push(BookObservation {
                book_id: row.book_id,
                genre: row.genre,
                pages: u32::try_from(row.pages).unwrap_or(0),
                price_cents: row.price_cents,
                exposure_days: row.exposure_days,
                sales: Vec::new(),
            });
        }
        if let (Some(book), Some(price_cents), Some(n)) =
            (books.last_mut(), row.sale_price, row.sales)
        {
            let n = usize::try_from(n).unwrap_or(0);
            book.sales
                .extend(std::iter::repeat_n(Sale { price_cents }, n));
        }
    }
    Ok(books)
}
