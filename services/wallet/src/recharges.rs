//! Recharges through the payment provider, safe against a crash at any point:
//!
//! 1. one transaction writes the pending top-up (and claims the idempotency key);
//! 2. the provider is asked, with the top-up's id as its idempotency key;
//! 3. one transaction settles: `UPDATE ... WHERE status = 'pending'` claims the row, so
//!    only one settler ever credits it, together with the transfer, the `wallet.recharged`
//!    event and the stored answer.
//!
//! A process killed between 1 and 3 leaves a pending row: a retry with the same key resumes
//! it, and [`run_settler`] settles what is left at start and then now and again.

use std::time::Duration;

use chrono::Utc;
use diesel::OptionalExtension;
use diesel::prelude::*;
use diesel_async::scoped_futures::ScopedFutureExt;
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use quire_kit::caller::Caller;
use quire_proto::wallet::v1 as pb;
use uuid::Uuid;

use crate::db::schema::top_ups;
use crate::db::top_up::{KIND_RECHARGE, STATUS_FAILED, STATUS_PENDING, STATUS_SETTLED, TopUpRow};
use crate::error::{Result, WalletError};
use crate::idempotency::{self, Claim, Key};
use crate::payment::{Payment, PaymentOutcome};
use crate::{AppState, credits, input, ledger, wallet_view};

/// How often pending recharges are asked about again, and how old they must be by then
/// (younger ones are still being settled by the request that wrote them).
const SWEEP_EVERY: Duration = Duration::from_secs(30);
const SWEEP_BATCH: i64 = 100;

/// `Recharge`: money in through the payment provider.
pub async fn recharge_request(
    state: &AppState,
    caller: &Caller,
    req: &pb::RechargeRequest,
) -> Result<pb::RechargeReply> {
    let user = input::acting_for(caller, "user_id", &req.user_id)?;
    let amount = input::amount(req.amount_cents)?;
    recharge(
        state,
        caller,
        user,
        amount,
        &req.idempotency_key,
        "Recharge",
    )
    .await
}

/// Money in through the payment provider for `user` (opening the wallet when needed);
/// `method` scopes the idempotency key to the API method that asked.
pub async fn recharge(
    state: &AppState,
    caller: &Caller,
    user: Uuid,
    amount: i64,
    raw_key: &str,
    method: &'static str,
) -> Result<pb::RechargeReply> {
    let fields = [user.to_string(), amount.to_string()];
    let key = Key::parse(
        caller.user_id(),
        raw_key,
        method,
        &fields.each_ref().map(String::as_str),
    )?;
    let provider = state.payments.name();
    let top_up = {
        let mut conn = state.conn().await?;
        match begin(&mut conn, key.as_ref(), user, amount, provider).await? {
            Begun::Answered(reply) => return Ok(*reply),
            // Decided already, or left with a provider this process does not talk to.
            Begun::Pending(row) if row.status != STATUS_PENDING || row.provider != provider => {
                return current(&mut conn, row.id, &state.config.currency).await;
            }
            Begun::Pending(row) => row,
        }
    };
    collect(state, &top_up).await
}

/// What step 1 found or wrote.
pub enum Begun {
    /// The same request finished before: its answer.
    Answered(Box<pb::RechargeReply>),
    /// The top-up to ask the provider about (new, or resumed for a retried key).
    Pending(Box<TopUpRow>),
}

/// Step 1: claims the key and writes the pending top-up (opening the wallet), or finds
/// what an earlier attempt with the same key left.
pub async fn begin(
    conn: &mut AsyncPgConnection,
    key: Option<&Key>,
    user: Uuid,
    amount: i64,
    provider: &str,
) -> Result<Begun> {
    conn.transaction::<Begun, WalletError, _>(|conn| {
        async move {
            if let Some(key) = key {
                match idempotency::claim(conn, key).await? {
                    Claim::Fresh => {}
                    Claim::Answered(answer) => {
                        return Ok(Begun::Answered(Box::new(idempotency::decode(&answer)?)));
                    }
                    Claim::Pending(id) => {
                        return Ok(Begun::Pending(Box::new(find(conn, id).await?)));
                    }
                    // Method and fingerprint matched, so this is never a recharge's key.
                    Claim::Refused(reason) => return Err(idempotency::refused(&reason)),
                }
            }
            ledger::open(conn, user).await?;
            let row = TopUpRow {
                id: Uuid::now_v7(),
                user_id: user,
                amount_cents: amount,
                kind: KIND_RECHARGE.into(),
                status: STATUS_PENDING.into(),
                provider: provider.to_owned(),
                provider_ref: String::new(),
                note: String::new(),
                created_by: None,
                transfer_id: None,
                created_at: Utc::now(),
                settled_at: None,
            };
            diesel::insert_into(top_ups::table)
                .values(&row)
                .execute(conn)
                .await?;
            if let Some(key) = key {
                idempotency::link_top_up(conn, key, row.id).await?;
            }
            tracing::info!(top_up_id = %row.id, user_id = %user, amount_cents = amount, "recharge pending");
            Ok(Begun::Pending(Box::new(row)))
        }
        .scope_boxed()
    })
    .await
}

