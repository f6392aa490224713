//! The admin's sales figures: over the last `days` UTC days, the trades (book sales and
//! the trades of funded campaigns) with their value and the platform's part, trades and
//! money-in (settled recharges and top-ups) per day; and, whatever their age, the
//! campaigns by status and the money the open ones hold in escrow.
//!
//! The trades and the money-in per day come from `quire_kit::daily_totals`: a closed day is
//! summed once and kept, so a year of sales costs the kept days and today's rows. A trade
//! is dated when it is made and money-in when it settles, and neither is re-dated, which
//! is what lets a closed day be kept. The campaigns and the escrow are read as they are
//! now, two small statements in one round trip.

use std::sync::LazyLock;

use diesel::prelude::*;
use diesel::sql_types::{BigInt, Text};
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use quire_kit::caller::Caller;
use quire_kit::daily_totals::{Series, daily_totals};
use quire_kit::stats;
use quire_proto::ops::v1::StatsRequest;
use quire_proto::wallet::v1 as pb;

use crate::AppState;
use crate::db::campaign::{STATUS_FAILED, STATUS_FUNDED, STATUS_OPEN};
use crate::db::top_up::STATUS_SETTLED;
use crate::error::Result;

/// Trades per day: how many, their cents, and the platform's part.
const TRADES: Series<'static> = Series {
    name: "trades",
    source: "SELECT (created_at AT TIME ZONE 'UTC')::date AS day, count(*) AS count, \
               COALESCE(sum(price_cents), 0)::bigint AS amount, \
               COALESCE(sum(platform_cents), 0)::bigint AS extra \
             FROM trades WHERE created_at >= $1 AND created_at < $2 GROUP BY 1",
};

/// Money in per day (settled recharges and admins' top-ups), by the day it settled.
fn money_in_series() -> Series<'static> {
    static SOURCE: LazyLock<String> = LazyLock::new(|| {
        format!(
            "SELECT (settled_at AT TIME ZONE 'UTC')::date AS day, count(*) AS count, \
               COALESCE(sum(amount_cents), 0)::bigint AS amount, 0::bigint AS extra \
             FROM top_ups WHERE status = '{STATUS_SETTLED}' \
               AND settled_at >= $1 AND settled_at < $2 GROUP BY 1"
        )
    });
    Series {
        name: "money_in",
        source: &SOURCE,
    }
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
    let first = stats::first_day(days);
    let mut pooled = state.conn().await?;
    // The connection itself: its statements can be in flight together.
    let conn: &mut AsyncPgConnection = &mut pooled;
    let trades = daily_totals(conn, TRADES, first).await?;
    let money_in = daily_totals(conn, money_in_series(), first).await?;
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
    let (campaigns, escrow) = futures::join!(campaigns, escrow);
    let (campaigns, escrow) = (campaigns?, escrow?);

    let campaigns_with = |status: &str| {
        campaigns
            .iter()
            .filter(|c| c.status == status)
            .map(|c| count(c.count))
            .sum()
    };
    Ok(pb::SalesStats {
        trades: trades.iter().map(|d| count(d.count)).sum(),
        revenue: trades.iter().map(|d| d.amount).sum(),
        platform_revenue: trades.iter().map(|d| d.extra).sum(),
        trades_per_day: stats::daily_series(
            days,
            trades.iter().map(|d| (d.day, d.count, d.amount)),
        ),
        top_ups_per_day: stats::daily_series(
            days,
            money_in.iter().map(|d| (d.day, d.count, d.amount)),
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
