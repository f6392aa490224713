//! The admin's figures of the chat: how many conversations there are, and the readers'
//! turns (their messages) on each of the last `days` UTC days. Two statements, in one
//! round trip; the turns are counted from their own index.

use chrono::{NaiveDate, NaiveTime};
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Date, Timestamptz};
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use quire_kit::caller::Caller;
use quire_kit::stats;
use quire_proto::chat::v1 as pb;
use quire_proto::ops::v1::StatsRequest;

use crate::error::Result;

#[derive(Debug, QueryableByName)]
struct Total {
    #[diesel(sql_type = BigInt)]
    conversations: i64,
}

#[derive(Debug, QueryableByName)]
struct Day {
    #[diesel(sql_type = Date)]
    day: NaiveDate,
    #[diesel(sql_type = BigInt)]
    count: i64,
}

pub async fn chat_stats(
    conn: &mut AsyncPgConnection,
    caller: &Caller,
    req: &StatsRequest,
) -> Result<pb::ChatStats> {
    caller.require_admin()?;
    let days = stats::days(req)?;
    let since = stats::first_day(days).and_time(NaiveTime::MIN).and_utc();
    let total = diesel::sql_query("SELECT count(*) AS conversations FROM conversations")
        .get_result::<Total>(conn);
    // `kind = 'user'` as written, so the partial index `messages_turns` serves it.
    let turns = diesel::sql_query(
        "SELECT (created_at AT TIME ZONE 'UTC')::date AS day, count(*) AS count \
         FROM messages WHERE kind = 'user' AND created_at >= $1 GROUP BY 1",
    )
    .bind::<Timestamptz, _>(since)
    .load::<Day>(conn);
    // In one round trip (see quire_kit::db, Pipelining).
    let (total, turns) = futures::join!(total, turns);
    let (total, turns) = (total?, turns?);
    Ok(pb::ChatStats {
        conversations: u64::try_from(total.conversations).unwrap_or_default(),
        turns_per_day: stats::daily_series(days, turns.iter().map(|d| (d.day, d.count, 0))),
    })
}
