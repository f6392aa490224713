//! Settling a campaign, once: in ONE transaction that holds the campaign row FOR UPDATE
//! (so the pledges in flight finish first and later ones find it settled), the escrow is
//! paid out or back, the row is marked settled and the events are written. A process
//! killed in the middle rolls all of it back and leaves the campaign open, for a repeated
//! close or the sweeper to settle from scratch; a campaign found settled is answered as
//! it is.
//!
//! Funded (the pledges reach the goal): one transfer `campaign_payout` takes the escrow to
//! the writer (per backer, the floor of the share of their pledges' sum, as a trade would
//! split it, at the seller's share the settlement's transaction reads from the settings) and to the platform (the rest); every backer gets a trade of the book at the
//! price of their pledges, paid by that transfer, with its `trade.completed` (a backer who
//! bought the book before keeps their first trade, and their pledge still pays the
//! writer). Failed: one transfer `campaign_refund` pays every backer their pledges back.
//!
//! A campaign may have thousands of backers: every step is a statement for all of them
//! (the entries, the refunds' credits, the trades), none a statement per backer, and the
//! events go out in pipelined flights.

use std::collections::HashSet;

use chrono::{DateTime, Utc};
use diesel::prelude::*;
use diesel::sql_types::{self, Array, BigInt, Text, Timestamptz};
use diesel_async::scoped_futures::ScopedFutureExt;
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use futures::future::join_all;
use quire_kit::caller::Caller;
use quire_kit::events::{topics, types};
use quire_proto::events::v1 as ev;
use quire_proto::wallet::v1 as pb;
use uuid::Uuid;

use super::{answer, find};
use crate::db::campaign::{CampaignRow, STATUS_FAILED, STATUS_FUNDED};
use crate::db::rfc3339;
use crate::db::schema::campaigns;
use crate::db::trade::TradeRow;
use crate::error::{CommonErrors, Result, WalletError};
use crate::ledger::{self, Account, Posting, TransferKind};
use crate::settings::SellerShare;
use crate::trades::{completed, split};
use crate::{AppState, SOURCE, input};

/// Events written per round trip (see `quire_kit::db`, *Pipelining*).
const EVENTS_PER_FLIGHT: usize = 1_000;

/// What one backer pledged to the campaign, all pledges together.
#[derive(Debug, Clone, Copy, QueryableByName)]
struct Backer {
    #[diesel(sql_type = sql_types::Uuid)]
    backer_uid: Uuid,
    #[diesel(sql_type = BigInt)]
    cents: i64,
}

/// A trade row that was written (not a backer's earlier purchase).
#[derive(QueryableByName)]
struct Written {
    #[diesel(sql_type = sql_types::Uuid)]
    id: Uuid,
}

/// The campaign as a settlement left it.
#[derive(Debug, Clone)]
pub struct Settlement {
    pub campaign: CampaignRow,
    /// Settled by this call (not found settled).
    pub now: bool,
}

/// The writer (or an admin) settles their campaign now; anyone else is refused (403).
pub async fn close(
    state: &AppState,
    caller: &Caller,
    req: &pb::CloseCampaignRequest,
) -> Result<pb::Campaign> {
    let id = input::uuid("campaign_id", &req.campaign_id)?;
    let mut conn = state.conn().await?;
    let row = find(&mut conn, id)
        .await?
        .ok_or_else(|| WalletError::not_found("Campaign"))?;
    if row.writer_uid != caller.user_id() && !caller.is_admin() {
        return Err(WalletError::forbidden(
            "Only the campaign's writer may close it",
        ));
    }
    settle_and_tell(state, &mut conn, id).await?;
    answer(&mut conn, id, Some(caller.user_id())).await
}

/// [`settle`], then the outbox relay and the folder are told of what it committed.
pub async fn settle_and_tell(
    state: &AppState,
    conn: &mut AsyncPgConnection,
    id: Uuid,
) -> Result<Settlement> {
    let settled = settle(conn, id, state.config.seller_share_percent).await?;
    if settled.now {
        state.outbox.wake();
        state.folder.ring();
    }
    Ok(settled)
}

