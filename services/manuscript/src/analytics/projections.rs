//! What pricing and sales analytics read, kept from other services' events: every book of
//! the shop (`quire.book.v1`, see [`super::shop_books`]), every completed trade
//! (`quire.trade.v1`, [`super::sales`]) and every settled crowd-funding campaign
//! (`quire.campaign.v1`, [`super::campaigns`]). quire-kit's consumer applies each event
//! once, in the transaction that records its id; an event that cannot be read is logged
//! and skipped (retrying it would block its partition for ever), and so is a fact whose
//! ids cannot be read (quire-kit's `Event::id_field` and the like).
//!
//! It follows the topics in a consumer group of its own
//! ([`crate::ManuscriptConfig::analytics_group`]): the group of the manuscript list's book
//! flag has long moved past the books this projection needs, and a fresh group reads every
//! topic from its start.

use std::future::Future;
use std::pin::Pin;

use diesel_async::AsyncPgConnection;
use quire_kit::consumer::EventHandler;
use quire_kit::db::DbError;
use quire_kit::events::{Event, types};

use crate::analytics::{campaigns, sales, shop_books};

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
                    shop_books::apply(conn, event).await
                }
                types::TRADE_COMPLETED => sales::apply(conn, event).await,
                types::CAMPAIGN_FUNDED | types::CAMPAIGN_FAILED => {
                    campaigns::apply(conn, event).await
                }
                _ => Ok(()),
            }
        })
    }
}
