//! At-least-once, idempotent event consumption.
//!
//! A record's offset is stored only after its handler committed; the handler runs in a
//! transaction that also records the event id in `processed_events`, so an event seen
//! twice (a relay resend, a rebalance, a restart) changes nothing the second time.

use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

use diesel::prelude::*;
use diesel_async::scoped_futures::ScopedFutureExt;
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use rdkafka::ClientConfig;
use rdkafka::consumer::{Consumer, StreamConsumer};
use tracing::Instrument;

use crate::db::schema::processed_events;
use crate::db::{DbError, PgPool};
use crate::events::Event;

/// What a service does with one event, inside the transaction that marks it processed.
pub trait EventHandler: Send + Sync + 'static {
    fn handle<'a>(
        &'a self,
        conn: &'a mut AsyncPgConnection,
        event: &'a Event,
    ) -> Pin<Box<dyn Future<Output = Result<(), DbError>> + Send + 'a>>;
}

/// Applies `event` once: returns false when this consumer had already applied it.
pub async fn apply_once(
    pool: &PgPool,
    consumer: &str,
    event: &Event,
    handler: &dyn EventHandler,
) -> Result<bool, DbError> {
    let mut conn = crate::db::conn(pool).await?;
    conn.transaction::<bool, DbError, _>(|conn| {
        async move {
            let fresh = diesel::insert_into(processed_events::table)
                .values((
                    processed_events::consumer.eq(consumer),
                    processed_events::event_id.eq(event.id),
                ))
                .on_conflict_do_nothing()
                .execute(conn)
                .await?;
            if fresh == 0 {
                return Ok(false);
            }
            handler.handle(conn, event).await?;
            Ok(true)
        }
        .scope_boxed()
    })
    .await
}

/// A consumer group member feeding one handler.
pub struct EventConsumer {
    consumer: StreamConsumer,
    name: String,
    pool: PgPool,
}

impl EventConsumer {
    /// Joins consumer group `group` on `topics`.
    pub fn new(brokers: &str, group: &str, topics: &[&str], pool: PgPool) -> anyhow::Result<Self> {
        let consumer: StreamConsumer = ClientConfig::new()
            .set("bootstrap.servers", brokers)
            .set("group.id", group)
            .set("enable.auto.commit", "true")
            // Offsets are stored by hand after the handler succeeded, then auto-committed.
            .set("enable.auto.offset.store", "false")
            .set("auto.offset.reset", "earliest")
            .set("session.timeout.ms", "10000")
            .create()?;
        consumer.subscribe(topics)?;
        Ok(Self {
            consumer,
            name: group.to_owned(),
            pool,
        })
    }

    /// Consumes until `stop` resolves. A failing handler is retried with backoff and
    /// never skipped, so no event is lost.
    pub async fn run(self, handler: impl EventHandler, stop: impl Future<Output = ()>) {
        tokio::pin!(stop);
        loop {
            let message = tokio::select! {
                () = &mut stop => break,
                m = self.consumer.recv() => m,
            };
            let message = match message {
                Ok(m) => m,
                Err(error) => {
                    tracing::warn!(%error, consumer = %self.name, "kafka receive failed");
                    tokio::time::sleep(Duration::from_millis(500)).await;
                    continue;
                }
            };
            let Some(event) = Event::from_message(&message) else {
                tracing::warn!(consumer = %self.name, "skipping a record that is no quire event");
                let _ = self.consumer.store_offset_from_message(&message);
                continue;
            };
            let span = tracing::info_span!("consume", event_type = %event.event_type, event_id = %event.id);
            if let Some(tp) = &event.traceparent {
                let mut carrier = http::HeaderMap::new();
                crate::telemetry::Carrier::set(&mut carrier, "traceparent", tp.clone());
                crate::telemetry::set_parent_from(&span, &carrier);
            }
            let mut backoff = Duration::from_millis(100);
            loop {
                let applied = apply_once(&self.pool, &self.name, &event, &handler)
                    .instrument(span.clone())
                    .await;
                match applied {
                    Ok(applied) => {
                        metrics::counter!("quire_events_consumed_total", "consumer" => self.name.clone(), "applied" => applied.to_string()).increment(1);
                        break;
                    }
                    Err(error) => {
                        tracing::error!(%error, event_id = %event.id, consumer = %self.name, "event handler failed, retrying");
                        tokio::select! {
                            () = &mut stop => return,
                            () = tokio::time::sleep(backoff) => {}
                        }
                        backoff = (backoff * 2).min(Duration::from_secs(10));
                    }
                }
            }
            if let Err(error) = self.consumer.store_offset_from_message(&message) {
                tracing::warn!(%error, consumer = %self.name, "cannot store offset");
            }
        }
        // Hand the stored offsets to the broker before leaving the group.
        if let Err(error) = self
            .consumer
            .commit_consumer_state(rdkafka::consumer::CommitMode::Sync)
        {
            tracing::debug!(%error, consumer = %self.name, "final commit skipped");
        }
    }
}

