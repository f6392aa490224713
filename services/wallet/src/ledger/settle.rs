//! Settling a recorded transfer: moving the balances of the user wallets it names, or
//! writing their credits as pending. This is where a transfer locks wallets, and so where
//! the locking order of `crate::ledger` is kept: the postings are settled in ascending
//! account id order (as recorded), and each balance movement locks its wallet's row before
//! it takes the wallet's pending credits in.

use diesel::OptionalExtension;
use diesel::prelude::*;
use diesel::result::{DatabaseErrorKind, Error as DieselError, QueryResult};
use diesel::sql_types::{self, Array, BigInt};
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use futures::FutureExt;
use futures::future::BoxFuture;
use quire_kit::db::prepared;
use uuid::Uuid;

use super::balances::{open, open_missing};
use super::posting::{Account, Posting, TransferKind};
use crate::error::{CommonErrors, Result, WalletError};

/// What the balance UPDATEs return.
#[derive(QueryableByName)]
struct Balance {
    #[diesel(sql_type = BigInt)]
    balance_cents: i64,
}

/// The check that keeps user balances from going below zero (see the migration).
const BALANCE_CHECK: &str = "wallets_balance_not_negative";

/// A transfer whose row and entries are written and whose balances are still to move: the
/// caller may write more before [`Recorded::settle`] locks the wallets, so that the rows a
/// popular seller's sales queue on are held through as few statements as possible.
#[must_use = "a recorded transfer moves no money until it is settled"]
pub struct Recorded {
    id: Uuid,
    kind: TransferKind,
    /// A debit of a user without a wallet is too little money, not a missing wallet.
    without_wallet_no_money: bool,
    /// In ascending account id order, the order wallets are locked in.
    postings: Vec<Posting>,
}

/// What settling did to one wallet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Moved {
    /// The balance moved now; its new value.
    Balance(i64),
    /// A credit written as pending (see `crate::ledger`).
    Pending,
}

impl Recorded {
    /// A transfer whose row and entries were just written; `postings` in ascending account
    /// id order.
    pub(super) fn new(id: Uuid, kind: TransferKind, postings: Vec<Posting>) -> Self {
        Self {
            id,
            kind,
            without_wallet_no_money: false,
            postings,
        }
    }

    /// Settling debits a user without a wallet as one with a balance of 0:
    /// [`WalletError::InsufficientFunds`] instead of [`WalletError::WalletNotFound`].
    pub fn without_wallet_no_money(self) -> Self {
        Self {
            without_wallet_no_money: true,
            ..self
        }
    }

    /// Moves the balances of the user accounts, locking their wallets in ascending id order
    /// (so concurrent transfers cannot deadlock), or writes their credits as pending; answers
    /// the new balance of each wallet moved now.
    pub async fn settle(self, conn: &mut AsyncPgConnection) -> Result<Vec<(Uuid, i64)>> {
        let mut balances = Vec::new();
        for posting in &self.postings {
            let Account::User(user) = posting.account else {
                continue;
            };
            let moved = match self.wallet_statement(conn, user, posting.cents).await? {
                Some(moved) => moved,
                None if posting.cents > 0 => {
                    open(conn, user).await?;
                    self.wallet_statement(conn, user, posting.cents)
                        .await?
                        .ok_or(WalletError::WalletNotFound)?
                }
                None if self.without_wallet_no_money => return Err(WalletError::InsufficientFunds),
                None => return Err(WalletError::WalletNotFound),
            };
            if let Moved::Balance(balance) = moved {
                balances.push((user, balance));
            }
        }
        self.count();
        Ok(balances)
    }

    /// [`Self::settle`] for a transfer whose every movement of a user is a credit that can
    /// wait (a failed campaign's refunds: one per backer, thousands of them): writes them
    /// all as pending credits with one statement instead of one per wallet. It locks no
    /// wallet, so the locking order holds trivially. Opens the wallets that are missing
    /// first (rare: one statement each).
    pub async fn settle_credits(self, conn: &mut AsyncPgConnection) -> Result<()> {
        let (users, cents): (Vec<Uuid>, Vec<i64>) = self
            .postings
            .iter()
            .filter_map(|p| match p.account {
                Account::User(user) => Some((user, p.cents)),
                _ => None,
            })
            .unzip();
        if !self.kind.credits_later() || cents.iter().any(|c| *c <= 0) {
            return Err(WalletError::internal(format!(
                "transfer {} moves users other than by credits that can wait",
                self.id
            )));
        }
        open_missing(conn, &users).await?;
        // As `pending_statement`, for every user at once: the wallets are read, not locked.
        let written = prepared(
            "INSERT INTO pending_credits (user_id, transfer_id, amount_cents) \
             SELECT w.user_id, $1, u.amount_cents \
             FROM unnest($2, $3) AS u(user_id, amount_cents) JOIN wallets w USING (user_id)",
        )
        .bind::<sql_types::Uuid, _>(self.id)
        .bind::<Array<sql_types::Uuid>, _>(users.clone())
        .bind::<Array<BigInt>, _>(cents)
        .execute(conn)
        .await?;
        if written != users.len() {
            // Wallets are never removed, and the missing ones were just opened.
            return Err(WalletError::internal(format!(
                "transfer {}: {written} of {} pending credits written",
                self.id,
                users.len()
            )));
        }
        self.count();
        Ok(())
    }

