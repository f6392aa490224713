//! Settled crowd-funding campaigns (`quire.campaign.v1`), kept once by campaign id: a
//! funded campaign's payout to its writer is money the writer earned on the day it
//! settled; a failed one paid nobody (every pledge went back) and is kept only to say so.

use diesel::sql_types::{BigInt, Text, Timestamptz};
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use prost::Message;
use quire_kit::db::{DbError, prepared};
use quire_kit::events::{Event, types};
use quire_proto::events::v1 as ev;

pub const FUNDED: &str = "funded";
pub const FAILED: &str = "failed";

/// Records a settled campaign; a campaign settles once, so a second event changes nothing.
pub async fn apply(conn: &mut AsyncPgConnection, event: &Event) -> Result<(), DbError> {
    let data = event.data.as_slice();
    let (status, settled) = match event.event_type.as_str() {
        types::CAMPAIGN_FUNDED => (
            FUNDED,
            ev::CampaignFunded::decode(data)
                .ok()
                .and_then(|e| e.campaign),
        ),
        types::CAMPAIGN_FAILED => (
            FAILED,
            ev::CampaignFailed::decode(data)
                .ok()
                .and_then(|e| e.campaign),
        ),
        _ => return Ok(()),
    };
    let Some(c) = settled else {
        tracing::warn!(event_id = %event.id, "undecodable campaign event, skipped");
        return Ok(());
    };
    let (Some(campaign_id), Some(book_id), Some(writer_id)) = (
        event.id_field("campaign_id", &c.campaign_id),
        event.id_field("book_id", &c.book_id),
        event.id_field("writer_uid", &c.writer_uid),
    ) else {
        return Ok(());
    };
    // A failed campaign paid the writer nothing, whatever the event says.
    let writer_cents = if status == FUNDED { c.writer_cents } else { 0 };
    prepared(
        "INSERT INTO campaigns (campaign_id, book_id, writer_id, status, pledged_cents, \
                                writer_cents, settled_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7) \
         ON CONFLICT (campaign_id) DO NOTHING",
    )
    .bind::<diesel::sql_types::Uuid, _>(campaign_id)
    .bind::<diesel::sql_types::Uuid, _>(book_id)
    .bind::<diesel::sql_types::Uuid, _>(writer_id)
    .bind::<Text, _>(status)
    .bind::<BigInt, _>(c.pledged_cents)
    .bind::<BigInt, _>(writer_cents)
    .bind::<Timestamptz, _>(event.time_field(&c.settled_at))
    .execute(conn)
    .await?;
    Ok(())
}
