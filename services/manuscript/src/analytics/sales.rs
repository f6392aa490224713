//! Every completed trade (`trade.completed`), kept once by its trade id: what a book sold
//! at, when, and what its seller got. A trade with a `campaign_id` is a crowd-funding
//! backer receiving the book for their pledge, not a sale at the book's price: it is kept
//! (marked) but neither calibration nor the sales figures count it, since the campaign's
//! payout is counted once, from its own event ([`super::campaigns`]).

use diesel::sql_types::{BigInt, Nullable, Timestamptz};
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use prost::Message;
use quire_kit::db::{DbError, prepared};
use quire_kit::events::Event;
use quire_proto::events::v1 as ev;

/// Records a trade; the same trade again (another event for it) changes nothing. A new
/// sale moves the versions of its book's genre and of all genres together (see
/// [`super::observations`]); a backer's trade moves nothing, as calibration skips it.
pub async fn apply(conn: &mut AsyncPgConnection, event: &Event) -> Result<(), DbError> {
    let Ok(trade) = ev::TradeCompleted::decode(event.data.as_slice()) else {
        tracing::warn!(event_id = %event.id, "undecodable trade event, skipped");
        return Ok(());
    };
    let (Some(trade_id), Some(book_id), Some(seller_id)) = (
        event.id_field("trade_id", &trade.trade_id),
        event.id_field("book_id", &trade.book_id),
        event.id_field("seller_uid", &trade.seller_uid),
    ) else {
        return Ok(());
    };
    let campaign_id = event.opt_id_field("campaign_id", &trade.campaign_id);
    if campaign_id.is_none() && !trade.campaign_id.trim().is_empty() {
        // Unreadable, yet certainly a backer's trade: never count it as a sale.
        return Ok(());
    }
    prepared(
        "WITH added AS ( \
           INSERT INTO sales (trade_id, book_id, seller_id, price_cents, seller_cents, \
                              campaign_id, completed_at) \
           VALUES ($1, $2, $3, $4, $5, $6, $7) \
           ON CONFLICT (trade_id) DO NOTHING \
           RETURNING book_id, campaign_id) \
         INSERT INTO genre_versions (genre, version) \
         SELECT g.genre, 1 FROM added, \
           LATERAL (SELECT lower(b.genre) AS genre FROM shop_books b WHERE b.book_id = added.book_id \
                    UNION SELECT '') g \
         WHERE added.campaign_id IS NULL \
         ON CONFLICT (genre) DO UPDATE SET version = genre_versions.version + 1",
    )
    .bind::<diesel::sql_types::Uuid, _>(trade_id)
    .bind::<diesel::sql_types::Uuid, _>(book_id)
    .bind::<diesel::sql_types::Uuid, _>(seller_id)
    .bind::<BigInt, _>(trade.price_cents)
    .bind::<BigInt, _>(trade.seller_cents)
    .bind::<Nullable<diesel::sql_types::Uuid>, _>(campaign_id)
    .bind::<Timestamptz, _>(event.time_field(&trade.completed_at))
    .execute(conn)
    .await?;
    Ok(())
}
