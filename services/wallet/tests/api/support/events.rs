//! Events to and from the broker, and the wallet's outbox and consumer behind them.

use std::time::Duration;

use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use uuid::Uuid;

use super::{TestApp, WalletLedger, eventually, suffix};

impl TestApp {
    /// Produces a `user.registered` event the way auth's relay does; answers its id.
    pub async fn produce_registered(&self, user_id: &str, invited_by: &str) -> Uuid {
        let data = quire_proto::events::v1::UserRegistered {
            user_id: user_id.into(),
            email: format!("{}@quire.test", suffix()),
            username: format!("user{}", suffix()),
            roles: vec!["reader".into()],
            invited_by: invited_by.into(),
            invite_code: "INVITE".into(),
            registered_at: chrono::Utc::now().to_rfc3339(),
        };
        self.produce(
            quire_kit::events::topics::USER,
            quire_kit::events::types::USER_REGISTERED,
            user_id,
            &data,
        )
        .await
    }

    /// Produces one Quire event (a new event id) to `topic`; answers its id.
    pub async fn produce(
        &self,
        topic: &str,
        event_type: &str,
        key: &str,
        data: &impl prost::Message,
    ) -> Uuid {
        use rdkafka::producer::{FutureProducer, FutureRecord};
        let producer: FutureProducer = quire_kit::events::producer_config(&self.brokers)
            .create()
            .unwrap();
        let event = quire_kit::events::Event {
            id: Uuid::now_v7(),
            event_type: event_type.into(),
            source: "quire-wallet-test".into(),
            time: chrono::Utc::now().to_rfc3339(),
            key: key.into(),
            data: Vec::new(),
            traceparent: None,
        };
        let payload = data.encode_to_vec();
        producer
            .send(
                FutureRecord::to(topic)
                    .key(key)
                    .payload(&payload)
                    .headers(event.headers()),
                Duration::from_secs(10),
            )
            .await
            .map_err(|(e, _)| e)
            .expect("the broker takes the event");
        event.id
    }

    /// Waits until the wallet's consumer has applied event `id`.
    pub async fn until_processed(&self, id: Uuid) {
        use quire_kit::db::schema::processed_events;
        let seen = eventually(30, || async {
            let n: i64 = processed_events::table
                .filter(processed_events::event_id.eq(id))
                .count()
                .get_result(&mut self.conn().await)
                .await
                .unwrap();
            n > 0
        })
        .await;
        assert!(seen, "the wallet consumed event {id}");
    }

    /// The id of the event this wallet wrote for `key` (a trade id, a user id).
    pub async fn outbox_event(&self, key: &str) -> Uuid {
        use quire_kit::db::schema::outbox;
        outbox::table
            .filter(outbox::event_key.eq(key))
            .select(outbox::event_id)
            .first(&mut self.conn().await)
            .await
            .unwrap()
    }

    /// Every `trade.completed` on the broker whose key is `trade_id` (reads the topic to
    /// its end once the first is found, so duplicates would be counted).
    pub async fn trade_events(
        &self,
        trade_id: &str,
    ) -> Vec<quire_proto::events::v1::TradeCompleted> {
        use prost::Message;
        use rdkafka::consumer::{Consumer, StreamConsumer};
        use rdkafka::error::KafkaError;
        use rdkafka::message::Message as _;
        let consumer: StreamConsumer = rdkafka::ClientConfig::new()
            .set("bootstrap.servers", &self.brokers)
            .set("group.id", format!("wallet-test-reader-{}", suffix()))
            .set("auto.offset.reset", "earliest")
            .set("enable.auto.commit", "false")
            .set("enable.partition.eof", "true")
            .create()
            .unwrap();
        consumer
            .subscribe(&[quire_kit::events::topics::TRADE])
            .unwrap();
        let mut found = Vec::new();
        let mut at_end = std::collections::HashSet::new();
        let until = std::time::Instant::now() + Duration::from_secs(30);
        while std::time::Instant::now() < until {
            let Ok(next) = tokio::time::timeout(Duration::from_secs(2), consumer.recv()).await
            else {
                continue;
            };
            match next {
                Ok(m) => {
                    at_end.remove(&m.partition());
                    if m.key() == Some(trade_id.as_bytes()) {
                        let event = quire_kit::events::Event::from_message(&m).unwrap();
                        assert_eq!(event.event_type, quire_kit::events::types::TRADE_COMPLETED);
                        found.push(
                            quire_proto::events::v1::TradeCompleted::decode(event.data.as_slice())
                                .unwrap(),
                        );
                    }
                }
                Err(KafkaError::PartitionEOF(p)) => {
                    at_end.insert(p);
                }
                Err(e) => panic!("kafka: {e}"),
            }
            if !found.is_empty() && at_end.len() == 3 {
                break;
            }
        }
        found
    }
}
