//! The double-entry ledger: every movement of money is one transfer whose entries sum to
//! zero across accounts. User accounts (wallets) carry a running balance that the
//! database keeps from going below zero; system accounts carry none (their balance is the
//! sum of their entries), so concurrent trades never queue on a shared platform row.
//!
//! Deadlock freedom: a transfer locks the user wallets it touches in ascending account id
//! order (each UPDATE takes the row lock), whatever order its postings came in. Entries
//! reference system accounts only by key (foreign-key checks take KEY SHARE locks, which
//! never wait on one another), so the platform account is no queue.
//!
//! Everything here runs inside the caller's transaction: the transfer, its entries and
//! whatever the caller records with it (a trade, its event, the idempotency answer)
//! commit together or not at all. The database checks at commit that the entries of each
//! transfer sum to zero.

use diesel::OptionalExtension;
use diesel::prelude::*;
use diesel::result::{DatabaseErrorKind, Error as DieselError, QueryResult};
use diesel::sql_types::{self, Array, BigInt, Text};
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use futures::FutureExt;
use futures::future::BoxFuture;
use quire_kit::db::prepared;
use uuid::Uuid;

use crate::db::account::NewAccount;
use crate::db::schema::{accounts, entries, wallets};
use crate::db::wallet::WalletRow;
use crate::error::{Result, WalletError};

/// What the balance UPDATEs return.
#[derive(QueryableByName)]
struct Balance {
    #[diesel(sql_type = BigInt)]
    balance_cents: i64,
}

/// The check that keeps user balances from going below zero (see the migration).
const BALANCE_CHECK: &str = "wallets_balance_not_negative";

/// An account of the ledger.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Account {
    /// A user's wallet; its id is the user's id.
    User(Uuid),
    /// Outside money: payments and admins' top-ups come from here.
    World,
    /// The platform's share of book sales.
    Platform,
    /// Where consumed money goes.
    Spent,
    /// What funds invite rewards.
    Promotions,
}

impl Account {
    /// The account's id; system accounts have fixed ids seeded by the migration.
    pub fn id(self) -> Uuid {
        match self {
            Self::User(id) => id,
            Self::World => Uuid::from_u128(1),
            Self::Platform => Uuid::from_u128(2),
            Self::Spent => Uuid::from_u128(3),
            Self::Promotions => Uuid::from_u128(4),
        }
    }
}

/// What a transfer was for; it decides which wallet total a credit counts toward.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TransferKind {
    Recharge,
    TopUp,
    Consume,
    Trade,
    Reward,
}

impl TransferKind {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Recharge => "recharge",
            Self::TopUp => "top_up",
            Self::Consume => "consume",
            Self::Trade => "trade",
            Self::Reward => "reward",
        }
    }

    fn is_money_in(self) -> bool {
        matches!(self, Self::Recharge | Self::TopUp)
    }
}

/// One side of a transfer: `cents` credited to `account` (negative: debited).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Posting {
    pub account: Account,
    pub cents: i64,
}

