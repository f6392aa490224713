//! Idempotency keys of money-moving calls. A key is scoped to the caller; its row (method,
//! a fingerprint of the request, and the encoded answer) is written in the transaction that
//! moves the money, so a retry either finds the answer of a committed movement or moves
//! the money itself, never both.
//!
//! Concurrent duplicates: both insert the key row with `ON CONFLICT DO NOTHING`; Postgres
//! makes the second wait until the first commits, then it finds the row and replays the
//! stored answer (or, if the first rolled back, inserts it and does the work itself).

use diesel::OptionalExtension;
use diesel::prelude::*;
use diesel::result::QueryResult;
use diesel::sql_types::{self, Bytea, Text};
use diesel_async::scoped_futures::{ScopedBoxFuture, ScopedFutureExt};
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use futures::FutureExt;
use futures::future::BoxFuture;
use quire_kit::db::prepared;
use sha2::{Digest, Sha256};
use uuid::Uuid;

use crate::db::idempotency_key::IdempotencyKeyRow;
use crate::db::schema::idempotency_keys;
use crate::error::{CommonErrors, Result, WalletError};
use crate::ledger::Recorded;

const MAX_KEY_LEN: usize = 200;

/// An idempotency key as one caller used it for one request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Key {
    pub caller: Uuid,
    pub key: String,
    pub method: &'static str,
    /// Tells the same request from a different one under the same key.
    pub fingerprint: String,
}

impl Key {
    /// The key of a request, `None` when the caller sent none. `request` lists the fields
    /// that decide what the call does (after defaults are applied), in a fixed order.
    pub fn parse(
        caller: Uuid,
        raw: &str,
        method: &'static str,
        request: &[&str],
    ) -> Result<Option<Self>> {
        if raw.is_empty() {
            return Ok(None);
        }
        // Printable ASCII only: the key travels in an HTTP header and in logs.
        if raw.len() > MAX_KEY_LEN || !raw.bytes().all(|b| (0x20..=0x7e).contains(&b)) {
            return Err(WalletError::invalid(
                "idempotency_key",
                format!("idempotency_key must be 1 to {MAX_KEY_LEN} printable ASCII characters"),
            ));
        }
        Ok(Some(Self {
            caller,
            key: raw.to_owned(),
            method,
            fingerprint: fingerprint(method, request),
        }))
    }
}

/// A digest of the method and the fields of a request; each field is length-prefixed so
/// that no two different requests share one.
pub fn fingerprint(method: &str, fields: &[&str]) -> String {
    let mut hash = Sha256::new();
    for part in std::iter::once(method).chain(fields.iter().copied()) {
        hash.update((part.len() as u64).to_le_bytes());
        hash.update(part.as_bytes());
    }
    hex::encode(hash.finalize())
}

/// What the key row says about a request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Claim {
    /// The key is new: this call does the work (the row is now held by its transaction).
    Fresh,
    /// The same request already finished: replay this encoded answer.
    Answered(Vec<u8>),
    /// The same recharge was started and is not settled yet: resume this top-up.
    Pending(Uuid),
    /// The same request was refused: refuse it again (see [`refusal`]).
    Refused(String),
}

/// The refusals a key remembers: those a later state could turn into a success, so that
/// a resend must not (the client was told the request failed). Everything else rolls the
/// key back with the work, so the request may be retried.
fn refusal(error: &WalletError) -> Option<&'static str> {
    match error {
        WalletError::InsufficientFunds => Some("insufficient_funds"),
        _ => None,
    }
}

/// The error a remembered refusal stands for.
pub fn refused(reason: &str) -> WalletError {
    match reason {
        "insufficient_funds" => WalletError::InsufficientFunds,
        other => WalletError::internal(format!("unknown stored refusal {other:?}")),
    }
}

/// Claims `key` inside the caller's transaction.
pub async fn claim(conn: &mut AsyncPgConnection, key: &Key) -> Result<Claim> {
    if claim_statement(conn, key).await? == 1 {
        return Ok(Claim::Fresh);
    }
    // The conflicting row is committed now (the insert waited for it), so it is visible.
    match lookup(conn, key).await? {
        Some(claim) => Ok(claim),
        None => Err(WalletError::internal(
            "idempotency key vanished after a conflict",
        )),
    }
}

