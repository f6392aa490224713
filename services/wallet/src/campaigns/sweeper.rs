//! The campaign sweeper: settles the open campaigns whose deadline passed, at start (what
//! a stop or a crash left) and then every `campaign_sweep_secs`. Replicas sweep side by
//! side: a campaign two of them find is settled by the first, the other finds it settled
//! (see `settle`).

use std::future::Future;
use std::time::Duration;

use chrono::Utc;
use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use uuid::Uuid;

use super::settle::settle_and_tell;
use crate::AppState;
use crate::db::campaign::STATUS_OPEN;
use crate::db::schema::campaigns;
use crate::error::Result;

/// Campaigns settled per pass; the next pass takes the rest.
const BATCH: i64 = 100;

/// Sweeps until `stop` resolves.
pub async fn run(state: AppState, stop: impl Future<Output = ()>) {
    tokio::pin!(stop);
    let every = Duration::from_secs(state.config.campaign_sweep_secs);
    loop {
        match sweep(&state).await {
            Ok(0) => {}
            Ok(settled) => tracing::info!(settled, "expired campaigns settled"),
            Err(error) => tracing::warn!(%error, "sweeping campaigns failed, will retry"),
        }
        tokio::select! {
            () = &mut stop => return,
            () = tokio::time::sleep(every) => {}
        }
    }
}

/// One pass: settles the open campaigns past their deadline (the oldest first, up to
/// [`BATCH`]); answers how many it settled.
pub async fn sweep(state: &AppState) -> Result<usize> {
    let mut conn = state.conn().await?;
    let expired: Vec<Uuid> = campaigns::table
        .filter(campaigns::status.eq(STATUS_OPEN))
        .filter(campaigns::deadline.le(Utc::now()))
        .order(campaigns::deadline)
        .limit(BATCH)
        .select(campaigns::id)
        .load(&mut conn)
        .await?;
    let mut settled = 0;
    for id in expired {
        match settle_and_tell(state, &mut conn, id).await {
            Ok(s) if s.now => settled += 1,
            Ok(_) => {}
            Err(error) => tracing::warn!(%error, campaign_id = %id, "campaign not settled"),
        }
    }
    Ok(settled)
}
