//! Whether each manuscript's book is in the shop, fed by catalog's `quire.book.v1` events
//! (the manuscript list's "published"). Every book event carries the whole book with its
//! version, so an event older than the one applied is ignored and the order they come in
//! does not matter. Books that are no manuscript's match no row.

use std::future::Future;
use std::pin::Pin;

use diesel::sql_types::{BigInt, Bool};
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use prost::Message;
use quire_kit::consumer::EventHandler;
use quire_kit::db::{DbError, prepared};
use quire_kit::events::{Event, types};
use quire_proto::events::v1 as ev;
use uuid::Uuid;

pub struct BookEvents;

impl EventHandler for BookEvents {
    fn handle<'a>(
        &'a self,
        conn: &'a mut AsyncPgConnection,
        event: &'a Event,
    ) -> Pin<Box<dyn Future<Output = Result<(), DbError>> + Send + 'a>> {
        Box::pin(async move {
            let book = match event.event_type.as_str() {
                types::BOOK_PUBLISHED => ev::BookPublished::decode(event.data.as_slice())
                    .ok()
                    .and_then(|e| e.book),
                types::BOOK_UPDATED => ev::BookUpdated::decode(event.data.as_slice())
                    .ok()
                    .and_then(|e| e.book),
                types::BOOK_UNPUBLISHED => ev::BookUnpublished::decode(event.data.as_slice())
                    .ok()
                    .and_then(|e| e.book),
                _ => return Ok(()),
            };
            let Some((book, id)) =
                book.and_then(|b| Uuid::parse_str(&b.book_id).ok().map(|id| (b, id)))
            else {
                tracing::warn!(event_id = %event.id, "undecodable book event, skipped");
                return Ok(());
            };
            prepared(
                "UPDATE manuscripts SET book_listed = $1, book_version = $2 \
                 WHERE book_id = $3 AND book_version < $4",
            )
            .bind::<Bool, _>(book.listed)
            .bind::<BigInt, _>(book.version)
            .bind::<diesel::sql_types::Uuid, _>(id)
            .bind::<BigInt, _>(book.version)
            .execute(conn)
            .await?;
            Ok(())
        })
    }
}
