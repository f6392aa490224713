//! Accounts over time, for the admin dashboard: how many there are, how many are disabled,
//! how many hold each role, and how many were made each day of a range.

use chrono::{NaiveDate, NaiveTime};
use diesel::dsl::{count, count_star};
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Date, Timestamptz};
use diesel_async::RunQueryDsl;
use diesel_async::scoped_futures::ScopedFutureExt;
use quire_kit::caller::Caller;
use quire_proto::auth::v1 as pb;
use quire_proto::ops::v1 as ops;

use crate::db::schema::{user_roles, users};
use crate::error::{AuthError, Result};
use crate::{AppState, roles};

/// Accounts made on one UTC day.
#[derive(QueryableByName)]
struct Signups {
    #[diesel(sql_type = Date)]
    day: NaiveDate,
    #[diesel(sql_type = BigInt)]
    count: i64,
}

/// One pass over the range's accounts, grouped by day: `users_created_at` serves the
/// range, so a long history is not read for a short one.
const SIGNUPS_PER_DAY: &str = "SELECT (created_at AT TIME ZONE 'UTC')::date AS day, \
     count(*) AS count FROM users WHERE created_at >= $1 GROUP BY 1";

/// Admin: the counts, read from one snapshot so that they agree with one another.
pub async fn stats(
    state: &AppState,
    caller: &Caller,
    req: ops::StatsRequest,
) -> Result<pb::UserStats> {
    caller.require_admin()?;
    let days = quire_kit::stats::days(&req)?;
    let since = quire_kit::stats::first_day(days)
        .and_time(NaiveTime::MIN)
        .and_utc();
    let mut conn = quire_kit::db::conn(&state.pool).await?;
    let (totals, held, signups) = conn
        .build_transaction()
        .read_only()
        .repeatable_read()
        .run::<_, AuthError, _>(|conn| {
            async move {
                let totals: (i64, i64) = users::table
                    .select((count_star(), count(users::disabled_at)))
                    .first(conn)
                    .await?;
                let held: Vec<(String, i64)> = user_roles::table
                    .group_by(user_roles::role)
                    .select((user_roles::role, count_star()))
                    .load(conn)
                    .await?;
                let signups: Vec<Signups> = diesel::sql_query(SIGNUPS_PER_DAY)
                    .bind::<Timestamptz, _>(since)
                    .load(conn)
                    .await?;
                Ok((totals, held, signups))
            }
            .scope_boxed()
        })
        .await?;
    let by_role = roles::ALL
        .iter()
        .map(|role| pb::RoleCount {
            role: (*role).to_owned(),
            count: held
                .iter()
                .find(|(r, _)| r == role)
                .map_or(0, |(_, n)| *n as u64),
        })
        .collect();
    Ok(pb::UserStats {
        total: totals.0 as u64,
        disabled: totals.1 as u64,
        by_role,
        signups: quire_kit::stats::daily_series(
            days,
            signups.into_iter().map(|s| (s.day, s.count, 0)),
        ),
    })
}
