//! Opening wallets and reading balances. A wallet is read through the `wallet_balances`
//! view (its row plus its pending credits), never from its row alone; any account's
//! balance can also be read as the sum of its entries.

use diesel::OptionalExtension;
use diesel::prelude::*;
use diesel::sql_types::{self, Array};
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use quire_kit::db::prepared;
use uuid::Uuid;

use super::posting::Account;
use crate::db::account::NewAccount;
use crate::db::schema::{accounts, entries, wallets};
use crate::db::wallet::{WalletRow, wallet_balances};
use crate::error::{Result, WalletError};

/// A wallet's id, as the statements that list wallets answer it.
#[derive(QueryableByName)]
pub(super) struct WalletId {
    #[diesel(sql_type = sql_types::Uuid)]
    pub(super) user_id: Uuid,
}

/// Opens `user`'s wallet when there is none; answers it either way.
pub async fn open(conn: &mut AsyncPgConnection, user: Uuid) -> Result<WalletRow> {
    diesel::insert_into(accounts::table)
        .values(NewAccount {
            id: user,
            kind: "user",
        })
        .on_conflict_do_nothing()
        .execute(conn)
        .await?;
    diesel::insert_into(wallets::table)
        .values(wallets::user_id.eq(user))
        .on_conflict_do_nothing()
        .execute(conn)
        .await?;
    wallet(conn, user).await?.ok_or(WalletError::WalletNotFound)
}

/// Opens the wallets of `users` that are missing: one statement to find them, then one
/// [`open`] each (rare: a credit to a user who never opened a wallet).
pub(super) async fn open_missing(conn: &mut AsyncPgConnection, users: &[Uuid]) -> Result<()> {
    let missing = prepared(
        "SELECT u.user_id FROM unnest($1) AS u(user_id) \
         WHERE NOT EXISTS (SELECT 1 FROM wallets w WHERE w.user_id = u.user_id)",
    )
    .bind::<Array<sql_types::Uuid>, _>(users.to_vec())
    .load::<WalletId>(conn)
    .await?;
    for wallet in missing {
        open(conn, wallet.user_id).await?;
    }
    Ok(())
}

/// `user`'s wallet, if it was opened (its pending credits included).
pub async fn wallet(conn: &mut AsyncPgConnection, user: Uuid) -> Result<Option<WalletRow>> {
    Ok(wallet_balances::table
        .find(user)
        .select(WalletRow::as_select())
        .first(conn)
        .await
        .optional()?)
}

/// The balance of any account as the sum of its entries (for a user account it equals the
/// wallet's balance: its running balance plus its pending credits).
pub async fn balance(conn: &mut AsyncPgConnection, account: Account) -> Result<i64> {
    // sum(bigint) is numeric in Postgres; the cast keeps it an i64 (amounts are bounded).
    Ok(entries::table
        .filter(entries::account_id.eq(account.id()))
        .select(diesel::dsl::sql::<diesel::sql_types::BigInt>(
            "COALESCE(sum(amount_cents), 0)::bigint",
        ))
        .first(conn)
        .await?)
}
