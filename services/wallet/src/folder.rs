//! The folder: moves pending credits (a writer's share of a sale, an invite reward; see
//! `crate::ledger`) into their wallets' rows, a batch at a time. Until then every read of a
//! wallet adds them, so nobody sees the difference; the folder only keeps the table short.
//!
//! It waits a moment after a trade rings it, so that a writer selling many copies at once
//! has their row updated once per batch rather than once per sale, and looks on its own
//! every few seconds for what rewards and crashes left. Replicas may fold side by side:
//! both pick the wallets with the oldest credits, so one waits on the other's wallet locks
//! and then takes in only the credits written since; none is folded twice.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use quire_kit::db::PgPool;
use tokio::sync::Notify;

use crate::ledger;

/// Wallets folded per transaction.
const BATCH: i64 = 1_000;
/// How long the credits of a trade that rang the folder gather before they are folded.
const GATHER: Duration = Duration::from_millis(100);
/// How often the folder looks without being rung.
const POLL: Duration = Duration::from_secs(2);

/// The folder's bell: rung after a commit that wrote pending credits.
#[derive(Clone, Debug, Default)]
pub struct Folder(Arc<Notify>);

impl Folder {
    /// Tells the folder that pending credits were committed; cheap.
    pub fn ring(&self) {
        self.0.notify_one();
    }

    /// Folds until `stop` resolves.
    pub async fn run(self, pool: PgPool, stop: impl Future<Output = ()>) {
        tokio::pin!(stop);
        loop {
            tokio::select! {
                () = &mut stop => return,
                () = tokio::time::sleep(POLL) => {}
                () = self.0.notified() => {
                    tokio::select! {
                        () = &mut stop => return,
                        () = tokio::time::sleep(GATHER) => {}
                    }
                }
            }
            if let Err(error) = fold_all(&pool).await {
                tracing::warn!(%error, "folding pending credits failed, will retry");
            }
        }
    }
}

/// Folds batches until one comes back short (fewer credits than [`BATCH`], so it held
/// every wallet that had some); answers how many credits it folded.
pub async fn fold_all(pool: &PgPool) -> crate::error::Result<usize> {
    let mut conn = quire_kit::db::conn(pool).await?;
    let mut folded = 0;
    loop {
        let n = ledger::fold_pending(&mut conn, BATCH).await?;
        folded += n;
        metrics::counter!("quire_wallet_credits_folded_total").increment(n as u64);
        if (n as i64) < BATCH {
            return Ok(folded);
        }
    }
}
