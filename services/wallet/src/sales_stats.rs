//! The admin's sales figures: over the last `days` UTC days, the trades (book sales and
//! the trades of funded campaigns) with their value and the platform's part, trades and
//! money-in (settled recharges and top-ups) per day; and, whatever their age, the
//! campaigns by status and the money the open ones hold in escrow.
//!
//! Four statements in one round trip. The sums by day read the newest-first indexes of
//! `trades` and `top_ups` alone (they carry the summed columns), so a year of sales costs
//! a scan of two narrow indexes, not of the rows.

use chrono::{NaiveDate, NaiveTime};
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Date, Text, Timestamptz};
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use quire_kit::caller::Caller;
use quire_kit::stats;
use quire_proto::ops::v1::StatsRequest;
use quire_proto::wallet::v1 as pb;

use crate::AppState;
use crate::db::campaign::{STATUS_FAILED, STATUS_FUNDED, STATUS_OPEN};
use crate::db::top_up::STATUS_SETTLED;
use crate::error::Result;

/// One UTC day of trades or top-ups: how many, their cents, and the platform's part.
#[derive(Debug, QueryableByName)]
struct Day {
    #[diesel(sql_type = Date)]
    day: NaiveDate,
    #[diesel(sql_type = BigInt)]
    count: i64,
    #[diesel(sql_type = BigInt)]
    cents: i64,
    #[diesel(sql_type = BigInt)]
    platform_cents: i64,
}

#[derive(Debug, QueryableByName)]
struct StatusCount {
    #[diesel(sql_type = Text)]
    status: String,
    #[diesel(sql_type = BigInt)]
    count: i64,
}

#[derive(Debug, QueryableByName)]
struct Escrow {
    #[diesel(sql_type = BigInt)]
    cents: i64,
}

pub async fn sales_stats(
    state: &AppState,
    caller: &Caller,
    req: &StatsRequest,
) -> Result<pb::SalesStats> {
    caller.require_admin()?;
    let days = stats::days(req)?;
    let since = stats::first_day(days).and_time(NaiveTime::MIN).and_utc();
    let mut pooled = state.conn().await?;
    // The connection itself: its statements can be in flight together.
    let conn: &mut AsyncPgConnection = &mut pooled;
    let trades = diesel::sql_query(
        "SELECT (created_at AT TIME ZONE 'UTC')::date AS day, count(*) AS count, \
           COALESCE(sum(price_cents), 0)::bigint AS cents, \
           COALESCE(sum(platform_cents), 0)::bigint AS platform_cents \
         FROM trades WHERE created_at >= $1 GROUP BY 1",
    )
    .bind::<Timestamptz, _>(since)
    .load::<Day>(conn);
    let top_ups = diesel::sql_query(
        "SELECT (created_at AT TIME ZONE 'UTC')::date AS day, count(*) AS count, \
           COALESCE(sum(amount_cents), 0)::bigint AS cents, 0::bigint AS platform_cents \
         FROM top_ups WHERE created_at >= $1 AND status = $2 GROUP BY 1",
    )
    .bind::<Timestamptz, _>(since)
    .bind::<Text, _>(STATUS_SETTLED)
    .load::<Day>(conn);
    let campaigns =
        diesel::sql_query("SELECT status, count(*) AS count FROM campaigns GROUP BY status")
            .load::<StatusCount>(conn);
    let escrow = diesel::sql_query(
        "SELECT COALESCE(sum(p.amount_cents), 0)::bigint AS cents \
         FROM campaigns c JOIN pledges p ON p.campaign_id = c.id WHERE c.status = $1",
    )
    .bind::<Text, _>(STATUS_OPEN)
    .get_result::<Escrow>(conn);
    // In one round trip (see quire_kit::db, Pipelining).
    let (trades, top_ups, campaigns, escrow) = futures::join!(trades, top_ups, campaigns, escrow);
    let (trades, top_ups, campaigns, escrow) = (trades?, top_ups?, campaigns?, escrow?);

    let campaigns_with = |status: &str| {
        campaigns
            .iter()
            .filter(|c| c.status == status)
            .map(|c| count(c.count))
            .sum()
    };
    Ok(pb::SalesStats {
        trades: trades.iter().map(|d| count(d.count)).sum(),
        revenue: trades.iter().map(|d| d.cents).sum(),
        platform_revenue: trades.iter().map(|d| d.platform_cents).sum(),
        trades_per_day: stats::daily_series(days, trades.iter().map(|d| (d.day, d.count, d.cents))),
        top_ups_per_day: stats::daily_series(
            days,
            top_ups.iter().map(|d| (d.day, d.count, d.cents)),
        ),
        campaigns_open: campaigns_with(STATUS_OPEN),
        campaigns_funded: campaigns_with(STATUS_FUNDED),
        campaigns_failed: campaigns_with(STATUS_FAILED),
        escrow: escrow.cents,
    })
}

/// A SQL count as the API's unsigned number.
fn count(n: i64) -> u64 {
    u64::try_from(n).unwrap_or_default()
}
