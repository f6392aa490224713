//! Invite rewards, fed by events: `user.registered` (who invited whom) and
//! `trade.completed` (a purchase). The inviter is paid, from the `promotions` account,
//! once when the invited user registers and once on their first priced purchase; the
//! events may come in either order, so each handler also looks for what the other one
//! would have seen. UNIQUE(invitee_id, reason) makes each reward once, whatever repeats.

use std::future::Future;
use std::pin::Pin;

use chrono::Utc;
use diesel::OptionalExtension;
use diesel::prelude::*;
use diesel::sql_types::BigInt;
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use prost::Message;
use quire_kit::caller::Caller;
use quire_kit::consumer::EventHandler;
use quire_kit::db::{DbError, prepared};
use quire_kit::events::{Event, types};
use quire_proto::events::v1 as ev;
use quire_proto::wallet::v1 as pb;
use uuid::Uuid;

use crate::AppState;
use crate::db::invitation::NewInvitation;
use crate::db::reward::{REASON_FIRST_PURCHASE, REASON_REGISTERED, RewardRow};
use crate::db::rfc3339;
use crate::db::schema::{invitations, rewards, trades};
use crate::error::Result;
use crate::input::{self, Page};
use crate::ledger::{self, Account, Posting, TransferKind};

/// The consumer's handler, with the amounts of the configuration.
pub struct Rewards {
    pub registered_cents: i64,
    pub first_purchase_cents: i64,
}

impl EventHandler for Rewards {
    fn handle<'a>(
        &'a self,
        conn: &'a mut AsyncPgConnection,
        event: &'a Event,
    ) -> Pin<Box<dyn Future<Output = Result<(), DbError>> + Send + 'a>> {
        Box::pin(async move {
            let done = match event.event_type.as_str() {
                types::USER_REGISTERED => self.registered(conn, event).await,
                types::TRADE_COMPLETED => self.traded(conn, event).await,
                _ => Ok(()),
            };
            done.map_err(DbError::from)
        })
    }
}

fn id(field: &str, value: &str, event: &Event) -> Option<Uuid> {
    let parsed = Uuid::parse_str(value).ok();
    if parsed.is_none() {
        tracing::warn!(event_id = %event.id, field, "event names no valid id, skipped");
    }
    parsed
}

impl Rewards {
    async fn registered(&self, conn: &mut AsyncPgConnection, event: &Event) -> Result<()> {
        let Ok(user) = ev::UserRegistered::decode(event.data.as_slice()) else {
            tracing::warn!(event_id = %event.id, "undecodable user event, skipped");
            return Ok(());
        };
        if user.invited_by.is_empty() {
            return Ok(());
        }
        let (Some(invitee), Some(inviter)) = (
            id("user_id", &user.user_id, event),
            id("invited_by", &user.invited_by, event),
        ) else {
            return Ok(());
        };
        if invitee == inviter {
            return Ok(());
        }
        lock_invitee(conn, invitee).await?;
        diesel::insert_into(invitations::table)
            .values(NewInvitation {
                invitee_id: invitee,
                inviter_id: inviter,
            })
            .on_conflict_do_nothing()
            .execute(conn)
            .await?;
        // A repeated event cannot change who invited whom: the first word stands.
        let inviter: Uuid = invitations::table
            .find(invitee)
            .select(invitations::inviter_id)
            .first(conn)
            .await?;
        pay(
            conn,
            inviter,
            invitee,
            REASON_REGISTERED,
            self.registered_cents,
        )
        .await?;
        // The invitee may have bought a book before this event arrived.
        let bought: bool = diesel::select(diesel::dsl::exists(
            trades::table
                .filter(trades::buyer_uid.eq(invitee))
                .filter(trades::price_cents.gt(0)),
        ))
        .get_result(conn)
        .await?;
        if bought {
            pay(
                conn,
                inviter,
                invitee,
                REASON_FIRST_PURCHASE,
                self.first_purchase_cents,
            )
            .await?;
        }
        Ok(())
    }

