//! At-least-once, idempotent event consumption.
//!
//! A record's offset is stored only after its handler committed; the handler runs in a
//! transaction that also records the event id in `processed_events`, so an event seen
//! twice (a relay resend, a rebalance, a restart) changes nothing the second time.
//!
//! The events already fetched when a consumer turns to its queue are applied together, in
//! order, in one transaction: under load one durable commit (a disk flush) serves many
//! events instead of one each. A failure rolls the whole batch back and retries it, so a
//! batch is applied entirely or not at all.

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

mod stranded;

pub use stranded::{LOOK_EVERY, STRANDED_AFTER};

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
    Ok(apply_all(pool, consumer, std::slice::from_ref(event), handler).await? == 1)
}

/// Applies each of `events` once, in order, in one transaction; returns how many this
/// consumer had not applied before.
pub async fn apply_all(
    pool: &PgPool,
    consumer: &str,
    events: &[Event],
    handler: &dyn EventHandler,
) -> Result<usize, DbError> {
    let mut conn = crate::db::conn(pool).await?;
    conn.transaction::<usize, DbError, _>(|conn| {
        async move {
            let mut applied = 0;
            for event in events {
                let fresh = prepared(
                    "INSERT INTO processed_events (consumer, event_id) VALUES ($1, $2) \
                     ON CONFLICT DO NOTHING",
                )
                .bind::<Text, _>(consumer)
                .bind::<diesel::sql_types::Uuid, _>(event.id)
                .execute(conn)
                .await?;
                if fresh == 1 {
                    handler
                        .handle(conn, event)
                        .instrument(consume_span(event, consumer))
                        .await?;
                    applied += 1;
                }
            }
            Ok(applied)
        }
        .scope_boxed()
    })
    .await
}

/// A consumer group member feeding one [`EventHandler`], each event applied once.
pub struct EventConsumer {
    batches: BatchConsumer,
    pool: PgPool,
}

impl EventConsumer {
    /// Joins consumer group `group` on `topics`.
    pub fn new(brokers: &str, group: &str, topics: &[&str], pool: PgPool) -> anyhow::Result<Self> {
        Ok(Self {
            batches: BatchConsumer {
                consumer: join_group(brokers, group, topics, &[])?,
                watch: stranded::Watch::new(brokers, group, topics)?,
                topics: topics.iter().map(|t| (*t).to_owned()).collect(),
                name: group.to_owned(),
                // Bounds how long one transaction holds what its handlers lock.
                max_batch: 100,
                // The stored offsets go with the periodic auto-commit: a replay after a
                // crash changes nothing, and a commit per batch would cost the broker a
                // request per event when events come one at a time.
                commit_each_batch: false,
            },
            pool,
        })
    }

    /// Consumes until `stop` resolves. A failing batch is retried with backoff and never
    /// skipped, so no event is lost.
    pub async fn run(self, handler: impl EventHandler, stop: impl Future<Output = ()>) {
        let once = AppliedOnce {
            pool: self.pool,
            name: self.batches.name.clone(),
            handler,
        };
        self.batches.run(once, stop).await;
    }
}

/// An [`EventHandler`] behind `processed_events`, as a batch handler.
struct AppliedOnce<H> {
    pool: PgPool,
    name: String,
    handler: H,
}

impl<H: EventHandler> BatchHandler for AppliedOnce<H> {
    fn handle_batch<'a>(
        &'a self,
        events: &'a [Event],
    ) -> Pin<Box<dyn Future<Output = anyhow::Result<usize>> + Send + 'a>> {
        Box::pin(async move { Ok(apply_all(&self.pool, &self.name, events, &self.handler).await?) })
    }
}

/// `first` and the records already fetched after it, up to `max` in all, without waiting
/// for more.
fn with_fetched<'c>(
    consumer: &'c StreamConsumer,
    first: BorrowedMessage<'c>,
    max: usize,
) -> Vec<BorrowedMessage<'c>> {
    use futures::FutureExt;
    let mut messages = vec![first];
    while messages.len() < max {
        match consumer.recv().now_or_never() {
            Some(Ok(m)) => messages.push(m),
            _ => break,
        }
    }
    messages
}

