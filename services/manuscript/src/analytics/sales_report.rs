//! A user's sales over time: the books they wrote (`as` "writer") or the books on their
//! shelf (`as` "publisher"), from the trades and the settled campaigns the projections
//! keep. Copies sold, what buyers paid and the writer's part count the trades at the
//! book's price; a funded campaign counts once, as its payout to the writer on the day it
//! settled (its backers' trades are that same money and are not counted again). Every
//! figure is summed by Postgres; the rows only become messages here.

use chrono::{DateTime, Days, NaiveDate, Utc};
use diesel::QueryableByName;
use diesel::sql_types::{BigInt, Date, Integer, Nullable, Text, Timestamptz};
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use quire_kit::caller::Caller;
use quire_kit::db::prepared;
use quire_kit::error::CommonErrors;
use quire_proto::manuscript::v1 as pb;
use uuid::Uuid;

use crate::error::{ManuscriptError, Result};

/// The window when the request names none.
pub const DEFAULT_DAYS: u32 = 90;
/// The longest window: two years.
pub const MAX_DAYS: u32 = 730;

/// Whose books the report is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// The books the user wrote.
    Writer,
    /// The books on the user's shelf (they are the publisher).
    Publisher,
}

impl Role {
    pub fn parse(value: &str) -> Result<Self> {
        match value.trim().to_ascii_lowercase().as_str() {
            "" | "writer" => Ok(Self::Writer),
            "publisher" => Ok(Self::Publisher),
            _ => Err(ManuscriptError::invalid(
                "as",
                "as: must be \"writer\" or \"publisher\"",
            )),
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Writer => "writer",
            Self::Publisher => "publisher",
        }
    }
}

/// The window's length in days: 0 is the default, else 1..=[`MAX_DAYS`].
pub fn window_days(days: u32) -> Result<u32> {
    match days {
        0 => Ok(DEFAULT_DAYS),
        1..=MAX_DAYS => Ok(days),
        _ => Err(ManuscriptError::invalid(
            "days",
            format!("days: must be between 1 and {MAX_DAYS}"),
        )),
    }
}

/// The first and last day of a window of `days` days ending today (UTC), and the times
/// that bound it: from the first day's midnight to the midnight after today.
struct Window {
    first: NaiveDate,
    last: NaiveDate,
    from: DateTime<Utc>,
    until: DateTime<Utc>,
}

impl Window {
    fn ending(today: NaiveDate, days: u32) -> Self {
        let first = today
            .checked_sub_days(Days::new(u64::from(days.saturating_sub(1))))
            .unwrap_or(today);
        let next = today.checked_add_days(Days::new(1)).unwrap_or(today);
        Self {
            first,
            last: today,
            from: first.and_time(chrono::NaiveTime::MIN).and_utc(),
            until: next.and_time(chrono::NaiveTime::MIN).and_utc(),
        }
    }
}

#[derive(QueryableByName)]
struct BookRow {
    #[diesel(sql_type = diesel::sql_types::Uuid)]
    book_id: Uuid,
    #[diesel(sql_type = Text)]
    title: String,
    #[diesel(sql_type = Text)]
    genre: String,
    #[diesel(sql_type = BigInt)]
    price_cents: i64,
    #[diesel(sql_type = BigInt)]
    units: i64,
    #[diesel(sql_type = BigInt)]
    gross_cents: i64,
    #[diesel(sql_type = BigInt)]
    earned_cents: i64,
    #[diesel(sql_type = BigInt)]
    campaign_cents: i64,
}

/// A row of the series: the window's totals (`level` 3), a day's (1) or a book's that day
/// (0).
#[derive(QueryableByName)]
struct SeriesRow {
    #[diesel(sql_type = Integer)]
    level: i32,
    #[diesel(sql_type = Nullable<Text>)]
    date: Option<String>,
    #[diesel(sql_type = Nullable<diesel::sql_types::Uuid>)]
    book_id: Option<Uuid>,
    #[diesel(sql_type = BigInt)]
    units: i64,
    #[diesel(sql_type = BigInt)]
    gross_cents: i64,
    #[diesel(sql_type = BigInt)]
    earned_cents: i64,
    #[diesel(sql_type = BigInt)]
    campaign_cents: i64,
}

