//! Pledging: in one transaction the backer's money moves to the campaign's escrow (a
//! transfer `pledge`), the pledge is written, and the idempotency answer with them; 402
//! when the wallet holds too little (a refusal the key remembers, as for Consume).
//!
//! Only a backer who may see the campaign's book may pledge (as catalog says, asked
//! first). The campaign row is held FOR SHARE meanwhile: pledges do not wait on one another, a
//! settlement (FOR UPDATE) waits for every pledge in flight, and a pledge that comes after
//! it reads the campaign settled and is refused, so no pledge is left in an escrow that
//! was already paid out.

use chrono::Utc;
use diesel::prelude::*;
use diesel_async::scoped_futures::ScopedFutureExt;
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use quire_kit::caller::Caller;
use quire_proto::wallet::v1 as pb;
use uuid::Uuid;

use super::{to_pb, totals_of};
use crate::db::campaign::CampaignRow;
use crate::db::pledge::PledgeRow;
use crate::db::rfc3339;
use crate::db::schema::{campaigns, pledges};
use crate::error::{CommonErrors, Result, WalletError};
use crate::idempotency::{self, Key};
use crate::ledger::{self, Account, Posting, TransferKind};
use crate::{AppState, input, wallet_view};

/// Campaign `id`, held FOR SHARE until the caller's transaction ends.
async fn hold(conn: &mut AsyncPgConnection, id: Uuid) -> Result<CampaignRow> {
    campaigns::table
        .find(id)
        .select(CampaignRow::as_select())
        .for_share()
        .first(conn)
        .await
        .optional()?
        .ok_or_else(|| WalletError::not_found("Campaign"))
}

/// The caller pledges `amount_cents` to a campaign that is open and before its deadline.
pub async fn pledge(
    state: &AppState,
    caller: &Caller,
    req: &pb::PledgeRequest,
) -> Result<pb::PledgeReply> {
    let campaign = input::uuid("campaign_id", &req.campaign_id)?;
    let amount = input::amount(req.amount_cents)?;
    let backer = caller.user_id();
    let fields = [campaign.to_string(), amount.to_string()];
    let key = Key::parse(
        backer,
        &req.idempotency_key,
        "Pledge",
        &fields.each_ref().map(String::as_str),
    )?;
    let currency = state.config.currency.as_str();
    let mut conn = state.conn().await?;
    // A finished retry is answered whatever catalog says now; a new pledge only goes to a
    // campaign whose book the backer may see.
    if let Some(key) = &key
        && let Some(earlier) = idempotency::lookup(&mut conn, key).await?
        && let Some(answer) = idempotency::replay(earlier)
    {
        return answer;
    }
    let book = super::find(&mut conn, campaign)
        .await?
        .ok_or_else(|| WalletError::not_found("Campaign"))?
        .book_id;
    super::ensure_visible(state, Some(caller), book).await?;
    idempotency::run(&mut conn, key.as_ref(), |conn| {
        async move {
            let row = hold(conn, campaign).await?;
            let now = Utc::now();
            if !row.is_open() || now >= row.deadline {
                return Err(WalletError::CampaignClosed);
            }
            if row.writer_uid == backer {
                return Err(WalletError::OwnCampaign);
            }
            let pledge = PledgeRow {
                id: Uuid::now_v7(),
                campaign_id: campaign,
                backer_uid: backer,
                amount_cents: amount,
                transfer_id: Uuid::now_v7(),
                created_at: now,
            };
            // The entries and the pledge first, the backer's wallet (the row this locks)
            // last, so it is held through as few statements as possible.
            let transfer = ledger::record(
                conn,
                pledge.transfer_id,
                TransferKind::Pledge,
                &row.title,
                &[
                    Posting::new(Account::User(backer), -amount),
                    Posting::new(Account::Escrow(campaign), amount),
                ],
            )
            .await?
            // A backer without a wallet has a balance of 0.
            .without_wallet_no_money();
            diesel::insert_into(pledges::table)
                .values(&pledge)
                .execute(conn)
                .await?;
            transfer.settle(conn).await?;
            let wallet = ledger::wallet(conn, backer)
                .await?
                .ok_or(WalletError::WalletNotFound)?;
            let totals = totals_of(conn, campaign, Some(backer)).await?;
            tracing::info!(campaign_id = %campaign, backer_uid = %backer, amount_cents = amount, pledge_id = %pledge.id, "pledged");
            metrics::counter!("quire_wallet_pledges_total").increment(1);
            Ok(pb::PledgeReply {
                pledge_id: pledge.id.to_string(),
                amount_cents: amount,
                created_at: rfc3339(pledge.created_at),
                campaign: Some(to_pb(&row, &totals)),
                wallet: Some(wallet_view::to_pb(&wallet, currency)),
            })
        }
        .scope_boxed()
    })
    .await
}