/// Settles campaign `id` in one transaction (see the module's notes); answers it as it
/// was found when it was settled already. 404 for an unknown campaign. A funded campaign
/// pays the writer the seller's share set now (`default_share` while no admin set one).
pub async fn settle(
    conn: &mut AsyncPgConnection,
    id: Uuid,
    default_share: u8,
) -> Result<Settlement> {
    let started = std::time::Instant::now();
    let settled = conn
        .transaction::<Settlement, WalletError, _>(|conn| {
            async move {
                let row: CampaignRow = campaigns::table
                    .find(id)
                    .select(CampaignRow::as_select())
                    .for_update()
                    .first(conn)
                    .await
                    .optional()?
                    .ok_or_else(|| WalletError::not_found("Campaign"))?;
                if !row.is_open() {
                    return Ok(Settlement {
                        campaign: row,
                        now: false,
                    });
                }
                let backers: Vec<Backer> = diesel::sql_query(
                    "SELECT backer_uid, sum(amount_cents)::bigint AS cents FROM pledges \
                     WHERE campaign_id = $1 GROUP BY backer_uid ORDER BY backer_uid",
                )
                .bind::<sql_types::Uuid, _>(id)
                .load(conn)
                .await?;
                let pledged = backers
                    .iter()
                    .try_fold(0i64, |sum, b| sum.checked_add(b.cents))
                    .ok_or_else(|| WalletError::internal(format!("campaign {id} overflows")))?;
                let escrow = ledger::balance(conn, Account::Escrow(id)).await?;
                if escrow != pledged {
                    // Every pledge moved its amount into the escrow in its own
                    // transaction, and nothing else moves it: roll back, move nothing.
                    return Err(WalletError::internal(format!(
                        "campaign {id}: escrow holds {escrow} cents, pledges sum to {pledged}"
                    )));
                }
                let now = Utc::now();
                let campaign = if pledged >= row.goal_cents {
                    let share = SellerShare::new(default_share).read(conn).await?;
                    pay_out(conn, &row, &backers, pledged, share, now).await?
                } else {
                    pay_back(conn, &row, &backers, pledged, now).await?
                };
                Ok(Settlement {
                    campaign,
                    now: true,
                })
            }
            .scope_boxed()
        })
        .await?;
    if settled.now {
        let c = &settled.campaign;
        metrics::counter!("quire_wallet_campaigns_settled_total", "status" => c.status.clone())
            .increment(1);
        tracing::info!(campaign_id = %c.id, status = %c.status, writer_cents = c.writer_cents, platform_cents = c.platform_cents, elapsed_ms = started.elapsed().as_millis() as u64, "campaign settled");
    }
    Ok(settled)
}

/// Funded: the escrow to the writer and the platform, a trade per backer.
async fn pay_out(
    conn: &mut AsyncPgConnection,
    row: &CampaignRow,
    backers: &[Backer],
    pledged: i64,
    share_percent: u8,
    now: DateTime<Utc>,
) -> Result<CampaignRow> {
    let transfer = Uuid::now_v7();
    let trades: Vec<TradeRow> = backers
        .iter()
        .map(|b| {
            let (seller_cents, platform_cents) = split(b.cents, share_percent);
            TradeRow {
                id: Uuid::now_v7(),
                buyer_uid: b.backer_uid,
                book_id: row.book_id,
                seller_uid: row.writer_uid,
                title: row.title.clone(),
                price_cents: b.cents,
                seller_cents,
                platform_cents,
                transfer_id: Some(transfer),
                created_at: now,
                campaign_id: Some(row.id),
            }
        })
        .collect();
    let writer_cents: i64 = trades.iter().map(|t| t.seller_cents).sum();
    let platform_cents = pledged - writer_cents;
    // The writer's part is a pending credit (see the ledger): no wallet row is locked.
    ledger::transfer(
        conn,
        transfer,
        TransferKind::CampaignPayout,
        &row.title,
        &[
            Posting::new(Account::Escrow(row.id), -pledged),
            Posting::new(Account::User(row.writer_uid), writer_cents),
            Posting::new(Account::Platform, platform_cents),
        ],
    )
    .await?;
    let written = insert_trades(conn, &trades).await?;
    let announced: Vec<&TradeRow> = trades.iter().filter(|t| written.contains(&t.id)).collect();
    announce_trades(conn, &announced).await?;
    let campaign = mark(
        conn,
        row.id,
        STATUS_FUNDED,
        now,
        writer_cents,
        platform_cents,
        Some(transfer),
    )
    .await?;
    let event = ev::CampaignFunded {
        campaign: Some(settled_event(&campaign, pledged, backers.len())),
    };
    let key = campaign.id.to_string();
    quire_kit::outbox::enqueue(
        conn,
        topics::CAMPAIGN,
        &key,
        types::CAMPAIGN_FUNDED,
        SOURCE,
        &event,
    )
    .await?;
    Ok(campaign)
}

/// Failed: every backer's pledges back from the escrow (nothing moves without pledges).
async fn pay_back(
    conn: &mut AsyncPgConnection,
    row: &CampaignRow,
    backers: &[Backer],
    pledged: i64,
    now: DateTime<Utc>,
) -> Result<CampaignRow> {
    let transfer = (pledged > 0).then(Uuid::now_v7);
    if let Some(transfer) = transfer {
        let postings: Vec<Posting> =
            std::iter::once(Posting::new(Account::Escrow(row.id), -pledged))
                .chain(
                    backers
                        .iter()
                        .map(|b| Posting::new(Account::User(b.backer_uid), b.cents)),
                )
                .collect();
        // Credits only, one statement for every backer; each wallet shows its refund at
        // once (`wallet_balances`), the folder takes it into the row later.
        ledger::record(
            conn,
            transfer,
            TransferKind::CampaignRefund,
            &row.title,
            &postings,
        )
        .await?
        .settle_credits(conn)
        .await?;
    }
    let campaign = mark(conn, row.id, STATUS_FAILED, now, 0, 0, transfer).await?;
    let event = ev::CampaignFailed {
        campaign: Some(settled_event(&campaign, pledged, backers.len())),
    };
    let key = campaign.id.to_string();
    quire_kit::outbox::enqueue(
        conn,
        topics::CAMPAIGN,
        &key,
        types::CAMPAIGN_FAILED,
        SOURCE,
        &event,
    )
    .await?;
    Ok(campaign)
}

