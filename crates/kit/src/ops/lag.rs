//! How far a consumer group is behind on a topic, asked of the broker the way Kafka's own
//! tools ask: the group's committed offset against each partition's high watermark.
//!
//! A client with the group's id that never subscribes only reads the group's offsets: it
//! does not join the group, so asking never moves a partition between the service's
//! consumers.

use std::time::Duration;

use rdkafka::consumer::{BaseConsumer, Consumer};
use rdkafka::{ClientConfig, Offset, TopicPartitionList};

use crate::KitError;

/// How long each question to the broker may take: a status page must answer even when
/// the broker does not.
const ASK_TIMEOUT: Duration = Duration::from_secs(2);

/// One group of the service and the topics it reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConsumerGroup {
    pub group: String,
    pub topics: Vec<String>,
}

/// The lag of `group` on each of `topics`, in their order; -1 for a topic the broker could
/// not be asked about. Blocks on the broker: run it off the async threads.
pub fn lag_blocking(brokers: &str, group: &ConsumerGroup) -> Vec<(String, i64)> {
    let consumer = match client(brokers, &group.group) {
        Ok(c) => c,
        Err(error) => {
            tracing::warn!(%error, group = %group.group, "cannot make a client to ask for lag");
            return group.topics.iter().map(|t| (t.clone(), -1)).collect();
        }
    };
    group
        .topics
        .iter()
        .map(|topic| {
            let lag = topic_lag(&consumer, topic).unwrap_or_else(|error| {
                tracing::warn!(%error, group = %group.group, topic, "cannot ask for lag");
                -1
            });
            (topic.clone(), lag)
        })
        .collect()
}

/// A client that reads `group`'s offsets without joining it.
pub(crate) fn client(brokers: &str, group: &str) -> Result<BaseConsumer, KitError> {
    ClientConfig::new()
        .set("bootstrap.servers", brokers)
        .set("group.id", group)
        .set("enable.auto.commit", "false")
        .set("socket.timeout.ms", "2000")
        .create()
        .map_err(kafka)
}

/// The sum over `topic`'s partitions of the records after the group's committed offset (from
/// the low watermark for a partition the group never committed).
fn topic_lag(consumer: &BaseConsumer, topic: &str) -> Result<i64, KitError> {
    Ok(partition_offsets(consumer, topic)?
        .iter()
        .map(|p| (p.high - p.committed).max(0))
        .sum())
}

/// Where the group of `consumer` stands on one partition.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct PartitionOffsets {
    pub partition: i32,
    /// The group's committed offset (the low watermark while it never committed).
    pub committed: i64,
    /// The offset the next record written will get.
    pub high: i64,
}

/// The group's committed offset and the high watermark of each of `topic`'s partitions.
pub(crate) fn partition_offsets(
    consumer: &BaseConsumer,
    topic: &str,
) -> Result<Vec<PartitionOffsets>, KitError> {
    let metadata = consumer
        .fetch_metadata(Some(topic), ASK_TIMEOUT)
        .map_err(kafka)?;
    let partitions: Vec<i32> = metadata
        .topics()
        .iter()
        .filter(|t| t.name() == topic && t.error().is_none())
        .flat_map(|t| t.partitions().iter().map(|p| p.id()))
        .collect();
    if partitions.is_empty() {
        return Err(KitError::Kafka(format!("topic {topic} has no partitions")));
    }
    let mut asked = TopicPartitionList::new();
    for p in &partitions {
        asked.add_partition(topic, *p);
    }
    let committed = consumer
        .committed_offsets(asked, ASK_TIMEOUT)
        .map_err(kafka)?;
    partitions
        .into_iter()
        .map(|partition| {
            let (low, high) = consumer
                .fetch_watermarks(topic, partition, ASK_TIMEOUT)
                .map_err(kafka)?;
            let committed = match committed
                .find_partition(topic, partition)
                .map(|e| e.offset())
            {
                Some(Offset::Offset(n)) => n,
                _ => low,
            };
            Ok(PartitionOffsets {
                partition,
                committed,
                high,
            })
        })
        .collect()
}

fn kafka(e: rdkafka::error::KafkaError) -> KitError {
    KitError::Kafka(e.to_string())
}
