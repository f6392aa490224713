//! At-least-once, idempotent event consumption.
//!
//! A record's offset is stored only after its handler committed; the handler runs in a
//! transaction that also records the event id in `processed_events`, so an event seen
//! twice (a relay resend, a rebalance, a restart) changes nothing the second time.

use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

use diesel::sql_types::Text;
use diesel_async::scoped_futures::ScopedFutureExt;
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use futures::TryFutureExt;
use rdkafka::ClientConfig;
use rdkafka::consumer::{CommitMode, Consumer, StreamConsumer};
use rdkafka::message::BorrowedMessage;
use tracing::Instrument;

use crate::db::{DbError, PgPool, prepared};
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
            let fresh = prepared(
                "INSERT INTO processed_events (consumer, event_id) VALUES ($1, $2) \
                 ON CONFLICT DO NOTHING",
            )
            .bind::<Text, _>(consumer)
            .bind::<diesel::sql_types::Uuid, _>(event.id)
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
        Ok(Self {
            consumer: join_group(brokers, group, topics, &[])?,
            name: group.to_owned(),
            pool,
        })
    }

    /// Consumes until `stop` resolves. A failing handler is retried with backoff and
    /// never skipped, so no event is lost.
    pub async fn run(self, handler: impl EventHandler, stop: impl Future<Output = ()>) {
        tokio::pin!(stop);
        while let Some(message) = next_message(&self.consumer, &self.name, &mut stop).await {
            if let Some(event) = decode(&message, &self.name) {
                let span = consume_span(&event);
                let (name, event, handler) = (&self.name, &event, &handler);
                let applied = retry(&mut stop, || {
                    apply_once(&self.pool, name, event, handler)
                        .instrument(span.clone())
                        .inspect_err(move |error| {
                            tracing::error!(%error, event_id = %event.id, consumer = %name, "event handler failed, retrying");
                        })
                })
                .await;
                let Some(applied) = applied else { return };
                count_consumed(&self.name, applied, 1);
            }
            if let Err(error) = self.consumer.store_offset_from_message(&message) {
                tracing::warn!(%error, consumer = %self.name, "cannot store offset");
            }
        }
        // Hand the stored offsets to the broker before leaving the group.
        commit(
            &self.consumer,
            &self.name,
            CommitMode::Sync,
            "final commit skipped",
        );
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
        let fetch_wait = fetch_wait_ms.to_string();
        Ok(Self {
            consumer: join_group(
                brokers,
                group,
                topics,
                &[("fetch.wait.max.ms", &fetch_wait)],
            )?,
            name: group.to_owned(),
            max_batch: 500,
        })
    }

    /// Consumes until `stop` resolves. A failing batch is retried with backoff and never
    /// skipped.
    pub async fn run(self, handler: impl BatchHandler, stop: impl Future<Output = ()>) {
        use futures::FutureExt;
        tokio::pin!(stop);
        while let Some(first) = next_message(&self.consumer, &self.name, &mut stop).await {
            // Whatever else is already fetched joins the batch, without waiting for more.
            let mut messages = vec![first];
            while messages.len() < self.max_batch {
                match self.consumer.recv().now_or_never() {
                    Some(Ok(m)) => messages.push(m),
                    _ => break,
                }
            }
            let events: Vec<Event> = messages
                .iter()
                .filter_map(|m| decode(m, &self.name))
                .collect();
            if !events.is_empty() {
                let (name, events, handler) = (&self.name, &events, &handler);
                let handled = retry(&mut stop, || {
                    handler.handle_batch(events).inspect_err(move |error| {
                        tracing::error!(%error, consumer = %name, events = events.len(), "batch handler failed, retrying");
                    })
                })
                .await;
                if handled.is_none() {
                    return;
                }
                count_consumed(&self.name, true, events.len() as u64);
            }
            for message in &messages {
                if let Err(error) = self.consumer.store_offset_from_message(message) {
                    tracing::warn!(%error, consumer = %self.name, "cannot store offset");
                }
            }
            drop(messages);
            commit(
                &self.consumer,
                &self.name,
                CommitMode::Async,
                "offset commit deferred",
            );
        }
        commit(
            &self.consumer,
            &self.name,
            CommitMode::Sync,
            "final commit skipped",
        );
    }
}

