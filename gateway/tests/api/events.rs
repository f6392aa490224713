use std::time::Duration;

use prost::Message as _;
use quire_proto::events::v1::UserRegistered;
use rdkafka::ClientConfig;
use rdkafka::consumer::{Consumer, StreamConsumer};
use rdkafka::message::{Headers, Message};

use crate::support::{TestApp, unique_email};

#[tokio::test(flavor = "multi_thread")]
async fn registering_publishes_user_registered_through_the_broker() {
    let app = TestApp::spawn().await;
    let consumer: StreamConsumer = ClientConfig::new()
        .set("bootstrap.servers", &app.brokers)
        .set("group.id", format!("test-{}", app.schema))
        .set("auto.offset.reset", "earliest")
        .set("enable.auto.commit", "false")
        .create()
        .unwrap();
    consumer.subscribe(&["quire.user.v1"]).unwrap();

    let email = unique_email();
    let user = app.register(&email, "s3cret-pass", None).await;
    let user_id = user["user_id"].as_str().unwrap().to_owned();

    let found = tokio::time::timeout(Duration::from_secs(30), async {
        loop {
            let m = consumer.recv().await.expect("broker answers");
            if m.key() != Some(user_id.as_bytes()) {
                continue;
            }
            let header = |k: &str| {
                m.headers()
                    .and_then(|h| h.iter().find(|x| x.key == k))
                    .and_then(|x| x.value)
                    .map(|v| String::from_utf8_lossy(v).into_owned())
            };
            let event = UserRegistered::decode(m.payload().unwrap()).unwrap();
            return (
                event,
                header("ce_type"),
                header("ce_id"),
                header("content-type"),
            );
        }
    })
    .await
    .expect("user.registered arrives within 30 s");
    let (event, ce_type, ce_id, content_type) = found;
    assert_eq!(event.email, email);
    assert_eq!(event.roles, ["reader"]);
    assert_eq!(ce_type.as_deref(), Some("quire.user.registered.v1"));
    assert!(ce_id.is_some_and(|id| uuid::Uuid::parse_str(&id).is_ok()));
    assert_eq!(content_type.as_deref(), Some("application/protobuf"));
}