/// Marks the campaign settled with what it paid.
async fn mark(
    conn: &mut AsyncPgConnection,
    id: Uuid,
    status: &str,
    now: DateTime<Utc>,
    writer_cents: i64,
    platform_cents: i64,
    transfer: Option<Uuid>,
) -> Result<CampaignRow> {
    Ok(diesel::update(campaigns::table.find(id))
        .set((
            campaigns::status.eq(status),
            campaigns::settled_at.eq(now),
            campaigns::writer_cents.eq(writer_cents),
            campaigns::platform_cents.eq(platform_cents),
            campaigns::transfer_id.eq(transfer),
        ))
        .returning(CampaignRow::as_returning())
        .get_result(conn)
        .await?)
}

/// Writes the backers' trades in one statement; answers the ids of those written (a
/// backer who had bought the book keeps their first trade).
async fn insert_trades(conn: &mut AsyncPgConnection, rows: &[TradeRow]) -> Result<HashSet<Uuid>> {
    let Some(first) = rows.first() else {
        return Ok(HashSet::new());
    };
    let written: Vec<Written> = diesel::sql_query(
        "INSERT INTO trades (id, buyer_uid, book_id, seller_uid, title, price_cents, \
           seller_cents, platform_cents, transfer_id, created_at, campaign_id) \
         SELECT u.id, u.buyer_uid, $6, $7, $8, u.price_cents, u.seller_cents, u.platform_cents, \
           $9, $10, $11 \
         FROM unnest($1, $2, $3, $4, $5) \
           AS u(id, buyer_uid, price_cents, seller_cents, platform_cents) \
         ON CONFLICT (buyer_uid, book_id) DO NOTHING RETURNING id",
    )
    .bind::<Array<sql_types::Uuid>, _>(rows.iter().map(|r| r.id).collect::<Vec<_>>())
    .bind::<Array<sql_types::Uuid>, _>(rows.iter().map(|r| r.buyer_uid).collect::<Vec<_>>())
    .bind::<Array<BigInt>, _>(rows.iter().map(|r| r.price_cents).collect::<Vec<_>>())
    .bind::<Array<BigInt>, _>(rows.iter().map(|r| r.seller_cents).collect::<Vec<_>>())
    .bind::<Array<BigInt>, _>(rows.iter().map(|r| r.platform_cents).collect::<Vec<_>>())
    .bind::<sql_types::Uuid, _>(first.book_id)
    .bind::<sql_types::Uuid, _>(first.seller_uid)
    .bind::<Text, _>(&first.title)
    .bind::<sql_types::Nullable<sql_types::Uuid>, _>(first.transfer_id)
    .bind::<Timestamptz, _>(first.created_at)
    .bind::<sql_types::Nullable<sql_types::Uuid>, _>(first.campaign_id)
    .load(conn)
    .await?;
    Ok(written.into_iter().map(|w| w.id).collect())
}

/// A `trade.completed` for each trade written, in flights of [`EVENTS_PER_FLIGHT`].
async fn announce_trades(conn: &mut AsyncPgConnection, rows: &[&TradeRow]) -> Result<()> {
    let events: Vec<(String, ev::TradeCompleted)> = rows
        .iter()
        .map(|row| (row.id.to_string(), completed(row)))
        .collect();
    for flight in events.chunks(EVENTS_PER_FLIGHT) {
        let inserts: Vec<_> = flight
            .iter()
            .map(|(key, event)| {
                quire_kit::outbox::enqueue_statement(
                    conn,
                    topics::TRADE,
                    key,
                    types::TRADE_COMPLETED,
                    SOURCE,
                    event,
                )
                .1
            })
            .collect();
        for inserted in join_all(inserts).await {
            inserted?;
        }
    }
    Ok(())
}

/// What the campaign's event says of it.
fn settled_event(row: &CampaignRow, pledged: i64, backers: usize) -> ev::CampaignSettled {
    ev::CampaignSettled {
        campaign_id: row.id.to_string(),
        book_id: row.book_id.to_string(),
        writer_uid: row.writer_uid.to_string(),
        goal_cents: row.goal_cents,
        pledged_cents: pledged,
        backers: u32::try_from(backers).unwrap_or(u32::MAX),
        writer_cents: row.writer_cents,
        platform_cents: row.platform_cents,
        settled_at: row.settled_at.map(rfc3339).unwrap_or_default(),
    }
}