/// What a consumer does with a batch of events, answering how many of them changed
/// something (the rest it had seen before). Without database state (the per-replica
/// search index of catalog) it must be idempotent: after a failure or a restart the same
/// events come again.
pub trait BatchHandler: Send + Sync + 'static {
    fn handle_batch<'a>(
        &'a self,
        events: &'a [Event],
    ) -> Pin<Box<dyn Future<Output = anyhow::Result<usize>> + Send + 'a>>;
}

/// A consumer group member feeding a [`BatchHandler`]: at-least-once, the offsets of a
/// batch are stored (and committed) only after the handler succeeded for all of it. No
/// `processed_events` row is written, so a handler that keeps state elsewhere (a search
/// index on local disk or in memory) needs no database transaction.
pub struct BatchConsumer {
    consumer: StreamConsumer,
    /// Finds partitions a dead member left with no consumer (see [`stranded`]).
    watch: stranded::Watch,
    topics: Vec<String>,
    name: String,
    max_batch: usize,
    /// Commit the offsets after each batch rather than with the periodic auto-commit.
    commit_each_batch: bool,
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
            watch: stranded::Watch::new(brokers, group, topics)?,
            topics: topics.iter().map(|t| (*t).to_owned()).collect(),
            name: group.to_owned(),
            max_batch: 500,
            commit_each_batch: true,
        })
    }

    /// Consumes until `stop` resolves. A failing batch is retried with backoff and never
    /// skipped.
    pub async fn run(mut self, handler: impl BatchHandler, stop: impl Future<Output = ()>) {
        tokio::pin!(stop);
        let mut look = tokio::time::interval(LOOK_EVERY);
        look.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            let first = tokio::select! {
                m = next_message(&self.consumer, &self.name, &mut stop) => m,
                _ = look.tick() => {
                    let Self { consumer, watch, topics, name, .. } = &mut self;
                    rejoin_if_stranded(consumer, watch, topics, name).await;
                    continue;
                }
            };
            let Some(first) = first else { break };
            let messages = with_fetched(&self.consumer, first, self.max_batch);
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
                let Some(applied) = handled else { return };
                count_consumed(&self.name, true, applied as u64);
                count_consumed(&self.name, false, (events.len() - applied) as u64);
            }
            for message in &messages {
                if let Err(error) = self.consumer.store_offset_from_message(message) {
                    tracing::warn!(%error, consumer = %self.name, "cannot store offset");
                }
            }
            drop(messages);
            if self.commit_each_batch {
                commit(
                    &self.consumer,
                    &self.name,
                    CommitMode::Async,
                    "offset commit deferred",
                );
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

/// Leaves the group and joins it again when a partition has had no consumer for
/// [`STRANDED_AFTER`]: the new generation hands it to a live member.
async fn rejoin_if_stranded(
    consumer: &StreamConsumer,
    watch: &mut stranded::Watch,
    topics: &[String],
    name: &str,
) {
    let own = consumer.assignment().unwrap_or_default();
    let stranded = watch.look(&own).await;
    if stranded.is_empty() {
        return;
    }
    tracing::warn!(
        consumer = %name,
        ?stranded,
        "partitions without a consumer for {} s: rejoining the group",
        STRANDED_AFTER.as_secs()
    );
    metrics::counter!("quire_consumer_rejoins_total", "consumer" => name.to_owned()).increment(1);
    // What was handled is committed first, so the next owner starts after it.
    commit(
        consumer,
        name,
        CommitMode::Sync,
        "commit before rejoining skipped",
    );
    consumer.unsubscribe();
    let topics: Vec<&str> = topics.iter().map(String::as_str).collect();
    if let Err(error) = consumer.subscribe(&topics) {
        tracing::error!(%error, consumer = %name, "cannot join the group again");
    }
    watch.forget();
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
fn consume_span(event: &Event, consumer: &str) -> tracing::Span {
    let span = tracing::info_span!(
        "consume",
        otel.kind = "consumer",
        messaging.system = "kafka",
        messaging.consumer.group.name = consumer,
        messaging.message.id = %event.id,
        event_type = %event.event_type,
        event_id = %event.id,
    );
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
