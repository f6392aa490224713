//! What the catalog keeps from other services' events, applied once each (quire-kit's
//! consumer records the event id in the same transaction): purchases from
//! `trade.completed` (who may read a whole book) and user names from `user.registered`.

use std::future::Future;
use std::pin::Pin;

use chrono::{DateTime, Utc};
use diesel::prelude::*;
use diesel::sql_types;
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use prost::Message;
use quire_kit::consumer::EventHandler;
use quire_kit::db::{DbError, prepared};
use quire_kit::events::{Event, types};
use quire_proto::events::v1 as ev;

use crate::db::purchase::PurchaseRow;
use crate::db::schema::user_names;
use crate::db::user_name::UserNameRow;

pub struct Projections;

impl EventHandler for Projections {
    fn handle<'a>(
        &'a self,
        conn: &'a mut AsyncPgConnection,
        event: &'a Event,
    ) -> Pin<Box<dyn Future<Output = Result<(), DbError>> + Send + 'a>> {
        Box::pin(async move {
            match event.event_type.as_str() {
                types::TRADE_COMPLETED => purchase(conn, event).await,
                types::USER_REGISTERED => user_name(conn, event).await,
                _ => Ok(()),
            }
        })
    }
}

/// Records a purchase; a second trade of the same book by the same buyer changes nothing.
async fn purchase(conn: &mut AsyncPgConnection, event: &Event) -> Result<(), DbError> {
    let Ok(trade) = ev::TradeCompleted::decode(event.data.as_slice()) else {
        tracing::warn!(event_id = %event.id, "undecodable trade event, skipped");
        return Ok(());
    };
    let (Some(trade_id), Some(user_id), Some(book_id)) = (
        event.id_field("trade_id", &trade.trade_id),
        event.id_field("buyer_uid", &trade.buyer_uid),
        event.id_field("book_id", &trade.book_id),
    ) else {
        return Ok(());
    };
    let purchased_at = DateTime::parse_from_rfc3339(&trade.completed_at)
        .map(|t| t.with_timezone(&Utc))
        .unwrap_or_else(|_| Utc::now());
    let added = record_purchase(
        conn,
        PurchaseRow {
            user_id,
            book_id,
            trade_id,
            price_cents: trade.price_cents,
            purchased_at,
        },
    )
    .await?;
    tracing::info!(%book_id, %trade_id, new = added, "purchase recorded");
    Ok(())
}

/// Adds a purchase unless it is there already (from the event or from asking the wallet,
/// whichever came first); returns whether it was new.
pub async fn record_purchase(
    conn: &mut AsyncPgConnection,
    row: PurchaseRow,
) -> Result<bool, DbError> {
    // A statement that stays prepared (see quire_kit::db::prepared): every trade.completed
    // comes here, and diesel would parse a derived INSERT afresh each time.
    let added = prepared(
        "INSERT INTO purchases (user_id, book_id, trade_id, price_cents, purchased_at) \
         VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING",
    )
    .bind::<sql_types::Uuid, _>(row.user_id)
    .bind::<sql_types::Uuid, _>(row.book_id)
    .bind::<sql_types::Uuid, _>(row.trade_id)
    .bind::<sql_types::BigInt, _>(row.price_cents)
    .bind::<sql_types::Timestamptz, _>(row.purchased_at)
    .execute(conn)
    .await?;
    Ok(added > 0)
}

async fn user_name(conn: &mut AsyncPgConnection, event: &Event) -> Result<(), DbError> {
    let Ok(user) = ev::UserRegistered::decode(event.data.as_slice()) else {
        tracing::warn!(event_id = %event.id, "undecodable user event, skipped");
        return Ok(());
    };
    let Some(user_id) = event.id_field("user_id", &user.user_id) else {
        return Ok(());
    };
    // A name Postgres would refuse must not stop the consumer.
    let username: String = crate::input::clean(user.username.trim())
        .chars()
        .take(100)
        .collect();
    diesel::insert_into(user_names::table)
        .values(UserNameRow {
            user_id,
            username: username.clone(),
        })
        .on_conflict(user_names::user_id)
        .do_update()
        .set(user_names::username.eq(username))
        .execute(conn)
        .await?;
    Ok(())
}
