//! The books behind the wallet's API, read straight from its schema: what the wallet's api
//! tests and the bank test check after their calls. A test's stack names the wallet's pool
//! (`impl WalletLedger for TestApp`) and gets `conn`, `ledger_balance` and
//! `assert_ledger_balances`.

use std::future::Future;

use diesel::prelude::*;
use diesel_async::scoped_futures::ScopedFutureExt;
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use quire_kit::db::{PgConn, PgPool};
use quire_wallet::db::schema::{entries, wallets};
use quire_wallet::db::wallet::wallet_balances;
use quire_wallet::ledger::{self, Account};
use uuid::Uuid;

/// A test stack with a wallet whose ledger can be read.
pub trait WalletLedger: Sync {
    /// The wallet's own schema.
    fn wallet_pool(&self) -> &PgPool;

    fn conn(&self) -> impl Future<Output = PgConn> + Send {
        async move { quire_kit::db::conn(self.wallet_pool()).await.unwrap() }
    }

    /// The sum of an account's entries.
    fn ledger_balance(&self, account: Account) -> impl Future<Output = i64> + Send {
        async move {
            let mut conn = self.conn().await;
            ledger::balance(&mut conn, account).await.unwrap()
        }
    }

    /// Checks the books behind the API: every transfer sums to zero, so do all entries,
    /// no wallet is below zero (nor its running balance, without its pending credits), and
    /// each wallet's balance is the sum of its entries.
    fn assert_ledger_balances(&self) -> impl Future<Output = ()> + Send {
        async move {
            let mut conn = self.conn().await;
            // One snapshot for all the reads: the wallet's background work (the recharge
            // settler, rewards) may commit a transfer between two of them.
            conn.build_transaction()
                .repeatable_read()
                .read_only()
                .run(|conn| {
                    async move {
                        check_ledger(conn).await;
                        Ok::<_, diesel::result::Error>(())
                    }
                    .scope_boxed()
                })
                .await
                .unwrap();
        }
    }
}

async fn check_ledger(conn: &mut AsyncPgConnection) {
    let unbalanced: Vec<Uuid> = entries::table
        .group_by(entries::transfer_id)
        .having(diesel::dsl::sql::<diesel::sql_types::Bool>(
            "sum(amount_cents) <> 0",
        ))
        .select(entries::transfer_id)
        .load(conn)
        .await
        .unwrap();
    assert!(
        unbalanced.is_empty(),
        "unbalanced transfers: {unbalanced:?}"
    );
    let total: i64 = entries::table
        .select(diesel::dsl::sql::<diesel::sql_types::BigInt>(
            "COALESCE(sum(amount_cents), 0)::bigint",
        ))
        .first(conn)
        .await
        .unwrap();
    assert_eq!(total, 0, "the entries of the whole ledger sum to zero");
    let rows: Vec<(Uuid, i64)> = wallets::table
        .select((wallets::user_id, wallets::balance_cents))
        .load(conn)
        .await
        .unwrap();
    for (user, row) in rows {
        assert!(row >= 0, "wallet {user}'s row is below zero");
    }
    let balances: Vec<(Uuid, i64)> = wallet_balances::table
        .select((wallet_balances::user_id, wallet_balances::balance_cents))
        .load(conn)
        .await
        .unwrap();
    for (user, balance) in balances {
        assert!(balance >= 0, "wallet {user} is below zero");
        let sum = ledger::balance(conn, Account::User(user)).await.unwrap();
        assert_eq!(balance, sum, "wallet {user}: balance = its entries");
    }
}
