//! What readers give a book: 1 to 5 stars, one rating per reader and book, which the reader
//! may change. Only a reader who owns the book (bought it) rates it; its writer does not.
//! The book keeps its totals (count and sum of stars) beside its row, changed in the same
//! transaction as the rating, so every list shows the average and the count without
//! counting.
//!
//! Kept apart from `assessment_score`, the manuscript analysis's quality score: readers'
//! stars are what the shop shows and ranks by; the machine's score is for the writer.

use chrono::Utc;
use diesel::prelude::*;
use diesel_async::scoped_futures::ScopedFutureExt;
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use quire_kit::caller::Caller;
use quire_proto::catalog::v1 as pb;
use uuid::Uuid;

use crate::db::book_rating::BookRatingRow;
use crate::db::schema::{book_ratings, books};
use crate::error::{CatalogError, CommonErrors, Result};
use crate::wallet_purchases::WalletPurchases;
use crate::{access, input};

pub const MIN_STARS: u32 = 1;
pub const MAX_STARS: u32 = 5;

/// The prior of the rank "Featured" sorts by: as if every book had [`PRIOR_COUNT`] extra
/// ratings of [`PRIOR_STARS`].
///
/// A Bayesian (weighted) average, the rule IMDb's Top 250 uses: a plain average puts a book
/// with one five-star rating above one with two hundred ratings averaging 4.8, and a book
/// with no readers has no average at all. Pulling every average towards the middle of the
/// scale by a few imagined ratings lets a book climb only as readers agree on it: one 5 gives
/// (15 + 5) / 6 = 3.33, ten 5s give 4.33, and a book nobody rated sits at 3, below any book
/// readers liked and above one they did not. The middle of the scale (3 stars), not the
/// shop's mean, so a book's rank does not move when other books are rated; 5 ratings because
/// a small shop has few ratings per book, and a larger prior would keep every book near 3.
///
/// The column `books.rating_rank` is this formula (a generated column, see the migration
/// `book_ratings`); [`rank`] is the same in Rust, and a test holds the two together.
pub const PRIOR_STARS: f64 = 3.0;
pub const PRIOR_COUNT: f64 = 5.0;

/// The rank of a book with `count` ratings whose stars add up to `sum`.
pub fn rank(count: i32, sum: i64) -> f64 {
    (sum as f64 + PRIOR_STARS * PRIOR_COUNT) / (f64::from(count) + PRIOR_COUNT)
}

/// The readers' average, none without ratings.
pub fn average(count: i32, sum: i64) -> Option<f64> {
    (count > 0).then(|| sum as f64 / f64::from(count))
}

/// Stars as a reader gives them: a whole number from 1 to 5.
pub fn stars(value: u32) -> Result<i16> {
    if (MIN_STARS..=MAX_STARS).contains(&value) {
        Ok(i16::try_from(value).unwrap_or(5))
    } else {
        Err(CatalogError::invalid(
            "stars",
            format!("stars must be a whole number from {MIN_STARS} to {MAX_STARS}"),
        ))
    }
}

/// Gives or changes the caller's rating of a book they own; answers the book's new totals.
pub async fn rate(
    conn: &mut AsyncPgConnection,
    wallet: &WalletPurchases,
    caller: Option<&Caller>,
    req: &pb::RateBookRequest,
) -> Result<pb::BookRating> {
    let c = input::required(caller)?;
    let book_id = input::uuid("book_id", &req.book_id)?;
    let stars = stars(req.stars)?;
    let book = access::visible_book(conn, caller, book_id).await?;
    if book.upload_writer_id == c.user_id() {
        return Err(CatalogError::forbidden(
            "Writers may not rate their own books",
        ));
    }
    let owns = access::bought(conn, c.user_id(), book_id).await?
        || wallet.confirm(conn, c, book_id).await?;
    if !owns {
        return Err(CatalogError::forbidden(
            "Only a reader who owns this book may rate it: buy it first",
        ));
    }
    let user_id = c.user_id();
    let (count, sum) = conn
        .transaction::<_, CatalogError, _>(|conn| {
            async move {
                // The book's row first: raters of one book take turns, so each recount
                // below sees the ratings the others committed.
                books::table
                    .find(book_id)
                    .select(books::id)
                    .for_update()
                    .first::<Uuid>(conn)
                    .await?;
                let now = Utc::now();
                diesel::insert_into(book_ratings::table)
                    .values(BookRatingRow {
                        user_id,
                        book_id,
                        stars,
                        created_at: now,
                        updated_at: now,
                    })
                    .on_conflict((book_ratings::user_id, book_ratings::book_id))
                    .do_update()
                    .set((
                        book_ratings::stars.eq(stars),
                        book_ratings::updated_at.eq(now),
                    ))
                    .execute(conn)
                    .await?;
                let (count, sum): (i64, Option<i64>) = book_ratings::table
                    .filter(book_ratings::book_id.eq(book_id))
                    .select((
                        diesel::dsl::count_star(),
                        diesel::dsl::sum(book_ratings::stars),
                    ))
                    .first(conn)
                    .await?;
                let count = i32::try_from(count).unwrap_or(i32::MAX);
                let sum = sum.unwrap_or(0);
                diesel::update(books::table.find(book_id))
                    .set((books::rating_count.eq(count), books::rating_sum.eq(sum)))
                    .execute(conn)
                    .await?;
                Ok((count, sum))
            }
            .scope_boxed()
        })
        .await?;
    tracing::info!(%book_id, stars, count, "book rated");
    Ok(pb::BookRating {
        book_id: book_id.to_string(),
        average: average(count, sum).unwrap_or(0.0),
        count: u32::try_from(count).unwrap_or(0),
        my_stars: u32::try_from(stars).unwrap_or(0),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stars_are_whole_numbers_from_one_to_five() {
        assert!(stars(0).is_err());
        assert!(stars(6).is_err());
        assert_eq!(stars(1).unwrap(), 1);
        assert_eq!(stars(5).unwrap(), 5);
    }

    #[test]
    fn the_rank_needs_several_readers_to_climb() {
        let unrated = rank(0, 0);
        assert_eq!(unrated, 3.0);
        assert!(rank(1, 5) > unrated);
        assert!(rank(1, 1) < unrated);
        // Two hundred ratings averaging 4.8 outrank a single five.
        assert!(rank(200, 960) > rank(1, 5));
        assert_eq!(average(0, 0), None);
        assert_eq!(average(4, 18), Some(4.5));
    }
}
