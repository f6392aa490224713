//! The transactional outbox. A service writes its event with [`enqueue`] inside the same
//! transaction as the change the event announces; the [`Relay`] publishes committed rows
//! in order with an idempotent producer and marks them sent. A crash between sending and
//! marking sends a row again with the same `ce_id`, which consumers drop
//! (see [`crate::consumer`]): no change without its event, no event applied twice.

use std::time::Duration;

use diesel::prelude::*;
use diesel_async::scoped_futures::ScopedFutureExt;
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use rdkafka::producer::{FutureProducer, FutureRecord};
use uuid::Uuid;

use crate::db::schema::outbox;
use crate::db::{DbError, PgPool};
use crate::events::{Event, producer_config};

#[derive(Insertable)]
#[diesel(table_name = outbox)]
struct NewRow<'a> {
    event_id: Uuid,
    topic: &'a str,
    event_key: &'a str,
    event_type: &'a str,
    source: &'a str,
    payload: Vec<u8>,
    traceparent: Option<String>,
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
    let event_id = Uuid::now_v7();
    diesel::insert_into(outbox::table)
        .values(NewRow {
            event_id,
            topic,
            event_key: key,
            event_type,
            source,
            payload: data.encode_to_vec(),
            traceparent: crate::telemetry::current_traceparent(),
        })
        .execute(conn)
        .await?;
    Ok(event_id)
}

/// Publishes the outbox of one schema until the process stops.
pub struct Relay {
    pool: PgPool,
    producer: FutureProducer,
    poll: Duration,
    batch: i64,
}

impl Relay {
    pub fn new(pool: PgPool, brokers: &str, poll: Duration) -> anyhow::Result<Self> {
        let producer: FutureProducer = producer_config(brokers).create()?;
        Ok(Self {
            pool,
            producer,
            poll,
            batch: 500,
        })
    }

    /// Runs until `stop` resolves; failures are logged and retried with backoff.
    pub async fn run(self, stop: impl std::future::Future<Output = ()>) {
        tokio::pin!(stop);
        let mut backoff = self.poll;
        loop {
            let wait = match self.publish_batch().await {
                Ok(0) => self.poll,
                Ok(n) => {
                    metrics::counter!("quire_outbox_published_total").increment(n as u64);
                    backoff = self.poll;
                    Duration::ZERO
                }
                Err(error) => {
                    tracing::warn!(%error, "outbox relay failed, will retry");
                    backoff = (backoff * 2).min(Duration::from_secs(5));
                    backoff
                }
            };
            tokio::select! {
                () = &mut stop => return,
                () = tokio::time::sleep(wait) => {}
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
                let locked: bool = diesel::select(diesel::dsl::sql::<diesel::sql_types::Bool>(
                    "pg_try_advisory_xact_lock(hashtext(current_schema() || '.outbox'))",
                ))
                .get_result(conn)
                .await?;
                if !locked {
                    return Ok(0);
                }
                let rows: Vec<Row> = outbox::table
                    .filter(outbox::published_at.is_null())
                    .order(outbox::seq)
                    .limit(batch)
                    .select(Row::as_select())
                    .load(conn)
                    .await?;
                if rows.is_empty() {
                    return Ok(0);
                }
                let sends = rows.iter().map(|r| {
                    let event = Event {
                        id: r.event_id,
                        event_type: r.event_type.clone(),
                        source: r.source.clone(),
                        time: r.created_at.to_rfc3339(),
                        key: r.event_key.clone(),
                        data: Vec::new(),
                        traceparent: r.traceparent.clone(),
                    };
                    let record = FutureRecord::to(&r.topic)
                        .key(&r.event_key)
                        .payload(&r.payload)
                        .headers(event.headers());
                    producer.send(record, Duration::from_secs(30))
                });
                // All or nothing: if one send fails, the batch stays unsent and is retried.
                for result in futures::future::join_all(sends).await {
                    if let Err((error, _)) = result {
                        return Err(DbError::Kafka(format!("send failed: {error}")));
                    }
                }
                let seqs: Vec<i64> = rows.iter().map(|r| r.seq).collect();
                diesel::update(outbox::table.filter(outbox::seq.eq_any(&seqs)))
                    .set(outbox::published_at.eq(diesel::dsl::now))
                    .execute(conn)
                    .await?;
                Ok(rows.len())
            }
            .scope_boxed()
        })
        .await
    }
}
