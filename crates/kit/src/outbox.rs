//! The transactional outbox. A service writes its event with [`enqueue`] inside the same
//! transaction as the change the event announces; the [`Relay`] publishes committed rows
//! in order with an idempotent producer and marks them sent. A crash between sending and
//! marking sends a row again with the same `ce_id`, which consumers drop
//! (see [`crate::consumer`]): no change without its event, no event applied twice.
//!
//! The relay polls, and a writer that committed events calls [`Wake::wake`] on its
//! service's [`Wake`] so that its own relay sends them at once. Not Postgres NOTIFY: a
//! transaction that notifies holds a cluster-wide lock from its commit until the commit is
//! flushed to disk, so notifying writers commit one at a time (measured here: 2,700
//! commits/s at 32 clients without it, 500 with it). Events a writer in another process
//! commits wait for the poll. A wake reaches one relay only, the writer's own: several
//! services sharing a process (tests, benches) must not each run a pass of their relay,
//! an empty transaction, for another service's events.

use std::sync::Arc;
use std::time::Duration;

use diesel::prelude::*;
use diesel::result::QueryResult;
use diesel::sql_types::{Array, BigInt, Bytea, Nullable, Text};
use diesel_async::scoped_futures::ScopedFutureExt;
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use futures::future::BoxFuture;
use rdkafka::producer::{FutureProducer, FutureRecord};
use tokio::sync::Notify;
use tracing::Instrument;
use uuid::Uuid;

use crate::db::schema::outbox;
use crate::db::{DbError, PgPool, prepared};
use crate::events::{Event, producer_config};

/// The answer of the relay's try-lock.
#[derive(QueryableByName)]
struct Locked {
    #[diesel(sql_type = diesel::sql_types::Bool)]
    locked: bool,
}

/// The bell of one service's relay: a clone goes to the code that writes the service's
/// events, the relay listens on another.
#[derive(Clone, Debug, Default)]
pub struct Wake(Arc<Notify>);

impl Wake {
    /// Tells the relay that a transaction which enqueued events committed, so that it
    /// sends them now rather than at its next poll. Call it after the commit: a relay
    /// woken before would find nothing yet. Cheap, and harmless when nothing was enqueued
    /// (the relay looks once more).
    pub fn wake(&self) {
        // A relay busy publishing keeps the permit and looks again right after.
        self.0.notify_one();
    }
}

#[derive(Queryable, Selectable)]
#[diesel(table_name = outbox)]
struct Row {
    seq: i64,
    event_id: Uuid,
    topic: String,
    event_key: String,
    event_type: String,
    source: String,
    payload: Vec<u8>,
    traceparent: Option<String>,
    created_at: chrono::DateTime<chrono::Utc>,
}

/// Records an event in the caller's transaction; returns its id (`ce_id`).
pub async fn enqueue(
    conn: &mut AsyncPgConnection,
    topic: &str,
    key: &str,
    event_type: &str,
    source: &str,
    data: &impl prost::Message,
) -> Result<Uuid, diesel::result::Error> {
    let (event_id, insert) = enqueue_statement(conn, topic, key, event_type, source, data);
    insert.await?;
    Ok(event_id)
}