/// The insert of [`claim`], not yet awaited (see `quire_kit::db`, *Pipelining*): one row
/// when the key is fresh, none when it was used before.
pub fn claim_statement<'q>(
    conn: &mut AsyncPgConnection,
    key: &'q Key,
) -> BoxFuture<'q, QueryResult<usize>> {
    // A statement that stays prepared: this runs in every money-moving transaction.
    prepared(
        "INSERT INTO idempotency_keys (caller_id, key, method, fingerprint) \
         VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING",
    )
    .bind::<sql_types::Uuid, _>(key.caller)
    .bind::<Text, _>(&key.key)
    .bind::<Text, _>(key.method)
    .bind::<Text, _>(&key.fingerprint)
    .execute(conn)
}

/// What an earlier use of `key` left, without claiming it (`None`: never used).
pub async fn lookup(conn: &mut AsyncPgConnection, key: &Key) -> Result<Option<Claim>> {
    earlier(key, lookup_statement(conn, key).await?)
}

/// The read of [`lookup`], not yet awaited; [`earlier`] makes sense of its row.
pub fn lookup_statement<'q>(
    conn: &mut AsyncPgConnection,
    key: &'q Key,
) -> BoxFuture<'q, QueryResult<Option<IdempotencyKeyRow>>> {
    idempotency_keys::table
        .find((key.caller, &key.key))
        .select(IdempotencyKeyRow::as_select())
        .first(conn)
        .map(OptionalExtension::optional)
        .boxed()
}

/// What the row of an earlier use of `key` tells (`None`: never used).
pub fn earlier(key: &Key, row: Option<IdempotencyKeyRow>) -> Result<Option<Claim>> {
    let Some(row) = row else { return Ok(None) };
    if row.method != key.method || row.fingerprint != key.fingerprint {
        return Err(WalletError::KeyReused);
    }
    match (row.answer, row.refusal, row.top_up_id) {
        (Some(answer), _, _) => Ok(Some(Claim::Answered(answer))),
        (None, Some(reason), _) => Ok(Some(Claim::Refused(reason))),
        (None, None, Some(top_up)) => Ok(Some(Claim::Pending(top_up))),
        (None, None, None) => Err(WalletError::internal(
            "idempotency key committed without an answer",
        )),
    }
}

/// Ties a claimed key to the recharge it started, so a retry can resume it.
pub async fn link_top_up(conn: &mut AsyncPgConnection, key: &Key, top_up: Uuid) -> Result<()> {
    diesel::update(idempotency_keys::table.find((key.caller, &key.key)))
        .set(idempotency_keys::top_up_id.eq(top_up))
        .execute(conn)
        .await?;
    Ok(())
}

/// Stores the answer of a claimed key.
pub async fn store(
    conn: &mut AsyncPgConnection,
    key: &Key,
    answer: &impl prost::Message,
) -> Result<()> {
    store_statement(conn, key, answer).await?;
    Ok(())
}

/// The update of [`store`], not yet awaited.
pub fn store_statement<'q>(
    conn: &mut AsyncPgConnection,
    key: &'q Key,
    answer: &impl prost::Message,
) -> BoxFuture<'q, QueryResult<usize>> {
    prepared("UPDATE idempotency_keys SET answer = $1 WHERE caller_id = $2 AND key = $3")
        .bind::<Bytea, _>(answer.encode_to_vec())
        .bind::<sql_types::Uuid, _>(key.caller)
        .bind::<Text, _>(&key.key)
        .execute(conn)
}

/// Stores the answer of the key (if any) that started recharge `top_up`.
pub async fn store_for_top_up(
    conn: &mut AsyncPgConnection,
    top_up: Uuid,
    answer: &impl prost::Message,
) -> Result<()> {
    diesel::update(idempotency_keys::table.filter(idempotency_keys::top_up_id.eq(top_up)))
        .set(idempotency_keys::answer.eq(answer.encode_to_vec()))
        .execute(conn)
        .await?;
    Ok(())
}

pub fn decode<R: prost::Message + Default>(answer: &[u8]) -> Result<R> {
    R::decode(answer).map_err(|e| WalletError::internal(format!("stored answer unreadable: {e}")))
}

/// Runs `work` in one transaction with `key` claimed first and its answer stored last; a
/// finished duplicate replays the stored answer without running `work`. An error rolls
/// everything back, the key included, so the request may be retried; a [`refusal`] is
/// then stored under the key in a transaction of its own. A caller whose `work` wrote
/// events wakes the outbox relay once this returns.
pub async fn run<'a, R, F>(conn: &mut AsyncPgConnection, key: Option<&'a Key>, work: F) -> Result<R>
where
    R: prost::Message + Default + Send + 'a,
    F: for<'r> FnOnce(&'r mut AsyncPgConnection) -> ScopedBoxFuture<'a, 'r, Result<R>> + Send + 'a,
{
    run_settling(conn, key, move |conn| {
        async move { Ok((work(conn).await?, None)) }.scope_boxed()
    })
    .await
}

