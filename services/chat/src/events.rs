//! The projections Quinn follows: catalog's `quire.book.v1` (the books table and the
//! index) and wallet's `quire.trade.v1` (sales and who bought what).
//!
//! Every replica reads every event (a consumer group per replica) but all write the same
//! tables, so the two kinds of state are kept apart: the tables are written once, whoever
//! applies an event first (rows are version-guarded, a trade is counted once per trade
//! id), while each replica's in-memory index follows every event it reads, whether or not
//! its own write changed a row. The index learns a book from the event's snapshot (it
//! keeps the newest version it saw) and a book's sales as the count the table holds after
//! the trade (a value, never an increment, so no replica and no retried batch counts a
//! sale twice). The index changes only after the batch's transaction committed.

use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex, RwLock};

use diesel::sql_types::Text;
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use prost::Message;
use quire_kit::consumer::{BatchHandler, EventHandler};
use quire_kit::db::{DbError, PgPool, prepared};
use quire_kit::events::{Event, types};
use quire_proto::events::v1 as ev;
use uuid::Uuid;

use crate::books;
use crate::ranking::{BookDoc, Index};

/// A change of the index an applied event makes, kept until its transaction committed.
enum Change {
    Upsert(Box<BookDoc>),
    Remove(String, i64),
    /// The sales the table holds for a book once a trade of it was counted.
    Sales(String, u32),
}

/// Applies book and trade events to the tables, collecting what the index must learn.
struct Apply {
    pending: Mutex<Vec<Change>>,
}

impl Apply {
    fn push(&self, change: Change) {
        if let Ok(mut pending) = self.pending.lock() {
            pending.push(change);
        }
    }

    async fn book(
        &self,
        conn: &mut AsyncPgConnection,
        snapshot: Option<ev::BookSnapshot>,
        event: &Event,
    ) -> Result<(), DbError> {
        let Some(snapshot) = snapshot.filter(|s| Uuid::parse_str(&s.book_id).is_ok()) else {
            tracing::warn!(event_id = %event.id, "undecodable book event, skipped");
            return Ok(());
        };
        // Another replica may have stored this snapshot already: this replica's index
        // learns it all the same (the index keeps the newest version it saw).
        books::store(conn, &snapshot).await?;
        self.push(if snapshot.listed {
            Change::Upsert(Box::new(books::doc(&snapshot)))
        } else {
            Change::Remove(snapshot.book_id.clone(), snapshot.version)
        });
        Ok(())
    }

    async fn trade(&self, conn: &mut AsyncPgConnection, event: &Event) -> Result<(), DbError> {
        let trade = ev::TradeCompleted::decode(event.data.as_slice()).ok();
        let parsed = trade.as_ref().and_then(|t| {
            let buyer = Uuid::parse_str(&t.buyer_uid).ok()?;
            let book = Uuid::parse_str(&t.book_id).ok()?;
            (!t.trade_id.is_empty()).then_some((t.trade_id.clone(), buyer, book))
        });
        let Some((trade_id, buyer, book)) = parsed else {
            tracing::warn!(event_id = %event.id, "undecodable trade event, skipped");
            return Ok(());
        };
        // Waits for another replica's uncommitted insert of the same trade, so the count
        // read below includes it whichever replica counted it.
        let fresh = prepared(
            "INSERT INTO trades (trade_id, buyer, book_id) VALUES ($1, $2, $3) \
             ON CONFLICT DO NOTHING",
        )
        .bind::<Text, _>(trade_id)
        .bind::<diesel::sql_types::Uuid, _>(buyer)
        .bind::<diesel::sql_types::Uuid, _>(book)
        .execute(conn)
        .await?;
        if fresh == 1 {
            prepared(
                "INSERT INTO sales (book_id, count) VALUES ($1, 1) \
                 ON CONFLICT (book_id) DO UPDATE SET count = sales.count + 1",
            )
            .bind::<diesel::sql_types::Uuid, _>(book)
            .execute(conn)
            .await?;
            prepared(
                "INSERT INTO purchases (buyer, book_id) VALUES ($1, $2) ON CONFLICT DO NOTHING",
            )
            .bind::<diesel::sql_types::Uuid, _>(buyer)
            .bind::<diesel::sql_types::Uuid, _>(book)
            .execute(conn)
            .await?;
        }
        let count = books::sales_of(conn, book).await?;
        self.push(Change::Sales(book.to_string(), count));
        Ok(())
    }
}

impl EventHandler for Apply {
    fn handle<'a>(
        &'a self,
        conn: &'a mut AsyncPgConnection,
        event: &'a Event,
    ) -> Pin<Box<dyn Future<Output = Result<(), DbError>> + Send + 'a>> {
        Box::pin(async move {
            let snapshot = |data: &[u8]| -> Option<ev::BookSnapshot> {
                match event.event_type.as_str() {
                    types::BOOK_PUBLISHED => ev::BookPublished::decode(data).ok()?.book,
                    types::BOOK_UPDATED => ev::BookUpdated::decode(data).ok()?.book,
                    types::BOOK_UNPUBLISHED => ev::BookUnpublished::decode(data).ok()?.book,
                    _ => None,
                }
            };
            match event.event_type.as_str() {
                types::BOOK_PUBLISHED | types::BOOK_UPDATED | types::BOOK_UNPUBLISHED => {
                    self.book(conn, snapshot(&event.data), event).await
                }
                types::TRADE_COMPLETED => self.trade(conn, event).await,
                _ => Ok(()),
            }
        })
    }
}

/// The consumer's handler: applies a batch in one transaction, then the index changes.
pub struct Projections {
    pool: PgPool,
    name: String,
    apply: Apply,
    index: Arc<RwLock<Index>>,
    /// Rung when books changed, so the embedder looks for books without a vector.
    embed: Arc<tokio::sync::Notify>,
}

impl Projections {
    pub fn new(
        pool: PgPool,
        name: &str,
        index: Arc<RwLock<Index>>,
        embed: Arc<tokio::sync::Notify>,
    ) -> Self {
        Self {
            pool,
            name: name.to_owned(),
            apply: Apply {
                pending: Mutex::new(Vec::new()),
            },
            index,
            embed,
        }
    }

    fn take_pending(&self) -> Vec<Change> {
        self.apply
            .pending
            .lock()
            .map(|mut p| std::mem::take(&mut *p))
            .unwrap_or_default()
    }
}

impl BatchHandler for Projections {
    fn handle_batch<'a>(
        &'a self,
        events: &'a [Event],
    ) -> Pin<Box<dyn Future<Output = anyhow::Result<usize>> + Send + 'a>> {
        Box::pin(async move {
            self.take_pending();
            let applied =
                quire_kit::consumer::apply_all(&self.pool, &self.name, events, &self.apply).await;
            let changes = self.take_pending();
            let applied = applied?;
            let mut books_changed = false;
            if let Ok(mut index) = self.index.write() {
                for change in changes {
                    match change {
                        Change::Upsert(doc) => books_changed |= index.upsert(*doc),
                        Change::Remove(id, version) => {
                            index.remove(&id, version);
                        }
                        Change::Sales(id, count) => index.set_sales(&id, count),
                    }
                }
            }
            if books_changed {
                self.embed.notify_one();
            }
            Ok(applied)
        })
    }
}
