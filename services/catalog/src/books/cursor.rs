//! The shop's sorts and keyset paging (issue 35): a page asked for `after` a cursor starts
//! right after the book the cursor names, in the same sort, found through the sort's index
//! instead of skipping every row before it as an offset does. Each page answers the cursor
//! of its last book (`next_after`), so a client can walk a list of any length at the cost
//! of its first page.
//!
//! A cursor is `<sort>.<key>.<book id>`, the key being what the sort orders by (the
//! creation time in microseconds, the price in cents, the title in URL-safe base64, or a
//! rating's sum and count, ranked by `ratings::rank`); it is opaque to clients and
//! checked on the way in.

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use chrono::{DateTime, Utc};
use diesel::dsl::sql;
use diesel::pg::Pg;
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Bool, Double, Integer, Text, Timestamptz};
use uuid::Uuid;

use crate::db::book::BookRow;
use crate::db::schema::books;
use crate::error::{CatalogError, CommonErrors, Result};
use crate::ratings;

/// The shop's orders.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sort {
    Newest,
    Oldest,
    PriceAsc,
    PriceDesc,
    Title,
    Rating,
}

impl Sort {
    pub fn parse(sort: &str) -> Result<Self> {
        Ok(match sort.trim() {
            "" | "newest" => Self::Newest,
            "oldest" => Self::Oldest,
            "price_asc" => Self::PriceAsc,
            "price_desc" => Self::PriceDesc,
            "title" => Self::Title,
            "rating" => Self::Rating,
            _ => {
                return Err(CatalogError::invalid(
                    "sort",
                    "sort must be one of newest, oldest, price_asc, price_desc, title, rating",
                ));
            }
        })
    }

