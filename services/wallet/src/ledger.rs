//! The double-entry ledger: every movement of money is one transfer whose entries sum to
//! zero across accounts. User accounts (wallets) carry a running balance that the
//! database keeps from going below zero; system accounts and campaigns' escrow accounts
//! carry none (their balance is the sum of their entries), so concurrent trades never
//! queue on a shared platform row, nor concurrent pledges on a campaign's.
//!
//! Nor on a popular writer's row: a writer's share of a sale or of a funded campaign, an
//! invite reward and a failed campaign's refunds are *pending credits* (rows of their own) that the folder ([`fold_pending`], run by
//! `crate::folder`) adds to the wallet row in batches. A wallet holds its row plus its
//! pending credits (the `wallet_balances` view, which every read uses), and each
//! statement that moves a wallet's balance takes that wallet's pending credits in first,
//! so a debit is checked against all the money there is. A credit cannot take a balance
//! below zero, which is why it can wait.
//!
//! Deadlock freedom: a transfer locks the user wallets it moves in ascending account id
//! order (each UPDATE takes the row lock), whatever order its postings came in, and takes
//! a wallet's pending credits before the wallet; the folder does the same. Entries
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
use diesel_async::scoped_futures::ScopedFutureExt;
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use futures::FutureExt;
use futures::future::BoxFuture;
use quire_kit::db::prepared;
use uuid::Uuid;

use crate::db::account::NewAccount;
use crate::db::schema::{accounts, entries, wallets};
use crate::db::wallet::{WalletRow, wallet_balances};
use crate::error::{CommonErrors, Result, WalletError};

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
    /// A crowd-funding campaign's pledges until it is settled; its id is the campaign's.
    /// Like the system accounts it carries no running balance, so pledges never queue on a
    /// row of their own.
    Escrow(Uuid),
}

impl Account {
    /// The account's id; system accounts have fixed ids seeded by the migration.
    pub fn id(self) -> Uuid {
        match self {
            Self::User(id) | Self::Escrow(id) => id,
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
    /// A backer's pledge: wallet -> the campaign's escrow.
    Pledge,
    /// A funded campaign's escrow -> its writer and the platform.
    CampaignPayout,
    /// A failed campaign's escrow -> back to every backer.
    CampaignRefund,
}

impl TransferKind {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Recharge => "recharge",
            Self::TopUp => "top_up",
            Self::Consume => "consume",
            Self::Trade => "trade",
            Self::Reward => "reward",
            Self::Pledge => "pledge",
            Self::CampaignPayout => "campaign_payout",
            Self::CampaignRefund => "campaign_refund",
        }
    }

    fn is_money_in(self) -> bool {
        matches!(self, Self::Recharge | Self::TopUp)
    }

    /// Whether its credits to users wait as pending credits: the ones that can pile up on
    /// one wallet at once (a popular writer's sales, an inviter's rewards, a campaign's
    /// payout) and the ones a transfer makes by the thousand (a failed campaign's refunds,
    /// written by [`Recorded::settle_credits`] in one statement). Either way the wallet
    /// shows them at once (`wallet_balances`). Money in is credited at once, as its owner
    /// is usually about to spend it.
    fn credits_later(self) -> bool {
        matches!(
            self,
            Self::Trade | Self::Reward | Self::CampaignPayout | Self::CampaignRefund
        )
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

/// Records transfer `id` and moves the money of `postings`, which must sum to zero and
/// name each account once. A credit opens a user's wallet when there is none; a debit of a
/// user without a wallet is [`WalletError::WalletNotFound`], one that would take a balance
/// below zero [`WalletError::InsufficientFunds`]. Answers the new balance of each wallet
/// whose balance moved now (a credit left pending is not among them). Must run inside a
/// transaction.
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
    id: Uuid,
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
        return Err(WalletError::internal(format!(
            "transfer {id} names an account twice"
        )));
    }
    let total = postings
        .iter()
        .try_fold(0i64, |sum, p| sum.checked_add(p.cents));
    if total != Some(0) {
        return Err(WalletError::internal(format!(
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
        id,
        kind,
        without_wallet_no_money: false,
        postings,
    };
    Ok((recorded, [transfer, entries]))
}

/// What settling did to one wallet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Moved {
    /// The balance moved now; its new value.
    Balance(i64),
    /// A credit written as pending (see the module's notes).
    Pending,
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
        let missing = prepared(
            "SELECT u.user_id FROM unnest($1) AS u(user_id) \
             WHERE NOT EXISTS (SELECT 1 FROM wallets w WHERE w.user_id = u.user_id)",
        )
        .bind::<Array<sql_types::Uuid>, _>(users.clone())
        .load::<Pending>(conn)
        .await?;
        for wallet in missing {
            open(conn, wallet.user_id).await?;
        }
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

/// A wallet whose pending credits are folded.
#[derive(QueryableByName)]
struct Pending {
    #[diesel(sql_type = sql_types::Uuid)]
    user_id: Uuid,
}

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
            .load::<Pending>(conn);
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