/// Joins consumer group `group` on `topics`. Offsets are stored by hand once a record was
/// handled, then auto-committed: that is what makes both consumers at-least-once.
fn join_group(
    brokers: &str,
    group: &str,
    topics: &[&str],
    extra: &[(&str, &str)],
) -> anyhow::Result<StreamConsumer> {
    let mut config = client_config(brokers, group);
    for (key, value) in extra {
        config.set(*key, *value);
    }
    let consumer: StreamConsumer = config.create()?;
    consumer.subscribe(topics)?;
    Ok(consumer)
}

/// The settings of every consumer of a service (also what a benchmark's consumer starts
/// from to see events as the services see them).
pub fn client_config(brokers: &str, group: &str) -> ClientConfig {
    let mut config = ClientConfig::new();
    config
        .set("bootstrap.servers", brokers)
        .set("group.id", group)
        .set("enable.auto.commit", "true")
        .set("enable.auto.offset.store", "false")
        .set("auto.offset.reset", "earliest")
        .set("session.timeout.ms", "10000");
    config
}

/// The next record, or `None` once `stop` resolved. A failed receive is logged and tried
/// again after a pause.
async fn next_message<'c>(
    consumer: &'c StreamConsumer,
    name: &str,
    stop: &mut Pin<&mut impl Future<Output = ()>>,
) -> Option<BorrowedMessage<'c>> {
    loop {
        let message = tokio::select! {
            () = &mut *stop => return None,
            m = consumer.recv() => m,
        };
        match message {
            Ok(m) => return Some(m),
            Err(error) => {
                tracing::warn!(%error, consumer = %name, "kafka receive failed");
                tokio::time::sleep(Duration::from_millis(500)).await;
            }
        }
    }
}

/// The Quire event in `message`; a record that is none is logged and skipped (its offset
/// is still stored, so it does not block the partition).
fn decode(message: &BorrowedMessage<'_>, name: &str) -> Option<Event> {
    let event = Event::from_message(message);
    if event.is_none() {
        tracing::warn!(consumer = %name, "skipping a record that is no quire event");
    }
    event
}

/// The span an event is handled in, continuing the trace of whoever emitted it.
fn consume_span(event: &Event) -> tracing::Span {
    let span = tracing::info_span!("consume", event_type = %event.event_type, event_id = %event.id);
    if let Some(tp) = &event.traceparent {
        let mut carrier = http::HeaderMap::new();
        crate::telemetry::Carrier::set(&mut carrier, "traceparent", tp.clone());
        crate::telemetry::set_parent_from(&span, &carrier);
    }
    span
}

/// Runs `attempt` until it succeeds, waiting 100 ms after the first failure and twice as
/// long after each next one (at most 10 s). `None` when `stop` resolved first: the record
/// is then left for whoever consumes it next.
async fn retry<T, E, F>(
    stop: &mut Pin<&mut impl Future<Output = ()>>,
    mut attempt: impl FnMut() -> F,
) -> Option<T>
where
    F: Future<Output = Result<T, E>>,
{
    let mut backoff = Duration::from_millis(100);
    loop {
        if let Ok(done) = attempt().await {
            return Some(done);
        }
        tokio::select! {
            () = &mut *stop => return None,
            () = tokio::time::sleep(backoff) => {}
        }
        backoff = (backoff * 2).min(Duration::from_secs(10));
    }
}

fn count_consumed(name: &str, applied: bool, events: u64) {
    metrics::counter!("quire_events_consumed_total", "consumer" => name.to_owned(), "applied" => applied.to_string())
        .increment(events);
}

fn commit(consumer: &StreamConsumer, name: &str, mode: CommitMode, failed: &'static str) {
    if let Err(error) = consumer.commit_consumer_state(mode) {
        tracing::debug!(%error, consumer = %name, "{failed}");
    }
}
