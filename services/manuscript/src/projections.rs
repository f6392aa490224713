//! What pricing and sales analytics read, kept from other services' events: every book of
//! the shop (`quire.book.v1`, see [`crate::shop_books`]), every completed trade
//! (`quire.trade.v1`, [`crate::sales`]) and every settled crowd-funding campaign
//! (`quire.campaign.v1`, [`crate::campaigns`]). quire-kit's consumer applies each event
//! once, in the transaction that records its id; an event that cannot be read is logged
//! and skipped (retrying it would block its partition for ever).
//!
//! It follows the topics in a consumer group of its own ([`crate::ManuscriptConfig::analytics_group`]):
//! the group of the manuscript list's book flag has long moved past the books this
//! projection needs, and a fresh group reads every topic from its start.

use std::future::Future;
use std::pin::Pin;

use chrono::{DateTime, Utc};
use diesel_async::AsyncPgConnection;
use quire_kit::consumer::EventHandler;
use quire_kit::db::DbError;
use quire_kit::events::{Event, types};
use uuid::Uuid;

pub struct Projections;

impl EventHandler for Projections {
    fn handle<'a>(
        &'a self,
        conn: &'a mut AsyncPgConnection,
        event: &'a Event,
    ) -> Pin<Box<dyn Future<Output = Result<(), DbError>> + Send + 'a>> {
        Box::pin(async move {
            match event.event_type.as_str() {
                types::BOOK_PUBLISHED | types::BOOK_UPDATED | types::BOOK_UNPUBLISHED => {
                    crate::shop_books::apply(conn, event).await
                }
                types::TRADE_COMPLETED => crate::sales::apply(conn, event).await,
                types::CAMPAIGN_FUNDED | types::CAMPAIGN_FAILED => {
                    crate::campaigns::apply(conn, event).await
                }
                _ => Ok(()),
            }
        })
    }
}

/// The id in `value`, or `None` (logged) when the event names none.
pub fn id(field: &str, value: &str, event: &Event) -> Option<Uuid> {
    let parsed = Uuid::parse_str(value.trim()).ok();
    if parsed.is_none() {
        tracing::warn!(event_id = %event.id, field, "event names no valid id, skipped");
    }
    parsed
}

/// An optional id: empty is none; what is not an id is none as well (logged).
pub fn opt_id(field: &str, value: &str, event: &Event) -> Option<Uuid> {
    if value.trim().is_empty() {
        None
    } else {
        id(field, value, event)
    }
}

/// The time in `value` (RFC 3339), else the event's own time, else now: a time is needed
/// to place the fact in a report, and the event's is the closest one known.
pub fn time(value: &str, event: &Event) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(value)
        .or_else(|_| DateTime::parse_from_rfc3339(&event.time))
        .map(|t| t.with_timezone(&Utc))
        .unwrap_or_else(|_| Utc::now())
}
