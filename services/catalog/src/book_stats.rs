//! The admin's figures of the catalog: how many books there are, how many are in the shop
//! now and how many an admin took down, and the books created on each of the last `days`
//! UTC days. Two statements, in one round trip.

use chrono::{NaiveDate, NaiveTime};
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Date, Timestamptz};
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use quire_kit::caller::Caller;
use quire_kit::stats;
use quire_proto::catalog::v1 as pb;
use quire_proto::ops::v1::StatsRequest;

use crate::error::Result;
use crate::input;

#[derive(Debug, QueryableByName)]
struct Totals {
    #[diesel(sql_type = BigInt)]
    total: i64,
    #[diesel(sql_type = BigInt)]
    listed: i64,
    #[diesel(sql_type = BigInt)]
    taken_down: i64,
}

#[derive(Debug, QueryableByName)]
struct Day {
    #[diesel(sql_type = Date)]
    day: NaiveDate,
    #[diesel(sql_type = BigInt)]
    count: i64,
}

pub async fn book_stats(
    conn: &mut AsyncPgConnection,
    caller: Option<&Caller>,
    req: &StatsRequest,
) -> Result<pb::BookStats> {
    input::required(caller)?.require_admin()?;
    let days = stats::days(req)?;
    let since = stats::first_day(days).and_time(NaiveTime::MIN).and_utc();
    // Listed as `BookRow::listed` says: the writer's switch on and not taken down.
    let totals = diesel::sql_query(
        "SELECT count(*) AS total, \
           count(*) FILTER (WHERE writer_on AND NOT taken_down) AS listed, \
           count(*) FILTER (WHERE taken_down) AS taken_down \
         FROM books",
    )
    .get_result::<Totals>(conn);
    let created = diesel::sql_query(
        "SELECT (created_time AT TIME ZONE 'UTC')::date AS day, count(*) AS count \
         FROM books WHERE created_time >= $1 GROUP BY 1",
    )
    .bind::<Timestamptz, _>(since)
    .load::<Day>(conn);
    // In one round trip (see quire_kit::db, Pipelining).
    let (totals, created) = futures::join!(totals, created);
    let (totals, created) = (totals?, created?);
    Ok(pb::BookStats {
        total: count(totals.total),
        listed: count(totals.listed),
        taken_down: count(totals.taken_down),
        created: stats::daily_series(days, created.iter().map(|d| (d.day, d.count, 0))),
    })
}

/// A SQL count as the API's unsigned number.
fn count(n: i64) -> u64 {
    u64::try_from(n).unwrap_or_default()
}
