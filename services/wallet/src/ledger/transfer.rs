//! Recording a transfer: checks that its postings balance and name each account once, then
//! writes the transfer and its entries. The money moves when the [`Recorded`] transfer
//! this answers is settled (see `settle`), which [`transfer`] does at once and other
//! callers do after writing what else they record with it.

use diesel::result::QueryResult;
use diesel::sql_types::{self, Array, BigInt, Text};
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use futures::future::BoxFuture;
use quire_kit::db::prepared;
use uuid::Uuid;

use super::posting::{Posting, TransferKind};
use super::settle::Recorded;
use crate::error::{CommonErrors, Result, WalletError};

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
    Ok((Recorded::new(id, kind, postings), [transfer, entries]))
}