    fn name(self) -> &'static str {
        match self {
            Self::Newest => "newest",
            Self::Oldest => "oldest",
            Self::PriceAsc => "price_asc",
            Self::PriceDesc => "price_desc",
            Self::Title => "title",
            Self::Rating => "rating",
        }
    }

    /// `query` in this order; the book id breaks ties, so the order is total.
    pub fn order<'a>(self, query: books::BoxedQuery<'a, Pg>) -> books::BoxedQuery<'a, Pg> {
        match self {
            Self::Newest => query.order((books::created_time.desc(), books::id.desc())),
            Self::Oldest => query.order((books::created_time.asc(), books::id.asc())),
            Self::PriceAsc => query.order((books::price_cents.asc(), books::id.asc())),
            Self::PriceDesc => query.order((books::price_cents.desc(), books::id.desc())),
            Self::Title => query.order((books::title.asc(), books::id.asc())),
            // Readers' stars, weighted by how many rated (ratings::rank), never the
            // analysis's score: a book nobody has read does not rise above those readers
            // liked.
            Self::Rating => query.order((
                books::rating_rank.desc(),
                books::rating_count.desc(),
                books::id.desc(),
            )),
        }
    }

    /// The cursor of `row` in this order.
    pub fn cursor(self, row: &BookRow) -> String {
        let key = match self {
            Self::Newest | Self::Oldest => row.created_time.timestamp_micros().to_string(),
            Self::PriceAsc | Self::PriceDesc => row.price_cents.to_string(),
            Self::Title => URL_SAFE_NO_PAD.encode(row.title.as_bytes()),
            Self::Rating => format!("{}-{}", row.rating_sum, row.rating_count),
        };
        format!("{}.{key}.{}", self.name(), row.id)
    }

    /// `query` limited to the books after `cursor` in this order.
    pub fn after<'a>(
        self,
        query: books::BoxedQuery<'a, Pg>,
        cursor: &str,
    ) -> Result<books::BoxedQuery<'a, Pg>> {
        let bad = || {
            CatalogError::invalid(
                "after",
                "after must be the next_after of a page in the same sort",
            )
        };
        let mut parts = cursor.trim().splitn(3, '.');
        let (sort, key, id) = match (parts.next(), parts.next(), parts.next()) {
            (Some(s), Some(k), Some(i)) => (s, k, i),
            _ => return Err(bad()),
        };
        if sort != self.name() {
            return Err(bad());
        }
        let id = Uuid::parse_str(id).map_err(|_| bad())?;
        // Row comparisons, (key, id) < (cursor's key, cursor's id), which Postgres serves
        // from the sort's index.
        let filter: Box<dyn BoxableExpression<books::table, Pg, SqlType = Bool>> = match self {
            Self::Newest | Self::Oldest => {
                let micros: i64 = key.parse().map_err(|_| bad())?;
                let at: DateTime<Utc> = DateTime::from_timestamp_micros(micros).ok_or_else(bad)?;
                let op = if self == Self::Newest { "<" } else { ">" };
                Box::new(
                    sql::<Bool>("(books.created_time, books.id) ")
                        .sql(op)
                        .sql(" (")
                        .bind::<Timestamptz, _>(at)
                        .sql(", ")
                        .bind::<diesel::sql_types::Uuid, _>(id)
                        .sql(")"),
                )
            }
            Self::PriceAsc | Self::PriceDesc => {
                let cents: i64 = key.parse().map_err(|_| bad())?;
                let op = if self == Self::PriceDesc { "<" } else { ">" };
                Box::new(
                    sql::<Bool>("(books.price_cents, books.id) ")
                        .sql(op)
                        .sql(" (")
                        .bind::<BigInt, _>(cents)
                        .sql(", ")
                        .bind::<diesel::sql_types::Uuid, _>(id)
                        .sql(")"),
                )
            }
            Self::Title => {
                let title = URL_SAFE_NO_PAD
                    .decode(key)
                    .ok()
                    .and_then(|b| String::from_utf8(b).ok())
                    .ok_or_else(bad)?;
                Box::new(
                    sql::<Bool>("(books.title, books.id) > (")
                        .bind::<Text, _>(title)
                        .sql(", ")
                        .bind::<diesel::sql_types::Uuid, _>(id)
                        .sql(")"),
                )
            }
            Self::Rating => {
                let (sum, count) = key.split_once('-').ok_or_else(bad)?;
                let sum: i64 = sum.parse().map_err(|_| bad())?;
                let count: i32 = count.parse().map_err(|_| bad())?;
                // ratings::rank gives the generated column's bits: both divide the same
                // two exact integers as doubles.
                Box::new(
                    sql::<Bool>("(books.rating_rank, books.rating_count, books.id) < (")
                        .bind::<Double, _>(ratings::rank(count, sum))
                        .sql(", ")
                        .bind::<Integer, _>(count)
                        .sql(", ")
                        .bind::<diesel::sql_types::Uuid, _>(id)
                        .sql(")"),
                )
            }
        };
        Ok(query.filter(filter))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorts_are_named_and_others_refused() {
        assert_eq!(Sort::parse("").unwrap(), Sort::Newest);
        assert_eq!(Sort::parse(" price_desc ").unwrap(), Sort::PriceDesc);
        assert!(Sort::parse("random").is_err());
    }

    #[test]
    fn a_cursor_of_another_sort_or_garbled_is_refused() {
        let q = || books::table.into_boxed::<Pg>();
        let id = Uuid::nil();
        assert!(Sort::Newest.after(q(), &format!("newest.17.{id}")).is_ok());
        assert!(Sort::Title.after(q(), &format!("newest.17.{id}")).is_err());
        assert!(Sort::Newest.after(q(), "newest.17.not-a-uuid").is_err());
        assert!(Sort::Newest.after(q(), &format!("newest.x.{id}")).is_err());
        assert!(Sort::Rating.after(q(), &format!("rating.4.{id}")).is_err());
        assert!(Sort::Title.after(q(), &format!("title.!!.{id}")).is_err());
        assert!(Sort::PriceAsc.after(q(), "").is_err());
    }
}