    /// The wallet statements of [`Self::settle`], not yet awaited, in locking order, for a
    /// transaction that sends its statements in one round trip. They open no wallet: one
    /// that is missing answers `None`, and the caller must then roll back and settle with
    /// [`Self::settle`], which opens a credited wallet or refuses a debit.
    pub fn settle_statements(
        &self,
        conn: &mut AsyncPgConnection,
    ) -> Vec<BoxFuture<'static, Result<Option<Moved>>>> {
        self.postings
            .iter()
            .filter_map(|p| match p.account {
                Account::User(user) => Some(self.wallet_statement(conn, user, p.cents)),
                _ => None,
            })
            .collect()
    }

    /// Reads what the statements of [`Self::settle_statements`] answered, in their order:
    /// the new balance of each wallet moved now, or `None` when a wallet was missing (see
    /// there).
    pub fn settled(self, moved: Vec<Result<Option<Moved>>>) -> Result<Option<Vec<(Uuid, i64)>>> {
        let users = self.postings.iter().filter_map(|p| match p.account {
            Account::User(user) => Some(user),
            _ => None,
        });
        let mut balances = Vec::new();
        for (user, moved) in users.zip(moved) {
            match moved? {
                Some(Moved::Balance(balance)) => balances.push((user, balance)),
                Some(Moved::Pending) => {}
                None => return Ok(None),
            }
        }
        self.count();
        Ok(Some(balances))
    }

    /// `user`'s part of this transfer: a credit that can wait goes to pending credits, any
    /// other movement to the balance. `None`: the wallet is missing. Not yet awaited.
    fn wallet_statement(
        &self,
        conn: &mut AsyncPgConnection,
        user: Uuid,
        cents: i64,
    ) -> BoxFuture<'static, Result<Option<Moved>>> {
        if cents > 0 && self.kind.credits_later() {
            pending_statement(conn, user, self.id, cents)
                .map(|written| Ok((written? == 1).then_some(Moved::Pending)))
                .boxed()
        } else {
            balance_statement(conn, user, cents, self.kind)
                .map(|moved| Ok(moved?.map(Moved::Balance)))
                .boxed()
        }
    }

    fn count(&self) {
        metrics::counter!("quire_wallet_transfers_total", "kind" => self.kind.as_str())
            .increment(1);
    }
}

/// Writes `cents` of transfer `transfer` as a pending credit of `user`, if the wallet is
/// there (1 row; 0 without a wallet). Reads the wallet without locking it: that is the
/// point. Not yet awaited.
fn pending_statement(
    conn: &mut AsyncPgConnection,
    user: Uuid,
    transfer: Uuid,
    cents: i64,
) -> BoxFuture<'static, QueryResult<usize>> {
    prepared(
        "INSERT INTO pending_credits (user_id, transfer_id, amount_cents) \
         SELECT user_id, $1, $2 FROM wallets WHERE user_id = $3",
    )
    .bind::<sql_types::Uuid, _>(transfer)
    .bind::<BigInt, _>(cents)
    .bind::<sql_types::Uuid, _>(user)
    .execute(conn)
}

/// Adds `delta` to `user`'s balance and to the total it counts toward, taking the wallet's
/// pending credits in with it; answers the new balance (`None`: no wallet). Not yet
/// awaited: two statements, sent together.
fn balance_statement(
    conn: &mut AsyncPgConnection,
    user: Uuid,
    delta: i64,
    kind: TransferKind,
) -> BoxFuture<'static, Result<Option<i64>>> {
    // The wallet row is locked first, by a statement of its own. Postgres checks a CHECK
    // against the row version the statement's snapshot saw *before* it finds that row
    // changed and re-reads it: a debit whose snapshot predates a commit that added money
    // would be refused on the old balance. Locked first, the next statement's snapshot
    // sees the row as it is, and nobody else can change it. Every balance movement and the
    // folder lock the wallet before its pending credits, so they never wait in a cycle.
    let lock = prepared("SELECT user_id FROM wallets WHERE user_id = $1 FOR NO KEY UPDATE")
        .bind::<sql_types::Uuid, _>(user)
        .execute(conn);
    // Pending credits count as earned; the movement counts toward its own total, a debit
    // as spent (-delta).
    macro_rules! folding {
        ($totals:literal) => {
            concat!(
                "WITH folded AS (DELETE FROM pending_credits WHERE user_id = $1 ",
                "RETURNING amount_cents), ",
                "f AS (SELECT COALESCE(sum(amount_cents), 0)::bigint AS cents FROM folded) ",
                "UPDATE wallets SET balance_cents = balance_cents + f.cents + $2, ",
                $totals,
                ", updated_at = CURRENT_TIMESTAMP FROM f WHERE user_id = $4 ",
                "RETURNING balance_cents"
            )
        };
    }
    let sql = if delta < 0 {
        folding!("earned_cents = earned_cents + f.cents, spent_cents = spent_cents - $3")
    } else if kind.is_money_in() {
        folding!("earned_cents = earned_cents + f.cents, recharged_cents = recharged_cents + $3")
    } else {
        folding!("earned_cents = earned_cents + f.cents + $3")
    };
    let moved = prepared(sql)
        .bind::<sql_types::Uuid, _>(user)
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
        });
    async move {
        // Polled together, so both go out at once, in this order.
        let (locked, moved) = futures::join!(lock, moved);
        locked?;
        moved
    }
    .boxed()
}
