//! Folding pending credits into their wallets' rows, a batch of wallets per transaction
//! (run by `crate::folder`). Like a balance movement it locks a wallet before it takes the
//! wallet's pending credits: the batch's wallets first, in ascending id order and in one
//! statement, then all their pending credits.

use diesel::QueryableByName;
use diesel::sql_types::{self, Array, BigInt};
use diesel_async::scoped_futures::ScopedFutureExt;
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use quire_kit::db::prepared;
use uuid::Uuid;

use super::balances::WalletId;
use crate::error::{CommonErrors, Result, WalletError};

/// Folds the pending credits of up to `wallets` wallets (those with the oldest credits)
/// into their rows, one UPDATE of each, in one transaction; answers how many credits it
/// took in.
pub async fn fold_pending(conn: &mut AsyncPgConnection, wallets: i64) -> Result<usize> {
    conn.transaction::<usize, WalletError, _>(|conn| {
        async move {
            // A fold lost in a crash is lost whole (its credits stay pending, the rows
            // unmoved): its commit need not wait for the disk.
            let relaxed =
                prepared("SELECT set_config('synchronous_commit', 'off', true)").execute(conn);
            let pending = prepared(
                "SELECT user_id FROM pending_credits GROUP BY user_id ORDER BY min(id) LIMIT $1",
            )
            .bind::<BigInt, _>(wallets)
            .load::<WalletId>(conn);
            let (relaxed, pending) = futures::join!(relaxed, pending);
            relaxed?;
            let mut users: Vec<Uuid> = pending?.into_iter().map(|p| p.user_id).collect();
            if users.is_empty() {
                return Ok(0);
            }
            users.sort();
            // As a balance movement does (see `balance_statement`): the wallets first, in
            // ascending id order, then, in a statement whose snapshot sees them as they
            // are, their pending credits (which nobody else can take meanwhile: whoever
            // takes a wallet's credits holds its row).
            let lock = prepared(
                "SELECT user_id FROM wallets WHERE user_id = ANY($1) ORDER BY user_id \
                 FOR NO KEY UPDATE",
            )
            .bind::<Array<sql_types::Uuid>, _>(users.clone())
            .execute(conn);
            let fold = prepared(
                "WITH taken AS (DELETE FROM pending_credits WHERE user_id = ANY($1) \
                   RETURNING user_id, amount_cents), \
                 sums AS (SELECT user_id, sum(amount_cents)::bigint AS cents, count(*) AS n \
                   FROM taken GROUP BY user_id), \
                 moved AS (UPDATE wallets w SET balance_cents = w.balance_cents + s.cents, \
                   earned_cents = w.earned_cents + s.cents, updated_at = CURRENT_TIMESTAMP \
                   FROM sums s WHERE w.user_id = s.user_id RETURNING s.n) \
                 SELECT (SELECT COALESCE(sum(n), 0) FROM sums)::bigint AS taken, \
                   (SELECT COALESCE(sum(n), 0) FROM moved)::bigint AS moved",
            )
            .bind::<Array<sql_types::Uuid>, _>(users)
            .get_result::<Folded>(conn);
            let (locked, folded) = futures::join!(lock, fold);
            locked?;
            let folded = folded?;
            if folded.moved != folded.taken {
                // Pending credits are only written for a wallet that exists, and wallets
                // are never removed: roll back rather than lose a credit.
                return Err(WalletError::internal(
                    "a pending credit names a wallet that is missing",
                ));
            }
            Ok(usize::try_from(folded.taken).unwrap_or_default())
        }
        .scope_boxed()
    })
    .await
}

/// What a fold took in and moved.
#[derive(QueryableByName)]
struct Folded {
    #[diesel(sql_type = BigInt)]
    taken: i64,
    #[diesel(sql_type = BigInt)]
    moved: i64,
}