/// Each book of the user (`$1` names them in `shop_books.<column>`) with its sums over the
/// window `[$2, $3)` (sales) and `[$4, $5)` (campaigns), most earned first.
macro_rules! books_sql {
    ($column:literal) => {
        concat!(
            "WITH mine AS (SELECT book_id, title, genre, price_cents FROM shop_books \
                           WHERE ",
            $column,
            " = $1), \
             s AS (SELECT s.book_id, count(*) AS units, sum(s.price_cents) AS gross, \
                          sum(s.seller_cents) AS earned \
                   FROM sales s JOIN mine USING (book_id) \
                   WHERE s.campaign_id IS NULL AND s.completed_at >= $2 \
                     AND s.completed_at < $3 \
                   GROUP BY s.book_id), \
             c AS (SELECT c.book_id, sum(c.writer_cents) AS campaign \
                   FROM campaigns c JOIN mine USING (book_id) \
                   WHERE c.status = 'funded' AND c.settled_at >= $4 AND c.settled_at < $5 \
                   GROUP BY c.book_id) \
             SELECT m.book_id, m.title, m.genre, m.price_cents, \
                    coalesce(s.units, 0)::int8 AS units, \
                    coalesce(s.gross, 0)::int8 AS gross_cents, \
                    coalesce(s.earned, 0)::int8 AS earned_cents, \
                    coalesce(c.campaign, 0)::int8 AS campaign_cents \
             FROM mine m LEFT JOIN s USING (book_id) LEFT JOIN c USING (book_id) \
             ORDER BY coalesce(s.earned, 0) + coalesce(c.campaign, 0) DESC, \
                      coalesce(s.earned, 0) DESC, m.title, m.book_id"
        )
    };
}

/// The window's days `$6..=$7` (every one, oldest first), each with its sums and its
/// books' sums, and the window's totals first: one grouping pass over the user's sales and
/// funded campaigns in the window.
macro_rules! series_sql {
    ($column:literal) => {
        concat!(
            "WITH mine AS (SELECT book_id FROM shop_books WHERE ",
            $column,
            " = $1), \
             per AS ( \
               SELECT (s.completed_at AT TIME ZONE 'UTC')::date AS day, s.book_id, \
                      1::int8 AS units, s.price_cents AS gross, s.seller_cents AS earned, \
                      0::int8 AS campaign \
               FROM sales s JOIN mine USING (book_id) \
               WHERE s.campaign_id IS NULL AND s.completed_at >= $2 AND s.completed_at < $3 \
               UNION ALL \
               SELECT (c.settled_at AT TIME ZONE 'UTC')::date, c.book_id, 0, 0, 0, \
                      c.writer_cents \
               FROM campaigns c JOIN mine USING (book_id) \
               WHERE c.status = 'funded' AND c.settled_at >= $4 AND c.settled_at < $5), \
             days AS (SELECT d::date AS day \
                      FROM generate_series($6::date, $7::date, interval '1 day') d) \
             SELECT GROUPING(days.day, per.book_id) AS level, \
                    to_char(days.day, 'YYYY-MM-DD') AS date, per.book_id, \
                    coalesce(sum(per.units), 0)::int8 AS units, \
                    coalesce(sum(per.gross), 0)::int8 AS gross_cents, \
                    coalesce(sum(per.earned), 0)::int8 AS earned_cents, \
                    coalesce(sum(per.campaign), 0)::int8 AS campaign_cents \
             FROM days LEFT JOIN per ON per.day = days.day \
             GROUP BY GROUPING SETS ((), (days.day), (days.day, per.book_id)) \
             ORDER BY days.day NULLS FIRST, GROUPING(per.book_id) DESC, per.book_id"
        )
    };
}

