//! The bench's view of `quire.trade.v1`: a consumer that notes when each
//! `trade.completed` arrives, and the services' consumer groups moved to the topics' end.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use prost::Message as _;
use quire_kit::events::{topics, types};
use quire_proto::events::v1::TradeCompleted;
use rdkafka::consumer::{Consumer, StreamConsumer};
use rdkafka::{Offset, TopicPartitionList};

use super::wall_us;

/// One received `trade.completed`: when it arrived (monotonic and wall clock) and the
/// `completed_at` it carries (the trade row's time, set in the transaction).
#[derive(Clone, Copy)]
pub struct Received {
    pub at: Instant,
    pub wall_us: i64,
    pub completed_us: i64,
}

/// Arrivals by trade id.
pub type Inbox = Arc<Mutex<HashMap<String, Received>>>;

pub fn rfc3339_us(t: &str) -> i64 {
    chrono::DateTime::parse_from_rfc3339(t)
        .map(|d| d.timestamp_micros())
        .unwrap_or(0)
}

/// How long the bench's consumer lets the broker hold a fetch. Kafka answers a fetch as
/// soon as data arrives; tansu holds every fetch for its whole wait (500 ms by default)
/// and only then answers, so the bench asks for short fetches to time the outbox and the
/// broker rather than tansu's polling. Short fetches cost tansu CPU (about 0.1 core per
/// consumer here), which is why the services keep the default.
pub const FETCH_WAIT_MS: &str = "25";

/// Consumes `quire.trade.v1` from its end, with the settings of the services' own
/// consumers but a short fetch wait, and notes when each `trade.completed` arrives.
pub fn listen(brokers: &str) -> anyhow::Result<Inbox> {
    let consumer: StreamConsumer =
        quire_kit::consumer::client_config(brokers, "quire-bench-trades")
            .set("enable.auto.commit", "false")
            .set("fetch.wait.max.ms", FETCH_WAIT_MS)
            .create()?;
    // The current ends, not Offset::End: that one is looked up only when the first fetch
    // starts, which would skip the events of the first trades.
    let mut tpl = TopicPartitionList::new();
    for p in 0..partitions(&consumer, topics::TRADE)? {
        let (_, high) = consumer.fetch_watermarks(topics::TRADE, p, Duration::from_secs(10))?;
        tpl.add_partition_offset(topics::TRADE, p, Offset::Offset(high))?;
    }
    consumer.assign(&tpl)?;
    let inbox: Inbox = Arc::default();
    let into = inbox.clone();
    tokio::spawn(async move {
        loop {
            let Ok(m) = consumer.recv().await else {
                continue;
            };
            let (at, wall) = (Instant::now(), wall_us());
            let Some(event) = quire_kit::events::Event::from_message(&m) else {
                continue;
            };
            if event.event_type != types::TRADE_COMPLETED {
                continue;
            }
            let completed_us = TradeCompleted::decode(event.data.as_slice())
                .map(|t| rfc3339_us(&t.completed_at))
                .unwrap_or(0);
            into.lock().unwrap().insert(
                event.key,
                Received {
                    at,
                    wall_us: wall,
                    completed_us,
                },
            );
        }
    });
    Ok(inbox)
}

fn partitions<C: Consumer>(consumer: &C, topic: &str) -> anyhow::Result<i32> {
    let meta = consumer.fetch_metadata(Some(topic), Duration::from_secs(10))?;
    Ok(meta
        .topics()
        .first()
        .map_or(0, |t| t.partitions().len() as i32))
}
