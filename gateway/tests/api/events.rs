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

    // The browser's trace (W3C traceparent) must follow the call through the gateway, the
    // gRPC hop and the outbox into the event's headers.
    let trace_id = "4bf92f3577b34da6a3ce929d0e0e4736";
    let email = unique_email();
    let code = app.mailed_code(&email).await;
    let (s, body) = app
        .send(
            app.http
                .post(app.url("/api/register/"))
                .header("traceparent", format!("00-{trace_id}-00f067aa0ba902b7-01"))
                .json(&serde_json::json!({"email": email, "password": "s3cret-pass", "verify_code": code})),
        )
        .await;
    assert_eq!(s, 200, "{body}");
    let user_id = body["data"]["user_id"].as_str().unwrap().to_owned();

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
                header("traceparent"),
            );
        }
    })
    .await
    .expect("user.registered arrives within 30 s");
    let (event, ce_type, ce_id, content_type, traceparent) = found;
    assert!(
        traceparent.as_deref().is_some_and(|t| t.contains(trace_id)),
        "the event continues the caller's trace: {traceparent:?}"
    );
    assert_eq!(event.email, email);
    assert_eq!(event.roles, ["reader"]);
    assert_eq!(ce_type.as_deref(), Some("quire.user.registered.v1"));
    assert!(ce_id.is_some_and(|id| uuid::Uuid::parse_str(&id).is_ok()));
    assert_eq!(content_type.as_deref(), Some("application/protobuf"));
}