/// What a consumer without database state does with a batch of events (the per-replica
/// search index of catalog). It must be idempotent: after a failure or a restart the same
/// events come again.
pub trait BatchHandler: Send + Sync + 'static {
    fn handle_batch<'a>(
        &'a self,
        events: &'a [Event],
    ) -> Pin<Box<dyn Future<Output = anyhow::Result<()>> + Send + 'a>>;
}

/// A consumer group member feeding a [`BatchHandler`]: at-least-once, the offsets of a
/// batch are stored (and committed) only after the handler succeeded for all of it. No
/// `processed_events` row is written, so a handler that keeps state elsewhere (a search
/// index on local disk or in memory) needs no database transaction.
pub struct BatchConsumer {
    consumer: StreamConsumer,
    name: String,
    max_batch: usize,
}

impl BatchConsumer {
    /// Joins consumer group `group` on `topics`. `fetch_wait_ms` bounds how long the broker
    /// holds a fetch for more data: low values make a fresh event visible sooner.
    pub fn new(
        brokers: &str,
        group: &str,
        topics: &[&str],
        fetch_wait_ms: u32,
    ) -> anyhow::Result<Self> {
        let consumer: StreamConsumer = ClientConfig::new()
            .set("bootstrap.servers", brokers)
            .set("group.id", group)
            .set("enable.auto.commit", "true")
            .set("enable.auto.offset.store", "false")
            .set("auto.offset.reset", "earliest")
            .set("session.timeout.ms", "10000")
            .set("fetch.wait.max.ms", fetch_wait_ms.to_string())
            .create()?;
        consumer.subscribe(topics)?;
        Ok(Self {
            consumer,
            name: group.to_owned(),
            max_batch: 500,
        })
    }

    /// Consumes until `stop` resolves. A failing batch is retried with backoff and never
    /// skipped.
    pub async fn run(self, handler: impl BatchHandler, stop: impl Future<Output = ()>) {
        use futures::FutureExt;
        tokio::pin!(stop);
        loop {
            let first = tokio::select! {
                () = &mut stop => break,
                m = self.consumer.recv() => m,
            };
            let first = match first {
                Ok(m) => m,
                Err(error) => {
                    tracing::warn!(%error, consumer = %self.name, "kafka receive failed");
                    tokio::time::sleep(Duration::from_millis(500)).await;
                    continue;
                }
            };
            // Whatever else is already fetched joins the batch, without waiting for more.
            let mut messages = vec![first];
            while messages.len() < self.max_batch {
                match self.consumer.recv().now_or_never() {
                    Some(Ok(m)) => messages.push(m),
                    _ => break,
                }
            }
            let events: Vec<Event> = messages.iter().filter_map(Event::from_message).collect();
            let mut backoff = Duration::from_millis(100);
            while !events.is_empty() {
                match handler.handle_batch(&events).await {
                    Ok(()) => {
                        metrics::counter!("quire_events_consumed_total", "consumer" => self.name.clone(), "applied" => "true")
                            .increment(events.len() as u64);
                        break;
                    }
                    Err(error) => {
                        tracing::error!(%error, consumer = %self.name, events = events.len(), "batch handler failed, retrying");
                        tokio::select! {
                            () = &mut stop => return,
                            () = tokio::time::sleep(backoff) => {}
                        }
                        backoff = (backoff * 2).min(Duration::from_secs(10));
                    }
                }
            }
            for message in &messages {
                if let Err(error) = self.consumer.store_offset_from_message(message) {
                    tracing::warn!(%error, consumer = %self.name, "cannot store offset");
                }
            }
            drop(messages);
            if let Err(error) = self
                .consumer
                .commit_consumer_state(rdkafka::consumer::CommitMode::Async)
            {
                tracing::debug!(%error, consumer = %self.name, "offset commit deferred");
            }
        }
        if let Err(error) = self
            .consumer
            .commit_consumer_state(rdkafka::consumer::CommitMode::Sync)
        {
            tracing::debug!(%error, consumer = %self.name, "final commit skipped");
        }
    }
}
