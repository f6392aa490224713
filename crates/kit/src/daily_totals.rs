//! Per-day totals of a service's own rows (sales, turns, ...) for the admin figures,
//! summed once per closed day rather than on every ask.
//!
//! The rows summed are dated when they are written and never re-dated, so a day's totals
//! stop changing once the transactions that were writing its rows have committed. A day is
//! *closed* [`SEAL_MARGIN`] after it ends. On the first ask that covers a closed day, its
//! totals are summed from the rows and kept in the schema's `daily_totals` table (kit's
//! migration), a row of zeros for a day with nothing; every later ask reads them from
//! there and sums only the open days (today, and yesterday within the margin) from the
//! rows. A year of a million sales then costs 365 small rows and one day's sum, and the
//! write path (the sale itself) does no extra work.
//!
//! Two replicas filling the same days at once write the same sums; the second's inserts
//! do nothing.

use chrono::{DateTime, NaiveDate, NaiveTime, TimeDelta, Utc};
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Date, Nullable, Text, Timestamptz};
use diesel_async::{AsyncPgConnection, RunQueryDsl};

/// How long after its end a day is closed: longer than any transaction that could still
/// commit a row dated in it.
pub const SEAL_MARGIN: TimeDelta = TimeDelta::hours(1);

/// What is summed per day. `source` is a SELECT of `day` (date), `count`, `amount` and
/// `extra` (bigint) over the rows dated in `[$1, $2)` (two timestamptz), grouped by their
/// UTC day; `amount` and `extra` are the series' own sums (0 when it has none). `name`
/// tells its totals apart from other series in the same schema.
#[derive(Debug, Clone, Copy)]
pub struct Series<'a> {
    pub name: &'a str,
    pub source: &'a str,
}

/// One UTC day of a series.
#[derive(Debug, Clone, Copy, PartialEq, Eq, QueryableByName)]
pub struct DayTotal {
    #[diesel(sql_type = Date)]
    pub day: NaiveDate,
    #[diesel(sql_type = BigInt)]
    pub count: i64,
    #[diesel(sql_type = BigInt)]
    pub amount: i64,
    #[diesel(sql_type = BigInt)]
    pub extra: i64,
}

#[derive(QueryableByName)]
struct FirstMissing {
    #[diesel(sql_type = Nullable<Date>)]
    day: Option<NaiveDate>,
}

/// The totals of `series` on each day from `first` to today (days with nothing may be
/// left out or be zeros: `stats::daily_series` fills the gaps). Closed days missing from
/// `daily_totals` are summed and kept first.
pub async fn daily_totals(
    conn: &mut AsyncPgConnection,
    series: Series<'_>,
    first: NaiveDate,
) -> Result<Vec<DayTotal>, diesel::result::Error> {
    daily_totals_at(conn, series, first, Utc::now()).await
}

async fn daily_totals_at(
    conn: &mut AsyncPgConnection,
    series: Series<'_>,
    first: NaiveDate,
    now: DateTime<Utc>,
) -> Result<Vec<DayTotal>, diesel::result::Error> {
    let open_from = first_open_day(now);
    if first < open_from {
        fill(conn, series, first, open_from).await?;
    }
    let closed = diesel::sql_query(
        "SELECT day, count, amount, extra FROM daily_totals \
         WHERE series = $1 AND day >= $2 AND day < $3",
    )
    .bind::<Text, _>(series.name)
    .bind::<Date, _>(first)
    .bind::<Date, _>(open_from)
    .load::<DayTotal>(conn);
    // Rows are dated by their writer's clock: a day ahead covers any skew.
    let open = diesel::sql_query(series.source)
        .bind::<Timestamptz, _>(midnight(first.max(open_from)))
        .bind::<Timestamptz, _>(now + TimeDelta::days(1))
        .load::<DayTotal>(conn);
    // In one round trip (see quire_kit::db, Pipelining).
    let (closed, open) = futures::join!(closed, open);
    let mut days = closed?;
    days.extend(open?);
    Ok(days)
}

/// Sums and keeps the closed days from the first one of `[first, open_from)` not kept yet
/// up to `open_from` (the ones kept already in between are left as they are).
async fn fill(
    conn: &mut AsyncPgConnection,
    series: Series<'_>,
    first: NaiveDate,
    open_from: NaiveDate,
) -> Result<(), diesel::result::Error> {
    let missing = diesel::sql_query(
        "SELECT min(d)::date AS day FROM generate_series($1::date, $2::date - 1, '1 day') d \
         WHERE NOT EXISTS \
           (SELECT 1 FROM daily_totals t WHERE t.series = $3 AND t.day = d::date)",
    )
    .bind::<Date, _>(first)
    .bind::<Date, _>(open_from)
    .bind::<Text, _>(series.name)
    .get_result::<FirstMissing>(conn)
    .await?;
    let Some(from) = missing.day else {
        return Ok(());
    };
    diesel::sql_query(format!(
        "INSERT INTO daily_totals (series, day, count, amount, extra) \
         SELECT $3, d.day, COALESCE(s.count, 0), COALESCE(s.amount, 0), COALESCE(s.extra, 0) \
         FROM (SELECT generate_series(($1 AT TIME ZONE 'UTC')::date, \
                                      ($2 AT TIME ZONE 'UTC')::date - 1, '1 day')::date AS day) d \
         LEFT JOIN ({}) s ON s.day = d.day \
         ON CONFLICT (series, day) DO NOTHING",
        series.source
    ))
    .bind::<Timestamptz, _>(midnight(from))
    .bind::<Timestamptz, _>(midnight(open_from))
    .bind::<Text, _>(series.name)
    .execute(conn)
    .await?;
    Ok(())
}

/// The first day that is not closed at `now`.
fn first_open_day(now: DateTime<Utc>) -> NaiveDate {
    (now - SEAL_MARGIN).date_naive()
}

fn midnight(day: NaiveDate) -> DateTime<Utc> {
    day.and_time(NaiveTime::MIN).and_utc()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(s).unwrap().to_utc()
    }

    #[test]
    fn a_day_closes_an_hour_after_it_ends() {
        let day = |s| NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap();
        assert_eq!(
            first_open_day(at("2026-03-02T00:59:59Z")),
            day("2026-03-01")
        );
        assert_eq!(
            first_open_day(at("2026-03-02T01:00:00Z")),
            day("2026-03-02")
        );
        assert_eq!(
            first_open_day(at("2026-03-02T23:00:00Z")),
            day("2026-03-02")
        );
    }
}
