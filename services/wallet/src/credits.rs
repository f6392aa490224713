//! Money in from outside: crediting a settled recharge or an admin's top-up (transfer
//! world -> user and its `wallet.recharged` event, in the caller's transaction), admins'
//! top-ups themselves (each with its audit entry, in the same transaction), and the
//! records of both.

use chrono::Utc;
use diesel::prelude::*;
use diesel_async::scoped_futures::ScopedFutureExt;
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use quire_kit::audit::{self, AuditRecord};
use quire_kit::caller::Caller;
use quire_kit::events::{topics, types};
use quire_proto::events::v1 as ev;
use quire_proto::wallet::v1 as pb;
use uuid::Uuid;

use crate::db::rfc3339;
use crate::db::schema::top_ups;
use crate::db::top_up::{KIND_RECHARGE, KIND_TOP_UP, STATUS_SETTLED, TopUpRow};
use crate::error::{CommonErrors, Result, WalletError};
use crate::idempotency::{self, Key};
use crate::input::{self, Page};
use crate::ledger::{self, Account, Posting, TransferKind};
use crate::{AppState, SERVICE, SOURCE};

/// The record as the API shows it.
pub fn record(row: &TopUpRow) -> pb::TopUpRecord {
    pb::TopUpRecord {
        id: row.id.to_string(),
        user_id: row.user_id.to_string(),
        amount_cents: row.amount_cents,
        kind: row.kind.clone(),
        status: row.status.clone(),
        provider: row.provider.clone(),
        provider_ref: row.provider_ref.clone(),
        note: row.note.clone(),
        created_at: rfc3339(row.created_at),
        settled_at: row.settled_at.map(rfc3339).unwrap_or_default(),
        created_by: row.created_by.map(|u| u.to_string()).unwrap_or_default(),
    }
}

/// Moves a settled top-up's money (world -> user, opening the wallet when needed) as
/// transfer `row.transfer_id` and announces it; answers the user's new balance. Runs in
/// the transaction that marked the row settled, so it happens once.
pub async fn credit(conn: &mut AsyncPgConnection, row: &TopUpRow) -> Result<i64> {
    let transfer = row
        .transfer_id
        .ok_or_else(|| WalletError::internal(format!("top-up {} has no transfer", row.id)))?;
    let kind = if row.kind == KIND_RECHARGE {
        TransferKind::Recharge
    } else {
        TransferKind::TopUp
    };
    let balances = ledger::transfer(
        conn,
        transfer,
        kind,
        &row.note,
        &[
            Posting::new(Account::World, -row.amount_cents),
            Posting::new(Account::User(row.user_id), row.amount_cents),
        ],
    )
    .await?;
    let balance = balances.iter().map(|(_, b)| *b).next().unwrap_or_default();
    let event = ev::WalletRecharged {
        user_id: row.user_id.to_string(),
        top_up_id: row.id.to_string(),
        kind: row.kind.clone(),
        amount_cents: row.amount_cents,
        balance_cents: balance,
        settled_at: row.settled_at.map(rfc3339).unwrap_or_default(),
    };
    let key = row.user_id.to_string();
    quire_kit::outbox::enqueue(
        conn,
        topics::WALLET,
        &key,
        types::WALLET_RECHARGED,
        SOURCE,
        &event,
    )
    .await?;
    tracing::info!(top_up_id = %row.id, user_id = %row.user_id, amount_cents = row.amount_cents, kind = %row.kind, "wallet credited");
    Ok(balance)
}

/// An admin credits `user_id`'s wallet from outside (opening it when there is none).
pub async fn top_up(
    state: &AppState,
    caller: &Caller,
    req: &pb::TopUpRequest,
) -> Result<pb::TopUpRecord> {
    caller.require_admin()?;
    let user = input::acting_for(caller, "user_id", &req.user_id)?;
    let amount = input::amount(req.amount_cents)?;
    let note = input::text("note", &req.note)?;
    let fields = [user.to_string(), amount.to_string(), note.clone()];
    let key = Key::parse(
        caller.user_id(),
        &req.idempotency_key,
        "TopUp",
        &fields.each_ref().map(String::as_str),
    )?;
    let admin = caller.user_id();
    let mut conn = state.conn().await?;
    idempotency::run(&mut conn, key.as_ref(), |conn| {
        async move {
            let now = Utc::now();
            let row = TopUpRow {
                id: Uuid::now_v7(),
                user_id: user,
                amount_cents: amount,
                kind: KIND_TOP_UP.into(),
                status: STATUS_SETTLED.into(),
                provider: String::new(),
                provider_ref: String::new(),
                note,
                created_by: Some(admin),
                transfer_id: Some(Uuid::now_v7()),
                created_at: now,
                settled_at: Some(now),
            };
            diesel::insert_into(top_ups::table)
                .values(&row)
                .execute(conn)
                .await?;
            credit(conn, &row).await?;
            audit::record(
                conn,
                SERVICE,
                AuditRecord {
                    actor_id: admin,
                    action: "wallet.top_up",
                    target: format!("user:{user}"),
                    // JSON null: a top-up has no value before; after, {"amount_cents": n}.
                    before: Default::default(),
                    after: [("amount_cents", amount)].into_iter().collect(),
                },
            )
            .await?;
            Ok(record(&row))
        }
        .scope_boxed()
    })
    .await
    // The top-up wrote its event: the relay sends it now.
    .inspect(|_| state.outbox.wake())
}

/// Recharges and top-ups of one user (or of everyone, for an admin asking `all`), newest
/// first.
pub async fn list(
    state: &AppState,
    caller: &Caller,
    req: &pb::ListTopUpsRequest,
) -> Result<pb::TopUpPage> {
    let page = Page::parse(req.page, req.page_size)?;
    let user = input::whose(caller, req.all, &req.user_id)?;
    let query = || {
        let mut q = top_ups::table.into_boxed();
        if let Some(user) = user {
            q = q.filter(top_ups::user_id.eq(user));
        }
        q
    };
    let mut conn = state.conn().await?;
    let total: i64 = query().count().get_result(&mut conn).await?;
    let rows: Vec<TopUpRow> = query()
        .order((top_ups::created_at.desc(), top_ups::id.desc()))
        .limit(page.limit())
        .offset(page.offset())
        .select(TopUpRow::as_select())
        .load(&mut conn)
        .await?;
    Ok(pb::TopUpPage {
        total: input::total(total),
        page: page.number,
        page_size: page.size,
        records: rows.iter().map(record).collect(),
    })
}