/// [`enqueue`] as a statement not yet awaited, for a caller sending several statements in
/// one round trip (see [`crate::db`], *Pipelining*); the id is the event's `ce_id`.
pub fn enqueue_statement<'q>(
    conn: &mut AsyncPgConnection,
    topic: &'q str,
    key: &'q str,
    event_type: &'q str,
    source: &'q str,
    data: &impl prost::Message,
) -> (Uuid, BoxFuture<'q, QueryResult<usize>>) {
    let event_id = Uuid::now_v7();
    let insert = prepared(
        "INSERT INTO outbox (event_id, topic, event_key, event_type, source, payload, \
         traceparent) VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind::<diesel::sql_types::Uuid, _>(event_id)
    .bind::<Text, _>(topic)
    .bind::<Text, _>(key)
    .bind::<Text, _>(event_type)
    .bind::<Text, _>(source)
    .bind::<Bytea, _>(data.encode_to_vec())
    .bind::<Nullable<Text>, _>(crate::telemetry::current_traceparent())
    .execute(conn);
    (event_id, insert)
}

/// Publishes the outbox of one schema until the process stops.
pub struct Relay {
    pool: PgPool,
    producer: FutureProducer,
    poll: Duration,
    batch: i64,
    /// Rung by the service's writers (see [`Wake`]).
    woken: Wake,
}

impl Relay {
    pub fn new(pool: PgPool, brokers: &str, poll: Duration, woken: Wake) -> anyhow::Result<Self> {
        let producer: FutureProducer = producer_config(brokers).create()?;
        Ok(Self {
            pool,
            producer,
            poll,
            batch: 500,
            woken,
        })
    }

    /// Runs until `stop` resolves, publishing when woken (see [`Wake`]) or every `poll`;
    /// failures are logged and retried with backoff (wake-ups do not cut a backoff short).
    pub async fn run(self, stop: impl std::future::Future<Output = ()>) {
        tokio::pin!(stop);
        let mut backoff = self.poll;
        loop {
            let (wait, failing) = match self.publish_batch().await {
                Ok(0) => (self.poll, false),
                Ok(n) => {
                    metrics::counter!("quire_outbox_published_total").increment(n as u64);
                    backoff = self.poll;
                    (Duration::ZERO, false)
                }
                Err(error) => {
                    tracing::warn!(%error, "outbox relay failed, will retry");
                    backoff = (backoff * 2).min(Duration::from_secs(5));
                    (backoff, true)
                }
            };
            tokio::select! {
                () = &mut stop => return,
                () = tokio::time::sleep(wait) => {}
                () = self.woken.0.notified(), if !failing => {}
            }
        }
    }

    /// Sends the oldest unsent events and marks them sent; returns how many.
    ///
    /// The transaction-scoped advisory lock lets one relay per schema work at a time, so
    /// two replicas never interleave one entity's events out of order.
    pub async fn publish_batch(&self) -> Result<usize, DbError> {
        let mut conn = crate::db::conn(&self.pool).await?;
        let producer = &self.producer;
        let batch = self.batch;
        conn.transaction::<usize, DbError, _>(|conn| {
            async move {
                // Marking rows sent need not wait for the disk: a mark lost in a crash
                // only sends those events again, which consumers drop by their id. So
                // this commit does not queue with the writers' for the WAL flush.
                let relaxed =
                    prepared("SELECT set_config('synchronous_commit', 'off', true)").execute(conn);
                // Prepared once per connection: every relay pass (a poll or a wake) asks.
                let lock = prepared(
                    "SELECT pg_try_advisory_xact_lock(hashtext(current_schema() || '.outbox')) \
                     AS locked",
                )
                .get_result::<Locked>(conn);
                // Read in the same round trip (see crate::db, Pipelining), and thrown
                // away when another relay holds the lock.
                let unsent = outbox::table
                    .filter(outbox::published_at.is_null())
                    .order(outbox::seq)
                    .limit(batch)
                    .select(Row::as_select())
                    .load::<Row>(conn);
                let (relaxed, lock, unsent) = futures::join!(relaxed, lock, unsent);
                relaxed?;
                if !lock?.locked {
                    return Ok(0);
                }
                let rows = unsent?;
                if rows.is_empty() {
                    return Ok(0);
                }
                let sends = rows.iter().map(|r| {
                    let span = publish_span(r);
                    let event = Event {
                        id: r.event_id,
                        event_type: r.event_type.clone(),
                        source: r.source.clone(),
                        time: r.created_at.to_rfc3339(),
                        key: r.event_key.clone(),
                        data: Vec::new(),
                        // Consumers continue the trace from the send, not from the write.
                        traceparent: span.in_scope(crate::telemetry::current_traceparent),
                    };
                    let record = FutureRecord::to(&r.topic)
                        .key(&r.event_key)
                        .payload(&r.payload)
                        .headers(event.headers());
                    producer
                        .send(record, Duration::from_secs(30))
                        .instrument(span)
                });
                // All or nothing: if one send fails, the batch stays unsent and is retried.
                for result in futures::future::join_all(sends).await {
                    if let Err((error, _)) = result {
                        return Err(DbError::Kafka(format!("send failed: {error}")));
                    }
                }
                let seqs: Vec<i64> = rows.iter().map(|r| r.seq).collect();
                prepared("UPDATE outbox SET published_at = now() WHERE seq = ANY($1)")
                    .bind::<Array<BigInt>, _>(seqs)
                    .execute(conn)
                    .await?;
                Ok(rows.len())
            }
            .scope_boxed()
        })
        .await
    }
}

/// The span of one event's send, a child of the request that wrote the event (its
/// `traceparent`, stored with the row): a trace goes on from a request to the consumers of
/// the events it wrote, however long the event waited in the outbox.
fn publish_span(row: &Row) -> tracing::Span {
    let span = tracing::info_span!(
        "publish",
        otel.name = format!("{} publish", row.topic),
        otel.kind = "producer",
        messaging.system = "kafka",
        messaging.destination.name = %row.topic,
        messaging.message.id = %row.event_id,
        event_type = %row.event_type,
    );
    if let Some(tp) = &row.traceparent {
        let mut carrier = http::HeaderMap::new();
        crate::telemetry::Carrier::set(&mut carrier, "traceparent", tp.clone());
        crate::telemetry::set_parent_from(&span, &carrier);
    }
    span
}
