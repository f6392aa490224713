//! The admin's figures of the chat: how many conversations there are, and the readers'
//! turns (their messages) on each of the last `days` UTC days. The turns per day come from
//! `quire_kit::daily_totals` (a message is dated when it is written, so a closed day is
//! counted once and kept); today's are counted from their own partial index.

use diesel::prelude::*;
use diesel::sql_types::BigInt;
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use quire_kit::caller::Caller;
use quire_kit::daily_totals::{Series, daily_totals};
use quire_kit::stats;
use quire_proto::chat::v1 as pb;
use quire_proto::ops::v1::StatsRequest;

use crate::error::Result;

#[derive(Debug, QueryableByName)]
struct Total {
    #[diesel(sql_type = BigInt)]
    conversations: i64,
}

/// Readers' turns per day; `kind = 'user'` as written, so the partial index
/// `messages_turns` serves it.
const TURNS: Series<'static> = Series {
    name: "turns",
    source: "SELECT (created_at AT TIME ZONE 'UTC')::date AS day, count(*) AS count, \
               0::bigint AS amount, 0::bigint AS extra \
             FROM messages WHERE kind = 'user' AND created_at >= $1 AND created_at < $2 \
             GROUP BY 1",
};

pub async fn chat_stats(
    conn: &mut AsyncPgConnection,
    caller: &Caller,
    req: &StatsRequest,
) -> Result<pb::ChatStats> {
    caller.require_admin()?;
    let days = stats::days(req)?;
    let turns = daily_totals(conn, TURNS, stats::first_day(days)).await?;
    let total = diesel::sql_query("SELECT count(*) AS conversations FROM conversations")
        .get_result::<Total>(conn)
        .await?;
    Ok(pb::ChatStats {
        conversations: u64::try_from(total.conversations).unwrap_or_default(),
        turns_per_day: stats::daily_series(days, turns.iter().map(|d| (d.day, d.count, 0))),
    })
}
