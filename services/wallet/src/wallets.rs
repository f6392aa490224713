//! Opening, reading and listing wallets.

use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use quire_kit::caller::Caller;
use quire_proto::wallet::v1 as pb;

use crate::db::schema::wallets;
use crate::db::wallet::{WalletRow, wallet_balances};
use crate::error::{CommonErrors, Result, WalletError};
use crate::idempotency::Key;
use crate::input::{self, Page};
use crate::wallet_view::to_pb;
use crate::{AppState, ledger, recharges};

/// Opens the wallet (an open one is answered as it is), then recharges a positive amount
/// exactly like [`recharges::recharge`].
pub async fn open(
    state: &AppState,
    caller: &Caller,
    req: &pb::OpenWalletRequest,
) -> Result<pb::Wallet> {
    let user = input::acting_for(caller, "user_id", &req.user_id)?;
    if req.amount_cents != 0 {
        let amount = input::amount(req.amount_cents)?;
        let reply = recharges::recharge(
            state,
            caller,
            user,
            amount,
            &req.idempotency_key,
            "OpenWallet",
        )
        .await?;
        return reply
            .wallet
            .ok_or_else(|| WalletError::internal("recharge answered no wallet"));
    }
    // Opening moves no money and is idempotent by itself; a key is still checked.
    Key::parse(caller.user_id(), &req.idempotency_key, "OpenWallet", &[])?;
    let mut conn = state.conn().await?;
    let row = ledger::open(&mut conn, user).await?;
    tracing::info!(user_id = %user, "wallet open");
    Ok(to_pb(&row, &state.config.currency))
}

pub async fn get(state: &AppState, caller: &Caller, user_id: &str) -> Result<pb::Wallet> {
    let user = input::acting_for(caller, "user_id", user_id)?;
    let mut conn = state.conn().await?;
    let row = ledger::wallet(&mut conn, user)
        .await?
        .ok_or(WalletError::WalletNotFound)?;
    Ok(to_pb(&row, &state.config.currency))
}

/// Every user wallet, newest first (admins).
pub async fn list(
    state: &AppState,
    caller: &Caller,
    req: &pb::ListWalletsRequest,
) -> Result<pb::WalletPage> {
    caller.require_admin()?;
    let page = Page::parse(req.page, req.page_size)?;
    let mut conn = state.conn().await?;
    // Counted on the table: the view would add up every wallet's pending credits first.
    let total: i64 = wallets::table.count().get_result(&mut conn).await?;
    let rows: Vec<WalletRow> = wallet_balances::table
        .order((
            wallet_balances::created_at.desc(),
            wallet_balances::user_id.desc(),
        ))
        .limit(page.limit())
        .offset(page.offset())
        .select(WalletRow::as_select())
        .load(&mut conn)
        .await?;
    Ok(pb::WalletPage {
        total: input::total(total),
        page: page.number,
        page_size: page.size,
        wallets: rows
            .iter()
            .map(|r| to_pb(r, &state.config.currency))
            .collect(),
    })
}
