//! Invite rewards, fed by events: `user.registered` (who invited whom) and
//! `trade.completed` (a purchase). An invitation alone pays nothing, or every throwaway
//! account registered with a code would pay its inviter. The inviter is paid the rewards
//! (the registration reward, then the first-purchase reward, from the `promotions`
//! account) out of what the invitee *paid*: the prices of their priced purchases each made
//! at a time when the recharges they had settled through the payment provider already
//! totalled at least its price (`settled_at <= created_at`), and never more than those
//! recharges. Money from an admin's top-up, a reward or a sale never counts, a free book
//! is no purchase, a purchase made before the recharge settled does not count (a later
//! one does), and neither does a purchase of the inviter's own book: a writer inviting
//! throwaway accounts that each buy their cheapest book would get 90% of each payment
//! back as the sale and the rewards on top.
//!
//! The rewards are never worth more than that: each is paid, whole, once what the invitee
//! paid covers it and the rewards before it (1.00 at a purchase of 1.49, the 2.00 more
//! once their purchases reach 3.00), so an account made to buy the cheapest book pays its
//! inviter less than it cost.
//!
//! The rule reads only the wallet's own rows (`trades`, `top_ups`), never what an event
//! says about money, and a trade or a settled recharge never changes: so both handlers ask
//! the same question ([`Rewards::settle`]) and get the same answer whatever order the
//! events come in and however often they repeat. UNIQUE(invitee_id, reason) makes each
//! reward once.

use std::future::Future;
use std::pin::Pin;

use chrono::Utc;
use diesel::OptionalExtension;
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Text};
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
use crate::db::schema::{invitations, rewards};
use crate::db::top_up::{KIND_RECHARGE, STATUS_SETTLED};
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
            event.id_field("user_id", &user.user_id),
            event.id_field("invited_by", &user.invited_by),
        ) else {
            return Ok(());
        };
        if invitee == inviter {
            return Ok(());
        }
        lock_invitee(conn, invitee).await?;
        // A repeated event cannot change who invited whom: the first word stands.
        diesel::insert_into(invitations::table)
            .values(NewInvitation {
                invitee_id: invitee,
                inviter_id: inviter,
            })
            .on_conflict_do_nothing()
            .execute(conn)
            .await?;
        // The invitee may have qualified before this event arrived.
        self.settle(conn, invitee).await
    }

    async fn traded(&self, conn: &mut AsyncPgConnection, event: &Event) -> Result<()> {
        let Ok(trade) = ev::TradeCompleted::decode(event.data.as_slice()) else {
            tracing::warn!(event_id = %event.id, "undecodable trade event, skipped");
            return Ok(());
        };
        // A free book qualifies nobody; the price itself is read from the trade's row.
        if trade.price_cents <= 0 {
            return Ok(());
        }
        let Some(buyer) = event.id_field("buyer_uid", &trade.buyer_uid) else {
            return Ok(());
        };
        lock_invitee(conn, buyer).await?;
        self.settle(conn, buyer).await
    }

    /// Pays `invitee`'s inviter both rewards if the invitee was invited and qualifies
    /// (see the module's notes); a no-op for anyone else and for rewards paid already.
    async fn settle(&self, conn: &mut AsyncPgConnection, invitee: Uuid) -> Result<()> {
        // Not invited, or its user.registered has not arrived: that handler settles then.
        let Some(inviter) = invitations::table
            .find(invitee)
            .select(invitations::inviter_id)
            .first::<Uuid>(conn)
            .await
            .optional()?
        else {
            return Ok(());
        };
        let steps = [
            (REASON_REGISTERED, self.registered_cents),
            (REASON_FIRST_PURCHASE, self.first_purchase_cents),
        ];
        let due = steps.iter().filter(|(_, cents)| *cents > 0).count();
        let paid: i64 = rewards::table
            .filter(rewards::invitee_id.eq(invitee))
            .count()
            .get_result(conn)
            .await?;
        // Every later purchase of a rewarded invitee comes here: spare it the question.
        if usize::try_from(paid).unwrap_or_default() >= due {
            return Ok(());
        }
        let covered = paid_cents(conn, invitee, inviter).await?;
        // In order, each once what the invitee paid covers it and the ones before it.
        let mut owed = 0;
        for (reason, cents) in steps.into_iter().filter(|(_, cents)| *cents > 0) {
            owed += cents;
            if covered < owed {
                break;
            }
            pay(conn, inviter, invitee, reason, cents).await?;
        }
        Ok(())
    }
}

/// What [`paid_cents`] answers.
#[derive(QueryableByName)]
struct Paid {
    #[diesel(sql_type = BigInt)]
    paid_cents: i64,
}

/// What `user` paid with their own money, in cents: the prices of their priced purchases
/// that the recharges they had settled through the payment provider by then covered, and
/// at most all those recharges together. Only money that came from the user's own payment
/// counts: not an admin's top-up (kind `top_up`), a reward or a sale (no top-up at all),
/// nor a recharge still pending or failed. The price is what the buyer paid (a trade
/// debits exactly its price). A purchase made before a recharge settled does not count,
/// as it was paid with other money; a later purchase does. A book `inviter` sells does
/// not count.
async fn paid_cents(conn: &mut AsyncPgConnection, user: Uuid, inviter: Uuid) -> Result<i64> {
    let answer: Paid = diesel::sql_query(
        "SELECT LEAST( \
           (SELECT COALESCE(sum(t.price_cents), 0) FROM trades t \
            WHERE t.buyer_uid = $1 AND t.price_cents > 0 AND t.seller_uid <> $4 \
              AND t.price_cents <= ( \
                SELECT COALESCE(sum(r.amount_cents), 0) FROM top_ups r \
                WHERE r.user_id = t.buyer_uid AND r.kind = $2 AND r.status = $3 \
                  AND r.settled_at <= t.created_at)), \
           (SELECT COALESCE(sum(r.amount_cents), 0) FROM top_ups r \
            WHERE r.user_id = $1 AND r.kind = $2 AND r.status = $3) \
         )::bigint AS paid_cents",
    )
    .bind::<diesel::sql_types::Uuid, _>(user)
    .bind::<Text, _>(KIND_RECHARGE)
    .bind::<Text, _>(STATUS_SETTLED)
    .bind::<diesel::sql_types::Uuid, _>(inviter)
    .get_result(conn)
    .await?;
    Ok(answer.paid_cents)
}

/// Both handlers of one invitee take this lock first, so that with two replicas handling
/// the two events at once, the later one sees what the earlier one wrote.
async fn lock_invitee(conn: &mut AsyncPgConnection, invitee: Uuid) -> Result<()> {
    // Prepared once per connection: every trade.completed takes this lock.
    prepared("SELECT pg_advisory_xact_lock(hashtextextended('wallet.rewards.' || $1, 0))")
        .bind::<Text, _>(invitee.to_string())
        .execute(conn)
        .await?;
    Ok(())
}

/// Pays `inviter` for `invitee`'s step `reason` unless it was paid before.
async fn pay(
    conn: &mut AsyncPgConnection,
    inviter: Uuid,
    invitee: Uuid,
    reason: &str,
    amount: i64,
) -> Result<()> {
    if amount <= 0 {
        return Ok(());
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
        return Ok(());
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
    Ok(())
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