/// [`run`] for work whose answer is known before its money moves: `work` answers with the
/// transfer it recorded, which settles (locks and moves the wallets) after the answer is
/// stored, as the last statement before the commit. A refusal from settling (too little
/// money) rolls everything back like any other.
pub async fn run_settling<'a, R, F>(
    conn: &mut AsyncPgConnection,
    key: Option<&'a Key>,
    work: F,
) -> Result<R>
where
    R: prost::Message + Default + Send + 'a,
    F: for<'r> FnOnce(
            &'r mut AsyncPgConnection,
        ) -> ScopedBoxFuture<'a, 'r, Result<(R, Option<Recorded>)>>
        + Send
        + 'a,
{
    let outcome = conn
        .transaction::<R, WalletError, _>(|conn| {
            async move {
                if let Some(key) = key
                    && let Some(earlier) = replay(claim(conn, key).await?)
                {
                    return earlier;
                }
                let (answer, transfer) = work(conn).await?;
                if let Some(key) = key {
                    store(conn, key, &answer).await?;
                }
                if let Some(transfer) = transfer {
                    transfer.settle(conn).await?;
                }
                Ok(answer)
            }
            .scope_boxed()
        })
        .await;
    match (outcome, key) {
        (Err(error), Some(key)) if refusal(&error).is_some() => remember(conn, key, error).await,
        (outcome, _) => outcome,
    }
}

/// What an earlier use of a key answers again: its stored answer or refusal; `None` for a
/// fresh key, whose work is to be done. A recharge's pending key never reaches a method
/// that moves money at once (the fingerprint names the method).
pub fn replay<R: prost::Message + Default>(claim: Claim) -> Option<Result<R>> {
    match claim {
        Claim::Fresh => None,
        Claim::Answered(answer) => Some(decode(&answer)),
        Claim::Refused(reason) => Some(Err(refused(&reason))),
        Claim::Pending(_) => Some(Err(WalletError::internal(
            "a recharge key reached a method that moves money at once",
        ))),
    }
}

/// Stores `error` as the answer of `key`, whose work was refused and rolled back. A
/// duplicate that claimed the key in between (the balance having grown meanwhile) came
/// first: its answer is the answer.
async fn remember<R: prost::Message + Default + Send>(
    conn: &mut AsyncPgConnection,
    key: &Key,
    error: WalletError,
) -> Result<R> {
    let reason = refusal(&error).unwrap_or("internal");
    conn.transaction::<Result<R>, WalletError, _>(|conn| {
        async move {
            if let Some(earlier) = replay(claim(conn, key).await?) {
                return Ok(earlier);
            }
            prepared("UPDATE idempotency_keys SET refusal = $1 WHERE caller_id = $2 AND key = $3")
                .bind::<Text, _>(reason)
                .bind::<sql_types::Uuid, _>(key.caller)
                .bind::<Text, _>(&key.key)
                .execute(conn)
                .await?;
            Ok(Err(error))
        }
        .scope_boxed()
    })
    .await?
}

#[cfg(test)]
mod tests {
    use quire_kit::KitError;

    use super::*;

    #[test]
    fn keys_are_short_printable_ascii() {
        let me = Uuid::now_v7();
        assert!(Key::parse(me, "", "Consume", &[]).unwrap().is_none());
        assert!(
            Key::parse(me, "retry-1 ~!", "Consume", &[])
                .unwrap()
                .is_some()
        );
        assert!(
            Key::parse(me, &"k".repeat(200), "Consume", &[])
                .unwrap()
                .is_some()
        );
        for bad in [
            "k".repeat(201),
            "tab\there".into(),
            "é".into(),
            "nul\0".into(),
        ] {
            assert!(matches!(
                Key::parse(me, &bad, "Consume", &[]),
                Err(WalletError::Kit(KitError::Invalid("idempotency_key", _)))
            ));
        }
    }

    #[test]
    fn fingerprints_tell_requests_apart() {
        assert_eq!(
            fingerprint("Consume", &["a", "5"]),
            fingerprint("Consume", &["a", "5"])
        );
        assert_ne!(
            fingerprint("Consume", &["a", "5"]),
            fingerprint("Consume", &["a", "6"])
        );
        assert_ne!(
            fingerprint("Consume", &["ab", ""]),
            fingerprint("Consume", &["a", "b"])
        );
        assert_ne!(fingerprint("Consume", &["a"]), fingerprint("TopUp", &["a"]));
    }
}