impl Posting {
    pub fn new(account: Account, cents: i64) -> Self {
        Self { account, cents }
    }
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

/// `user`'s wallet, if it was opened.
pub async fn wallet(conn: &mut AsyncPgConnection, user: Uuid) -> Result<Option<WalletRow>> {
    Ok(wallets::table
        .find(user)
        .select(WalletRow::as_select())
        .first(conn)
        .await
        .optional()?)
}

/// The balance of any account as the sum of its entries (for a user account it equals the
/// wallet's running balance).
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

/// Records transfer `id` and moves the money of `postings`, which must sum to zero and
/// name each account once. A credit opens a user's wallet when there is none; a debit of a
/// user without a wallet is [`WalletError::WalletNotFound`], one that would take a balance
/// below zero [`WalletError::InsufficientFunds`]. Answers the new balance of each user
/// account touched. Must run inside a transaction.
pub async fn transfer(
    conn: &mut AsyncPgConnection,
    id: Uuid,
    kind: TransferKind,
    memo: &str,
    postings: &[Posting],
) -> Result<Vec<(Uuid, i64)>> {
    record(conn, id, kind, memo, postings)
        .await?
        .settle(conn)
        .await
}

/// A transfer whose row and entries are written and whose balances are still to move: the
/// caller may write more before [`Recorded::settle`] locks the wallets, so that the rows a
/// popular seller's sales queue on are held through as few statements as possible.
#[must_use = "a recorded transfer moves no money until it is settled"]
pub struct Recorded {
    kind: TransferKind,
    /// A debit of a user without a wallet is too little money, not a missing wallet.
    without_wallet_no_money: bool,
    /// In ascending account id order, the order wallets are locked in.
    postings: Vec<Posting>,
}

/// Writes transfer `id` and its entries (the first half of [`transfer`]). Must run inside
/// a transaction that goes on to settle it.
pub async fn record(
    conn: &mut AsyncPgConnection,
    id: Uuid,
    kind: TransferKind,
    memo: &str,
    postings: &[Posting],
) -> Result<Recorded> {
    let (recorded, [transfer, entries]) = record_statements(conn, id, kind, memo, postings)?;
    transfer.await?;
    entries.await?;
    Ok(recorded)
}

/// [`record`] as its two statements, not yet awaited, to be sent in the order given (see
/// `quire_kit::db`, *Pipelining*). A transfer that does not balance or names an account
/// twice is refused before anything is sent.
pub fn record_statements<'q>(
    conn: &mut AsyncPgConnection,
    id: Uuid,
    kind: TransferKind,
    memo: &'q str,
    postings: &[Posting],
) -> Result<(Recorded, [BoxFuture<'q, QueryResult<usize>>; 2])> {
    let mut postings: Vec<Posting> = postings.iter().copied().filter(|p| p.cents != 0).collect();
    postings.sort_by_key(|p| p.account.id());
    if postings.windows(2).any(|w| w[0].account == w[1].account) {
        return Err(WalletError::Internal(format!(
            "transfer {id} names an account twice"
        )));
    }
    let total = postings
        .iter()
        .try_fold(0i64, |sum, p| sum.checked_add(p.cents));
    if total != Some(0) {
        return Err(WalletError::Internal(format!(
            "transfer {id} does not balance"
        )));
    }
    // Prepared statements (see quire_kit::db::prepared): every trade runs these.
    let transfer = prepared("INSERT INTO transfers (id, kind, memo) VALUES ($1, $2, $3)")
        .bind::<sql_types::Uuid, _>(id)
        .bind::<Text, _>(kind.as_str())
        .bind::<Text, _>(memo)
        .execute(conn);
    // Before the balances, so no wallet is locked meanwhile. A credit may open the account
    // an entry references only when it settles: the reference is checked at commit (the
    // migration makes it deferred). One statement whatever the number of postings.
    let entries = prepared(
        "INSERT INTO entries (transfer_id, account_id, amount_cents) \
         SELECT $1, u.account_id, u.amount_cents FROM unnest($2, $3) AS u(account_id, amount_cents)",
    )
    .bind::<sql_types::Uuid, _>(id)
    .bind::<Array<sql_types::Uuid>, _>(postings.iter().map(|p| p.account.id()).collect::<Vec<_>>())
    .bind::<Array<BigInt>, _>(postings.iter().map(|p| p.cents).collect::<Vec<_>>())
    .execute(conn);
    let recorded = Recorded {
        kind,
        without_wallet_no_money: false,
        postings,
    };
    Ok((recorded, [transfer, entries]))
}

impl Recorded {
    /// Settling debits a user without a wallet as one with a balance of 0:
    /// [`WalletError::InsufficientFunds`] instead of [`WalletError::WalletNotFound`].
    pub fn without_wallet_no_money(self) -> Self {
        Self {
            without_wallet_no_money: true,
            ..self
        }
    }

    /// Moves the balances of the user accounts, locking their wallets in ascending id order
    /// (so concurrent transfers cannot deadlock); answers each one's new balance.
    pub async fn settle(self, conn: &mut AsyncPgConnection) -> Result<Vec<(Uuid, i64)>> {
        let mut balances = Vec::new();
        for posting in &self.postings {
            if let Account::User(user) = posting.account {
                let balance = match move_balance(conn, user, posting.cents, self.kind).await {
                    Err(WalletError::WalletNotFound) if self.without_wallet_no_money => {
                        return Err(WalletError::InsufficientFunds);
                    }
                    moved => moved?,
                };
                balances.push((user, balance));
            }
        }
        self.count();
        Ok(balances)
    }

    /// The balance updates of [`Self::settle`], not yet awaited, in locking order, for a
    /// transaction that sends its statements in one round trip. They only update: a
    /// wallet that is missing answers `None`, and the caller must then roll back and
    /// settle with [`Self::settle`], which opens a credited wallet or refuses a debit.
    pub fn settle_statements(
        &self,
        conn: &mut AsyncPgConnection,
    ) -> Vec<BoxFuture<'static, Result<Option<i64>>>> {
        self.postings
            .iter()
            .filter_map(|p| match p.account {
                Account::User(user) => Some(balance_statement(conn, user, p.cents, self.kind)),
                _ => None,
            })
            .collect()
    }

    /// Reads what the updates of [`Self::settle_statements`] answered, in their order:
    /// each user's new balance, or `None` when a wallet was missing (see there).
    pub fn settled(self, moved: Vec<Result<Option<i64>>>) -> Result<Option<Vec<(Uuid, i64)>>> {
        let users = self.postings.iter().filter_map(|p| match p.account {
            Account::User(user) => Some(user),
            _ => None,
        });
        let mut balances = Vec::new();
        for (user, balance) in users.zip(moved) {
            match balance? {
                Some(balance) => balances.push((user, balance)),
                None => return Ok(None),
            }
        }
        self.count();
        Ok(Some(balances))
    }

    fn count(&self) {
        metrics::counter!("quire_wallet_transfers_total", "kind" => self.kind.as_str())
            .increment(1);
    }
}

