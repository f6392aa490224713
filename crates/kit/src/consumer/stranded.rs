//! Partitions no member of a group consumes, found by watching the group's offsets.
//!
//! A member that dies without leaving (SIGKILL, a lost node) holds its partitions until the
//! coordinator expires its session and starts a new generation. Kafka does that. A broker
//! whose coordinator drops the dead member but keeps the generation and the old assignment
//! (tansu 0.6, which local stacks and the tests run on, does when a heartbeat is what notices
//! the dead member) leaves the dead member's partitions with no consumer, for good.
//!
//! So each member watches its group: a partition with records after the group's committed
//! offset, whose committed offset has not moved for [`STRANDED_AFTER`], and which is not
//! among this member's own, is stranded. The consumer then leaves the group and joins it
//! again, which starts a new generation on any broker. On a healthy group that never
//! happens: a live member commits what it consumed every few seconds.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use rdkafka::TopicPartitionList;
use rdkafka::consumer::BaseConsumer;

use crate::ops::lag::{PartitionOffsets, client, partition_offsets};

/// How often a consumer looks at its group's offsets.
pub const LOOK_EVERY: Duration = Duration::from_secs(5);

/// How long a partition may stay behind with its committed offset standing still before it
/// counts as stranded: well past the auto-commit interval (5 s) of a live member, so that a
/// member busy with a large batch is not taken for a dead one.
pub const STRANDED_AFTER: Duration = Duration::from_secs(30);

/// What a consumer remembers of its group's partitions between looks.
pub(super) struct Watch {
    client: Arc<BaseConsumer>,
    topics: Vec<String>,
    /// Per partition behind: its committed offset and since when it stood there.
    standing: HashMap<(String, i32), (i64, Instant)>,
}

impl Watch {
    /// A watch of `group` on `topics`: its own client, which reads the group's offsets
    /// without joining it.
    pub(super) fn new(brokers: &str, group: &str, topics: &[&str]) -> anyhow::Result<Self> {
        Ok(Self {
            client: Arc::new(client(brokers, group)?),
            topics: topics.iter().map(|t| (*t).to_owned()).collect(),
            standing: HashMap::new(),
        })
    }

    /// Looks at the group's offsets once; answers the partitions stranded now. `own` is this
    /// member's assignment, whose partitions it consumes itself. A broker that cannot be
    /// asked strands nothing.
    pub(super) async fn look(&mut self, own: &TopicPartitionList) -> Vec<(String, i32)> {
        let (client, topics) = (self.client.clone(), self.topics.clone());
        let asked = tokio::task::spawn_blocking(move || {
            topics
                .iter()
                .map(|topic| (topic.clone(), partition_offsets(&client, topic)))
                .collect::<Vec<_>>()
        })
        .await;
        let Ok(asked) = asked else { return Vec::new() };
        let mut offsets = Vec::new();
        for (topic, answer) in asked {
            match answer {
                Ok(partitions) => {
                    offsets.extend(partitions.into_iter().map(|p| (topic.clone(), p)))
                }
                Err(error) => tracing::debug!(%error, topic, "cannot watch the group's offsets"),
            }
        }
        let now = Instant::now();
        self.note(&offsets, now)
            .into_iter()
            .filter(|(topic, partition)| own.find_partition(topic, *partition).is_none())
            .collect()
    }

    /// Forgets what it saw: after a rejoin every partition gets a fresh start.
    pub(super) fn forget(&mut self) {
        self.standing.clear();
    }

    /// Records `offsets` seen at `now`; answers the partitions that have stood behind for
    /// [`STRANDED_AFTER`].
    fn note(&mut self, offsets: &[(String, PartitionOffsets)], now: Instant) -> Vec<(String, i32)> {
        let mut stranded = Vec::new();
        for (topic, p) in offsets {
            let key = (topic.clone(), p.partition);
            if p.committed >= p.high {
                self.standing.remove(&key);
                continue;
            }
            let entry = self.standing.entry(key).or_insert((p.committed, now));
            if entry.0 != p.committed {
                *entry = (p.committed, now);
            } else if now.duration_since(entry.1) >= STRANDED_AFTER {
                stranded.push((topic.clone(), p.partition));
            }
        }
        stranded
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(partition: i32, committed: i64, high: i64) -> (String, PartitionOffsets) {
        (
            "t".to_owned(),
            PartitionOffsets {
                partition,
                committed,
                high,
            },
        )
    }

    fn watch() -> Watch {
        Watch {
            client: Arc::new(client("127.0.0.1:1", "g").unwrap()),
            topics: vec!["t".into()],
            standing: HashMap::new(),
        }
    }

    #[test]
    fn a_partition_behind_and_standing_still_is_stranded_after_the_bound() {
        let (mut w, t0) = (watch(), Instant::now());
        assert!(w.note(&[at(0, 5, 9), at(1, 3, 3)], t0).is_empty());
        let almost = t0 + STRANDED_AFTER - Duration::from_secs(1);
        assert!(w.note(&[at(0, 5, 9), at(1, 3, 3)], almost).is_empty());
        assert_eq!(
            w.note(&[at(0, 5, 9), at(1, 3, 3)], t0 + STRANDED_AFTER),
            vec![("t".to_owned(), 0)],
            "partition 0 stood at 5 of 9; partition 1 is caught up"
        );
    }

    #[test]
    fn a_partition_that_moves_or_catches_up_starts_afresh() {
        let (mut w, t0) = (watch(), Instant::now());
        w.note(&[at(0, 5, 9), at(1, 2, 4)], t0);
        let later = t0 + STRANDED_AFTER;
        // Partition 0 moved on; partition 1 caught up, then fell behind again.
        w.note(&[at(0, 6, 9), at(1, 4, 4)], later - Duration::from_secs(1));
        assert!(w.note(&[at(0, 6, 9), at(1, 4, 6)], later).is_empty());
        w.forget();
        assert!(w.note(&[at(0, 6, 9)], later + STRANDED_AFTER).is_empty());
    }
}
