//! The test's own Kafka-compatible broker: tansu 0.6 with SQLite storage in a temporary
//! folder, started as `deploy/local/infra.sh` starts the shared one, on a port of its own.
//! Killing it leaves the shared broker alone, and what it acknowledged survives a restart.
//! Also reads `quire.trade.v1` back from the beginning, as a new consumer would.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use prost::Message as _;
use quire_kit::events::{Event, topics, types};
use quire_proto::events::v1::TradeCompleted;
use rdkafka::consumer::{Consumer, StreamConsumer};
use rdkafka::error::KafkaError;
use rdkafka::{ClientConfig, Offset, TopicPartitionList};
use tokio::process::Command;
use uuid::Uuid;

use super::process::{Supervised, free_port};

/// Where `cargo install tansu` puts the binary (infra.sh's `TANSU_BIN`).
fn tansu_bin() -> PathBuf {
    if let Ok(bin) = std::env::var("QUIRE_TANSU_BIN") {
        return bin.into();
    }
    let home = std::env::var("HOME").unwrap_or_else(|_| "/root".into());
    Path::new(&home).join(".cache/quire/tansu/bin/tansu")
}

pub struct Broker {
    /// `host:port`, as `QUIRE_KAFKA_BROKERS` names it.
    pub addr: String,
    pub process: Supervised,
}

impl Broker {
    /// Starts tansu with its storage in `dir` and waits until it answers.
    pub async fn start(dir: &Path) -> Self {
        let bin = tansu_bin();
        assert!(
            bin.exists(),
            "tansu is not installed at {} (deploy/local/infra.sh up installs it)",
            bin.display()
        );
        let addr = format!("127.0.0.1:{}", free_port());
        let url = format!("tcp://{addr}");
        let storage = dir.to_owned();
        let process = Supervised::new("tansu", dir.join("tansu.log"), move || {
            let mut command = Command::new(&bin);
            // tansu reads generic variables (STORAGE_ENGINE, LISTENER_URL, ...) and `.env`
            // files: none of the test's may reach it. 0.6 resolves a sqlite:// path against
            // the working directory (an absolute one comes out mangled), hence the folder.
            command
                .env_clear()
                // Group membership changes are what goes wrong under churn: keep them.
                .env("RUST_LOG", "warn,tansu_broker::coordinator=info")
                .env("NO_COLOR", "1")
                .current_dir(&storage)
                .args(["broker", "--cluster-id", "quire-bank"])
                .args(["--listener-url", &url, "--advertised-listener-url", &url])
                .args(["--storage-engine", "sqlite://tansu.db"]);
            command
        });
        let broker = Self { addr, process };
        broker.restart().await;
        broker
    }

    /// Starts the broker again (after [`Self::kill`]) and waits until it answers.
    pub async fn restart(&self) {
        self.process.start();
        let until = Instant::now() + Duration::from_secs(30);
        while tokio::net::TcpStream::connect(&self.addr).await.is_err() {
            if let Some(status) = self.process.exited() {
                panic!("tansu exited ({status}):\n{}", self.process.log_tail());
            }
            assert!(
                Instant::now() < until,
                "tansu did not answer on {} within 30 s:\n{}",
                self.addr,
                self.process.log_tail()
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    pub async fn kill(&self) {
        self.process.kill().await;
    }

    /// Whether tansu logged that the leader of consumer group `group` expired (missed its
    /// heartbeats) while the group was forming: how the stranded group described in
    /// bank.rs begins. (tansu 0.6 cannot describe a group over the protocol: its SQLite
    /// storage fails to decode the group it stored.)
    pub fn leader_expired(&self, group: &str) -> bool {
        let log = std::fs::read_to_string(&self.process.log).unwrap_or_default();
        let group = format!(" for {group} ");
        log.lines()
            .any(|line| line.contains("missed heartbeat for leader") && line.contains(&group))
    }

    /// Every `trade.completed` on the broker: trade id -> the ids of the events that
    /// announced it, and how many records were read in all. Reads each partition from its
    /// first offset to its end, outside any consumer group.
    pub async fn trade_events(&self) -> (HashMap<String, HashSet<Uuid>>, usize) {
        // Assigned, not subscribed: no group to join, nothing committed.
        let consumer: StreamConsumer = ClientConfig::new()
            .set("enable.partition.eof", "true")
            .set("bootstrap.servers", &self.addr)
            .set("group.id", "bank-audit")
            .set("enable.auto.commit", "false")
            .create()
            .unwrap();
        let metadata = consumer
            .fetch_metadata(Some(topics::TRADE), Duration::from_secs(10))
            .expect("the broker answers metadata");
        let partitions = metadata.topics()[0].partitions().len();
        assert!(partitions > 0, "{} has no partitions", topics::TRADE);
        let mut assignment = TopicPartitionList::new();
        for p in 0..partitions {
            assignment
                .add_partition_offset(topics::TRADE, p as i32, Offset::Beginning)
                .unwrap();
        }
        consumer.assign(&assignment).unwrap();

        let mut trades: HashMap<String, HashSet<Uuid>> = HashMap::new();
        let (mut records, mut at_end) = (0, HashSet::new());
        let until = Instant::now() + Duration::from_secs(60);
        while at_end.len() < partitions {
            assert!(
                Instant::now() < until,
                "{} not read to its end within 60 s ({records} records)",
                topics::TRADE
            );
            let Ok(next) = tokio::time::timeout(Duration::from_secs(2), consumer.recv()).await
            else {
                continue;
            };
            match next {
                Ok(message) => {
                    records += 1;
                    let event = Event::from_message(&message).expect("a Quire event");
                    assert_eq!(event.event_type, types::TRADE_COMPLETED);
                    let trade = TradeCompleted::decode(event.data.as_slice()).unwrap();
                    assert_eq!(event.key, trade.trade_id, "keyed by the trade id");
                    trades.entry(trade.trade_id).or_default().insert(event.id);
                }
                Err(KafkaError::PartitionEOF(p)) => {
                    at_end.insert(p);
                }
                Err(e) => panic!("reading {}: {e}", topics::TRADE),
            }
        }
        (trades, records)
    }
}