/// Adds `delta` to `user`'s balance and to the total it counts toward, opening the wallet
/// for a credit; answers the new balance.
async fn move_balance(
    conn: &mut AsyncPgConnection,
    user: Uuid,
    delta: i64,
    kind: TransferKind,
) -> Result<i64> {
    if let Some(balance) = balance_statement(conn, user, delta, kind).await? {
        return Ok(balance);
    }
    if delta < 0 {
        return Err(WalletError::WalletNotFound);
    }
    open(conn, user).await?;
    balance_statement(conn, user, delta, kind)
        .await?
        .ok_or(WalletError::WalletNotFound)
}

/// Adds `delta` to `user`'s balance and to the total it counts toward; answers the new
/// balance (`None`: no wallet). Not yet awaited.
fn balance_statement(
    conn: &mut AsyncPgConnection,
    user: Uuid,
    delta: i64,
    kind: TransferKind,
) -> BoxFuture<'static, Result<Option<i64>>> {
    // The total the movement counts toward; a debit counts as spent (-delta).
    let sql = if delta < 0 {
        "UPDATE wallets SET balance_cents = balance_cents + $1, spent_cents = spent_cents - $2, \
         updated_at = CURRENT_TIMESTAMP WHERE user_id = $3 RETURNING balance_cents"
    } else if kind.is_money_in() {
        "UPDATE wallets SET balance_cents = balance_cents + $1, \
         recharged_cents = recharged_cents + $2, updated_at = CURRENT_TIMESTAMP \
         WHERE user_id = $3 RETURNING balance_cents"
    } else {
        "UPDATE wallets SET balance_cents = balance_cents + $1, earned_cents = earned_cents + $2, \
         updated_at = CURRENT_TIMESTAMP WHERE user_id = $3 RETURNING balance_cents"
    };
    prepared(sql)
        .bind::<BigInt, _>(delta)
        .bind::<BigInt, _>(delta)
        .bind::<sql_types::Uuid, _>(user)
        .get_result::<Balance>(conn)
        .map(|result| match result.optional() {
            Ok(balance) => Ok(balance.map(|b| b.balance_cents)),
            Err(DieselError::DatabaseError(DatabaseErrorKind::CheckViolation, info))
                if info.constraint_name() == Some(BALANCE_CHECK) =>
            {
                Err(WalletError::InsufficientFunds)
            }
            Err(e) => Err(e.into()),
        })
        .boxed()
}
