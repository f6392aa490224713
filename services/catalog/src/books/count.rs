//! How many books a list says it has, without counting a million rows per page (issue 35).
//!
//! The shop unfiltered or filtered by genre alone reads the kept totals (`listed_totals`,
//! kept by a trigger in the transaction that changes a book: see its migration). Any other
//! filter counts its matches only up to the pages just ahead of the one asked for: past
//! that bound the total is a lower bound and the page says so (`total_at_least`), as a
//! shop shows "more than 1,000 results". The cost of a count is then that of reading the
//! page itself, never that of the whole table.

use diesel::pg::Pg;
use diesel::prelude::*;
use diesel::sql_types::Bool;
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use uuid::Uuid;

use crate::db::schema::{books, listed_totals};
use crate::error::Result;

#[diesel::declare_sql_function]
extern "SQL" {
    fn lower(text: diesel::sql_types::Text) -> diesel::sql_types::Text;
}

/// How many pages past the one asked for a bounded count looks ahead.
pub const PAGES_AHEAD: i64 = 10;

/// Matches counted at least, whatever the page.
pub const LEAST_BOUND: i64 = 1000;

/// A list's total: every match, or at least this many.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Total {
    pub count: u64,
    pub at_least: bool,
}

impl Total {
    fn exact(count: i64) -> Self {
        Self {
            count: quire_kit::paging::total(count),
            at_least: false,
        }
    }
}

/// The kept number of listed books: all of them (`genre` None) or of one genre, its case
/// ignored as the genre filter ignores it.
pub async fn listed(conn: &mut AsyncPgConnection, genre: Option<&str>) -> Result<Total> {
    let kept: Option<i64> = match genre {
        None => {
            listed_totals::table
                .filter(listed_totals::scope.eq("all"))
                .select(listed_totals::books)
                .first(conn)
                .await
        }
        Some(g) => {
            listed_totals::table
                .filter(listed_totals::scope.eq(lower(format!("genre:{g}"))))
                .select(listed_totals::books)
                .first(conn)
                .await
        }
    }
    .optional()?;
    Ok(Total::exact(kept.unwrap_or(0).max(0)))
}

/// The matches of `query` counted up to the bound for a page at `offset` of `size`.
pub async fn bounded<'a>(
    conn: &mut AsyncPgConnection,
    query: books::BoxedQuery<'a, Pg>,
    offset: i64,
    size: i64,
) -> Result<Total> {
    let bound = LEAST_BOUND.max(offset + size * PAGES_AHEAD);
    let seen: Vec<Uuid> = query.select(books::id).limit(bound + 1).load(conn).await?;
    let seen = i64::try_from(seen.len()).unwrap_or(i64::MAX);
    Ok(if seen > bound {
        Total {
            count: quire_kit::paging::total(bound),
            at_least: true,
        }
    } else {
        Total::exact(seen)
    })
}

/// The genre filter: the genre's name, its case ignored (an equality on `lower(genre)`, so
/// that the listed books' genre index serves it).
pub fn genre_is(genre: &str) -> Box<dyn BoxableExpression<books::table, Pg, SqlType = Bool> + '_> {
    Box::new(lower(books::genre).eq(lower(genre)))
}