    async fn traded(&self, conn: &mut AsyncPgConnection, event: &Event) -> Result<()> {
        let Ok(trade) = ev::TradeCompleted::decode(event.data.as_slice()) else {
            tracing::warn!(event_id = %event.id, "undecodable trade event, skipped");
            return Ok(());
        };
        if trade.price_cents <= 0 {
            return Ok(());
        }
        let Some(buyer) = id("buyer_uid", &trade.buyer_uid, event) else {
            return Ok(());
        };
        lock_invitee(conn, buyer).await?;
        // Not invited, or its user.registered has not arrived: that handler pays then.
        let inviter: Option<Uuid> = invitations::table
            .find(buyer)
            .select(invitations::inviter_id)
            .first(conn)
            .await
            .optional()?;
        if let Some(inviter) = inviter {
            pay(
                conn,
                inviter,
                buyer,
                REASON_FIRST_PURCHASE,
                self.first_purchase_cents,
            )
            .await?;
        }
        Ok(())
    }
}

/// Both handlers of one invitee take this lock first, so that with two replicas handling
/// the two events at once, the later one sees what the earlier one wrote.
async fn lock_invitee(conn: &mut AsyncPgConnection, invitee: Uuid) -> Result<()> {
    // Prepared once per connection: every trade.completed takes this lock.
    prepared("SELECT pg_advisory_xact_lock(hashtextextended('wallet.rewards.' || $1, 0))")
        .bind::<diesel::sql_types::Text, _>(invitee.to_string())
        .execute(conn)
        .await?;
    Ok(())
}

/// Pays `inviter` for `invitee`'s step `reason` unless it was paid before; answers
/// whether it paid now.
async fn pay(
    conn: &mut AsyncPgConnection,
    inviter: Uuid,
    invitee: Uuid,
    reason: &str,
    amount: i64,
) -> Result<bool> {
    if amount <= 0 {
        return Ok(false);
    }
    let row = RewardRow {
        id: Uuid::now_v7(),
        inviter_id: inviter,
        invitee_id: invitee,
        reason: reason.to_owned(),
        amount_cents: amount,
        transfer_id: Uuid::now_v7(),
        created_at: Utc::now(),
    };
    let inserted = diesel::insert_into(rewards::table)
        .values(&row)
        .on_conflict((rewards::invitee_id, rewards::reason))
        .do_nothing()
        .execute(conn)
        .await?;
    if inserted == 0 {
        return Ok(false);
    }
    ledger::transfer(
        conn,
        row.transfer_id,
        TransferKind::Reward,
        reason,
        &[
            Posting::new(Account::Promotions, -amount),
            Posting::new(Account::User(inviter), amount),
        ],
    )
    .await?;
    tracing::info!(inviter_id = %inviter, invitee_id = %invitee, reason, amount_cents = amount, "invite reward paid");
    Ok(true)
}

fn to_pb(row: &RewardRow) -> pb::Reward {
    pb::Reward {
        reward_id: row.id.to_string(),
        user_id: row.inviter_id.to_string(),
        invitee_id: row.invitee_id.to_string(),
        reason: row.reason.clone(),
        amount_cents: row.amount_cents,
        created_at: rfc3339(row.created_at),
    }
}

/// Rewards paid to a user, newest first, with the sum of all of them.
pub async fn list(
    state: &AppState,
    caller: &Caller,
    req: &pb::ListRewardsRequest,
) -> Result<pb::RewardPage> {
    let user = input::acting_for(caller, "user_id", &req.user_id)?;
    let page = Page::parse(req.page, req.page_size)?;
    let mut conn = state.conn().await?;
    let mine = rewards::table.filter(rewards::inviter_id.eq(user));
    let (total, total_cents): (i64, i64) = mine
        .select((
            diesel::dsl::count_star(),
            diesel::dsl::sql::<BigInt>("COALESCE(sum(amount_cents), 0)::bigint"),
        ))
        .first(&mut conn)
        .await?;
    let rows: Vec<RewardRow> = mine
        .order((rewards::created_at.desc(), rewards::id.desc()))
        .limit(page.limit())
        .offset(page.offset())
        .select(RewardRow::as_select())
        .load(&mut conn)
        .await?;
    Ok(pb::RewardPage {
        total: input::total(total),
        page: page.number,
        page_size: page.size,
        total_cents,
        rewards: rows.iter().map(to_pb).collect(),
    })
}