/// Steps 2 and 3: asks the provider about a pending top-up and settles by its answer. A
/// provider that cannot be asked leaves the top-up pending (503).
pub async fn collect(state: &AppState, top_up: &TopUpRow) -> Result<pb::RechargeReply> {
    let payment = Payment {
        top_up_id: top_up.id,
        user_id: top_up.user_id,
        amount_cents: top_up.amount_cents,
        currency: state.config.currency.clone(),
    };
    // No database connection is held while the provider thinks.
    let outcome = state.payments.charge(&payment).await?;
    let mut conn = state.conn().await?;
    settle(&mut conn, state, top_up.id, outcome).await
}

/// Step 3, in one transaction. Only the settler whose `UPDATE ... WHERE status =
/// 'pending'` matched moves money; any other answers the top-up as it is.
async fn settle(
    conn: &mut AsyncPgConnection,
    state: &AppState,
    id: Uuid,
    outcome: PaymentOutcome,
) -> Result<pb::RechargeReply> {
    let currency = state.config.currency.as_str();
    conn.transaction::<pb::RechargeReply, WalletError, _>(|conn| {
        async move {
            let pending = top_ups::table
                .filter(top_ups::id.eq(id))
                .filter(top_ups::status.eq(STATUS_PENDING));
            let now = Utc::now();
            let claimed: Option<TopUpRow> = match &outcome {
                PaymentOutcome::Settled { reference } => diesel::update(pending)
                    .set((
                        top_ups::status.eq(STATUS_SETTLED),
                        top_ups::provider_ref.eq(reference),
                        top_ups::settled_at.eq(now),
                        top_ups::transfer_id.eq(Uuid::now_v7()),
                    ))
                    .returning(TopUpRow::as_returning())
                    .get_result(conn)
                    .await
                    .optional()?,
                PaymentOutcome::Failed { reference, reason } => {
                    tracing::warn!(top_up_id = %id, reason, "payment failed");
                    diesel::update(pending)
                        .set((
                            top_ups::status.eq(STATUS_FAILED),
                            top_ups::provider_ref.eq(reference),
                            top_ups::settled_at.eq(now),
                        ))
                        .returning(TopUpRow::as_returning())
                        .get_result(conn)
                        .await
                        .optional()?
                }
                PaymentOutcome::Pending { reference } => {
                    // Not decided: remember the provider's reference and answer pending;
                    // nothing is stored for the key, so a retry asks again.
                    diesel::update(pending)
                        .set(top_ups::provider_ref.eq(reference))
                        .execute(conn)
                        .await?;
                    return current(conn, id, currency).await;
                }
            };
            let Some(row) = claimed else {
                // Someone else settled it first; the money moved there, once.
                return current(conn, id, currency).await;
            };
            if row.status == STATUS_SETTLED {
                credits::credit(conn, &row).await?;
            }
            let answer = reply(conn, &row, currency).await?;
            idempotency::store_for_top_up(conn, row.id, &answer).await?;
            Ok(answer)
        }
        .scope_boxed()
    })
    .await
    // A settled recharge wrote its event: the relay sends it now.
    .inspect(|_| state.outbox.wake())
}

async fn find(conn: &mut AsyncPgConnection, id: Uuid) -> Result<TopUpRow> {
    Ok(top_ups::table
        .find(id)
        .select(TopUpRow::as_select())
        .first(conn)
        .await?)
}

async fn reply(
    conn: &mut AsyncPgConnection,
    row: &TopUpRow,
    currency: &str,
) -> Result<pb::RechargeReply> {
    let wallet = ledger::wallet(conn, row.user_id)
        .await?
        .ok_or(WalletError::WalletNotFound)?;
    Ok(pb::RechargeReply {
        wallet: Some(wallet_view::to_pb(&wallet, currency)),
        record: Some(credits::record(row)),
    })
}

/// Top-up `id` as it is now.
async fn current(
    conn: &mut AsyncPgConnection,
    id: Uuid,
    currency: &str,
) -> Result<pb::RechargeReply> {
    let row = find(conn, id).await?;
    reply(conn, &row, currency).await
}

/// Settles pending recharges of this service's provider: all of them at start (what a
/// crash left), then every [`SWEEP_EVERY`] those older than that, until `stop` resolves.
pub async fn run_settler(state: AppState, stop: impl std::future::Future<Output = ()>) {
    tokio::pin!(stop);
    let mut min_age = Duration::ZERO;
    loop {
        match sweep(&state, min_age).await {
            Ok(0) => {}
            Ok(settled) => tracing::info!(settled, "pending recharges settled"),
            Err(error) => tracing::warn!(%error, "settling pending recharges failed, will retry"),
        }
        min_age = SWEEP_EVERY;
        tokio::select! {
            () = &mut stop => return,
            () = tokio::time::sleep(SWEEP_EVERY) => {}
        }
    }
}

/// One pass over pending recharges older than `min_age`; answers how many it asked about.
pub async fn sweep(state: &AppState, min_age: Duration) -> Result<usize> {
    let before = Utc::now() - chrono::Duration::from_std(min_age).unwrap_or_default();
    let pending: Vec<TopUpRow> = top_ups::table
        .filter(top_ups::status.eq(STATUS_PENDING))
        .filter(top_ups::provider.eq(state.payments.name()))
        .filter(top_ups::created_at.le(before))
        .order(top_ups::created_at)
        .limit(SWEEP_BATCH)
        .select(TopUpRow::as_select())
        .load(&mut state.conn().await?)
        .await?;
    for row in &pending {
        if let Err(error) = collect(state, row).await {
            tracing::warn!(%error, top_up_id = %row.id, "pending recharge not settled");
        }
    }
    Ok(pending.len())
}