/// The report `req` asks for, for `caller`: their own, or (admins only) anyone's.
pub async fn report(
    conn: &mut AsyncPgConnection,
    caller: &Caller,
    req: &pb::SalesReportRequest,
) -> Result<pb::SalesReport> {
    let role = Role::parse(&req.r#as)?;
    let days = window_days(req.days)?;
    let user = crate::input::acting_for(caller, "user_id", &req.user_id)?;
    let window = Window::ending(Utc::now().date_naive(), days);
    let (books_sql, series_sql) = match role {
        Role::Writer => (books_sql!("writer_id"), series_sql!("writer_id")),
        Role::Publisher => (books_sql!("publisher_id"), series_sql!("publisher_id")),
    };
    let books = prepared(books_sql)
        .bind::<diesel::sql_types::Uuid, _>(user)
        .bind::<Timestamptz, _>(window.from)
        .bind::<Timestamptz, _>(window.until)
        .bind::<Timestamptz, _>(window.from)
        .bind::<Timestamptz, _>(window.until)
        .load::<BookRow>(conn);
    let series = prepared(series_sql)
        .bind::<diesel::sql_types::Uuid, _>(user)
        .bind::<Timestamptz, _>(window.from)
        .bind::<Timestamptz, _>(window.until)
        .bind::<Timestamptz, _>(window.from)
        .bind::<Timestamptz, _>(window.until)
        .bind::<Date, _>(window.first)
        .bind::<Date, _>(window.last)
        .load::<SeriesRow>(conn);
    // One round trip for both (see quire_kit::db on pipelining).
    let (books, series) = futures::join!(books, series);
    let (books, series) = (books?, series?);

    let mut out = pb::SalesReport {
        r#as: role.as_str().to_owned(),
        user_id: user.to_string(),
        days,
        books: books.into_iter().map(book_sales).collect(),
        ..Default::default()
    };
    for row in series {
        match (row.level, row.date, row.book_id) {
            (3, _, _) => {
                out.units = count(row.units);
                out.gross_cents = row.gross_cents;
                out.earned_cents = row.earned_cents;
                out.campaign_cents = row.campaign_cents;
            }
            (1, Some(date), _) => out.series.push(pb::DaySales {
                date,
                units: count(row.units),
                gross_cents: row.gross_cents,
                earned_cents: row.earned_cents,
                campaign_cents: row.campaign_cents,
                books: Vec::new(),
            }),
            (0, Some(date), Some(book_id)) => {
                if let Some(day) = out.series.last_mut().filter(|d| d.date == date) {
                    day.books.push(pb::DayBook {
                        book_id: book_id.to_string(),
                        units: count(row.units),
                        earned_cents: row.earned_cents,
                        campaign_cents: row.campaign_cents,
                    });
                }
            }
            // A day without anything: its (day, no book) group says nothing new.
            _ => {}
        }
    }
    Ok(out)
}

fn count(n: i64) -> u64 {
    u64::try_from(n).unwrap_or(0)
}

fn book_sales(row: BookRow) -> pb::BookSales {
    pb::BookSales {
        book_id: row.book_id.to_string(),
        title: row.title,
        genre: row.genre,
        price_cents: row.price_cents,
        units: count(row.units),
        gross_cents: row.gross_cents,
        earned_cents: row.earned_cents,
        campaign_cents: row.campaign_cents,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_default_and_bounds() {
        assert_eq!(window_days(0).unwrap(), 90);
        assert_eq!(window_days(1).unwrap(), 1);
        assert_eq!(window_days(730).unwrap(), 730);
        assert!(window_days(731).is_err());
    }

    #[test]
    fn a_window_of_one_day_is_today() {
        let today = NaiveDate::from_ymd_opt(2026, 11, 25).unwrap();
        let w = Window::ending(today, 1);
        assert_eq!((w.first, w.last), (today, today));
        assert_eq!(w.until - w.from, chrono::Duration::days(1));
        let w = Window::ending(today, 90);
        assert_eq!(w.first, NaiveDate::from_ymd_opt(2026, 8, 28).unwrap());
    }

    #[test]
    fn roles() {
        assert_eq!(Role::parse("").unwrap(), Role::Writer);
        assert_eq!(Role::parse("Publisher").unwrap(), Role::Publisher);
        assert!(Role::parse("reader").is_err());
    }
}
