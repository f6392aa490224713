//! Kafka events in the CloudEvents Kafka binding, binary mode: the envelope lives in
//! headers (`ce_id`, `ce_type`, `ce_source`, `ce_time`, `content-type`), the value is a
//! protobuf message of `quire.events.v1`, the key is the entity's id, and `traceparent`
//! carries the trace. Production runs real Kafka; nothing here relies on one broker.

use rdkafka::ClientConfig;
use rdkafka::admin::{AdminClient, AdminOptions, NewTopic, TopicReplication};
use rdkafka::client::DefaultClientContext;
use rdkafka::message::{Header, Headers, Message, OwnedHeaders};
use uuid::Uuid;

/// Topics and the event types they carry (DESIGN.md section 6).
pub mod topics {
    pub const USER: &str = "quire.user.v1";
    pub const BOOK: &str = "quire.book.v1";
    pub const TRADE: &str = "quire.trade.v1";
    pub const WALLET: &str = "quire.wallet.v1";
    pub const MANUSCRIPT: &str = "quire.manuscript.v1";
    pub const CAMPAIGN: &str = "quire.campaign.v1";
    pub const ALL: [&str; 6] = [USER, BOOK, TRADE, WALLET, MANUSCRIPT, CAMPAIGN];
}

/// CloudEvents `type` values.
pub mod types {
    pub const USER_REGISTERED: &str = "quire.user.registered.v1";
    /// A book entered the shop (topic `quire.book.v1`).
    pub const BOOK_PUBLISHED: &str = "quire.book.published.v1";
    /// A book changed without entering or leaving the shop.
    pub const BOOK_UPDATED: &str = "quire.book.updated.v1";
    /// A book left the shop (switched off or taken down).
    pub const BOOK_UNPUBLISHED: &str = "quire.book.unpublished.v1";
    /// A purchase was paid (topic `quire.trade.v1`).
    pub const TRADE_COMPLETED: &str = "quire.trade.completed.v1";
    /// Money came into a wallet from outside (topic `quire.wallet.v1`).
    pub const WALLET_RECHARGED: &str = "quire.wallet.recharged.v1";
    /// A manuscript was analysed and its unlisted book made (topic `quire.manuscript.v1`).
    pub const MANUSCRIPT_ANALYZED: &str = "quire.manuscript.analyzed.v1";
    /// A crowd-funding campaign met its goal and was paid out (topic `quire.campaign.v1`).
    pub const CAMPAIGN_FUNDED: &str = "quire.campaign.funded.v1";
    /// A crowd-funding campaign missed its goal; every pledge went back.
    pub const CAMPAIGN_FAILED: &str = "quire.campaign.failed.v1";
}

pub const CONTENT_TYPE: &str = "application/protobuf";

/// One event as produced or consumed.
#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    pub id: Uuid,
    pub event_type: String,
    pub source: String,
    /// RFC 3339
    pub time: String,
    pub key: String,
    pub data: Vec<u8>,
    pub traceparent: Option<String>,
}

impl Event {
    /// The record headers of this event.
    pub fn headers(&self) -> OwnedHeaders {
        let id = self.id.to_string();
        let mut h = OwnedHeaders::new()
            .insert(Header {
                key: "ce_specversion",
                value: Some("1.0"),
            })
            .insert(Header {
                key: "ce_id",
                value: Some(id.as_str()),
            })
            .insert(Header {
                key: "ce_type",
                value: Some(self.event_type.as_str()),
            })
            .insert(Header {
                key: "ce_source",
                value: Some(self.source.as_str()),
            })
            .insert(Header {
                key: "ce_time",
                value: Some(self.time.as_str()),
            })
            .insert(Header {
                key: "content-type",
                value: Some(CONTENT_TYPE),
            });
        if let Some(tp) = &self.traceparent {
            h = h.insert(Header {
                key: "traceparent",
                value: Some(tp.as_str()),
            });
        }
        h
    }

    /// Reads an event from a Kafka record; `None` when it is not a Quire CloudEvent.
    pub fn from_message<M: Message>(m: &M) -> Option<Self> {
        let headers = m.headers()?;
        let get = |k: &str| {
            headers
                .iter()
                .find(|h| h.key == k)
                .and_then(|h| h.value)
                .and_then(|v| std::str::from_utf8(v).ok())
                .map(str::to_owned)
        };
        Some(Self {
            id: Uuid::parse_str(&get("ce_id")?).ok()?,
            event_type: get("ce_type")?,
            source: get("ce_source").unwrap_or_default(),
            time: get("ce_time").unwrap_or_default(),
            key: m
                .key()
                .map(|k| String::from_utf8_lossy(k).into_owned())
                .unwrap_or_default(),
            data: m.payload().unwrap_or_default().to_vec(),
            traceparent: get("traceparent"),
        })
    }
}

/// Settings of an idempotent producer: no duplicates from its own retries, order kept
/// per partition, and every record acknowledged by all in-sync replicas.
pub fn producer_config(brokers: &str) -> ClientConfig {
    let mut c = ClientConfig::new();
    c.set("bootstrap.servers", brokers)
        .set("enable.idempotence", "true")
        .set("acks", "all")
        .set("linger.ms", "2")
        .set("message.timeout.ms", "30000")
        .set("socket.keepalive.enable", "true");
    c
}

/// The topics of `names` the cluster at `brokers` does not have. It reads the metadata of
/// every topic, never of one by name: asking for one by name lets a broker configured to
/// auto-create topics create it, with its own defaults.
pub async fn missing_topics(brokers: &str, names: &[&str]) -> anyhow::Result<Vec<String>> {
    let admin: AdminClient<DefaultClientContext> = ClientConfig::new()
        .set("bootstrap.servers", brokers)
        .create()?;
    let wanted: Vec<String> = names.iter().map(|n| (*n).to_owned()).collect();
    tokio::task::spawn_blocking(move || {
        let metadata = admin
            .inner()
            .fetch_metadata(None, std::time::Duration::from_secs(10))?;
        let there: std::collections::HashSet<&str> = metadata
            .topics()
            .iter()
            .filter(|t| t.error().is_none())
            .map(|t| t.name())
            .collect();
        Ok(wanted
            .into_iter()
            .filter(|n| !there.contains(n.as_str()))
            .collect())
    })
    .await?
}

/// Creates the topics that do not exist yet. Production creates them with Strimzi
/// `KafkaTopic` resources; this keeps a bare local broker and the tests working.
pub async fn ensure_topics(brokers: &str, names: &[&str]) -> anyhow::Result<()> {
    let admin: AdminClient<DefaultClientContext> = ClientConfig::new()
        .set("bootstrap.servers", brokers)
        .create()?;
    let new: Vec<NewTopic> = names
        .iter()
        .map(|n| NewTopic::new(n, 3, TopicReplication::Fixed(1)))
        .collect();
    let opts = AdminOptions::new().operation_timeout(Some(std::time::Duration::from_secs(10)));
    for result in admin.create_topics(&new, &opts).await? {
        match result {
            Ok(_) | Err((_, rdkafka::types::RDKafkaErrorCode::TopicAlreadyExists)) => {}
            Err((topic, code)) => anyhow::bail!("cannot create topic {topic}: {code}"),
        }
    }
    Ok(())
}
