//! Spending from a wallet: a transfer from the user to the `spent` account (the platform's
//! side of consumption), refused with 402 when the balance is too small.

use diesel_async::scoped_futures::ScopedFutureExt;
use quire_kit::caller::Caller;
use quire_proto::wallet::v1 as pb;
use uuid::Uuid;

use crate::db::rfc3339;
use crate::error::{Result, WalletError};
use crate::idempotency::{self, Key};
use crate::ledger::{self, Account, Posting, TransferKind};
use crate::{AppState, input, wallet_view};

pub async fn consume(
    state: &AppState,
    caller: &Caller,
    req: &pb::ConsumeRequest,
) -> Result<pb::ConsumeReply> {
    let user = input::acting_for(caller, "user_id", &req.user_id)?;
    let amount = input::amount(req.amount_cents)?;
    let memo = input::text("memo", &req.memo)?;
    let fields = [user.to_string(), amount.to_string(), memo.clone()];
    let key = Key::parse(
        caller.user_id(),
        &req.idempotency_key,
        "Consume",
        &fields.each_ref().map(String::as_str),
    )?;
    let currency = state.config.currency.as_str();
    let mut conn = state.conn().await?;
    idempotency::run(&mut conn, key.as_ref(), |conn| {
        async move {
            let transfer = Uuid::now_v7();
            ledger::transfer(
                conn,
                transfer,
                TransferKind::Consume,
                &memo,
                &[
                    Posting::new(Account::User(user), -amount),
                    Posting::new(Account::Spent, amount),
                ],
            )
            .await?;
            let wallet = ledger::wallet(conn, user)
                .await?
                .ok_or(WalletError::WalletNotFound)?;
            tracing::info!(user_id = %user, amount_cents = amount, transfer_id = %transfer, "wallet spent");
            Ok(pb::ConsumeReply {
                transfer_id: transfer.to_string(),
                amount_cents: amount,
                created_at: rfc3339(wallet.updated_at),
                wallet: Some(wallet_view::to_pb(&wallet, currency)),
            })
        }
        .scope_boxed()
    })
    .await
}
