//! The OpsService against the real Postgres and broker: the outbox backlog and consumer lag
//! it reports, and that it answers admins only, behind the interceptor a service serves with.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test stops at the first surprise

mod support;

use std::time::Duration;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;

use diesel_migrations::embed_migrations;
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use quire_kit::app::{Core, Spec};
use quire_kit::caller::{Caller, Claims, TokenVerifier};
use quire_kit::config::CommonConfig;
use quire_kit::ops::{ConsumerGroup, OpsApi};
use quire_proto::ops::v1 as pb;
use quire_proto::ops::v1::ops_service_client::OpsServiceClient;
use quire_proto::ops::v1::ops_service_server::OpsService;
use rdkafka::consumer::{BaseConsumer, CommitMode, Consumer};
use rdkafka::producer::{FutureProducer, FutureRecord};
use rdkafka::{Offset, TopicPartitionList};
use uuid::Uuid;

/// A fresh topic holding one record, on partition 0.
async fn topic_with_one_record() -> String {
    let topic = format!("quire.test.ops-{}", support::suffix());
    quire_kit::events::ensure_topics(&support::brokers(), &[&topic])
        .await
        .unwrap();
    let producer: FutureProducer = quire_kit::events::producer_config(&support::brokers())
        .create()
        .unwrap();
    producer
        .send(
            FutureRecord::to(&topic).key("k").payload("v").partition(0),
            Duration::from_secs(10),
        )
        .await
        .unwrap();
    topic
}

fn claims(roles: &[&str]) -> Claims {
    let now = chrono::Utc::now().timestamp();
    Claims {
        sub: Uuid::now_v7(),
        role: roles[0].into(),
        roles: roles.iter().map(|r| (*r).to_owned()).collect(),
        jti: Uuid::now_v7(),
        sid: None,
        iat: now,
        exp: now + 600,
        iss: quire_kit::caller::ISSUER.into(),
        aud: quire_kit::caller::AUDIENCE.into(),
    }
}

fn admin_request<T>(message: T) -> tonic::Request<T> {
    let mut request = tonic::Request::new(message);
    request.extensions_mut().insert(Caller {
        claims: claims(&["admin"]),
        token: String::new(),
    });
    request
}

#[tokio::test(flavor = "multi_thread")]
async fn the_status_counts_unpublished_events_and_records_a_group_has_not_committed() {
    let (_, pool) = support::fresh_schema("kit_ops").await;
    let topic = topic_with_one_record().await;
    // No relay runs here: the event stays in the outbox.
    let mut conn = quire_kit::db::conn(&pool).await.unwrap();
    quire_kit::outbox::enqueue(
        &mut conn,
        &topic,
        "k",
        "quire.test.v1",
        "kit-tests",
        &quire_proto::events::v1::UserRegistered::default(),
    )
    .await
    .unwrap();

    // One group never read the topic; another committed past its one record.
    let (idle, caught_up) = (
        format!("kit-ops-idle-{}", support::suffix()),
        format!("kit-ops-done-{}", support::suffix()),
    );
    let committer: BaseConsumer =
        quire_kit::consumer::client_config(&support::brokers(), &caught_up)
            .create()
            .unwrap();
    let mut done = TopicPartitionList::new();
    done.add_partition_offset(&topic, 0, Offset::Offset(1))
        .unwrap();
    committer.commit(&done, CommitMode::Sync).unwrap();

    let group = |group: &str| ConsumerGroup {
        group: group.to_owned(),
        topics: vec![topic.clone()],
    };
    let ops = OpsApi::new(
        "kit_ops",
        pool.clone(),
        &support::brokers(),
        vec![group(&idle), group(&caught_up)],
    );
    let status = ops
        .get_ops_status(admin_request(pb::GetOpsStatusRequest {}))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(status.service, "kit_ops");
    assert_eq!(status.outbox_pending, 1);
    assert!(status.outbox_oldest_secs >= 0.0);
    let lag = |group: &str, lag| pb::ConsumerLag {
        group: group.to_owned(),
        topic: topic.clone(),
        lag,
    };
    assert_eq!(status.consumers, [lag(&idle, 1), lag(&caught_up, 0)]);

    // The idle group catches up. The answer is kept for a few seconds; once it is older,
    // the next ask still shows it while a new one is asked, and a later ask shows the new.
    let catching_up: BaseConsumer = quire_kit::consumer::client_config(&support::brokers(), &idle)
        .create()
        .unwrap();
    catching_up.commit(&done, CommitMode::Sync).unwrap();
    let consumers = || async {
        ops.get_ops_status(admin_request(pb::GetOpsStatusRequest {}))
            .await
            .unwrap()
            .into_inner()
            .consumers
    };
    assert_eq!(consumers().await, [lag(&idle, 1), lag(&caught_up, 0)]);
    tokio::time::sleep(quire_kit::ops::LAG_FRESH_FOR).await;
    assert_eq!(consumers().await, [lag(&idle, 1), lag(&caught_up, 0)]);
    let mut seen = consumers().await;
    for _ in 0..50 {
        if seen[0].lag == 0 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        seen = consumers().await;
    }
    assert_eq!(seen, [lag(&idle, 0), lag(&caught_up, 0)]);

    // A broker that cannot be asked gives -1, not a failed call.
    let unreachable = OpsApi::new("kit_ops", pool, "127.0.0.1:1", vec![group(&idle)]);
    let status = unreachable
        .get_ops_status(admin_request(pb::GetOpsStatusRequest {}))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(status.consumers, [lag(&idle, -1)]);
}

/// Signs tokens that a [`TokenVerifier`] loaded with [`Self::jwks`] accepts.
struct Signer {
    key: EncodingKey,
    jwks: String,
}

impl Signer {
    fn new() -> Self {
        use ed25519_dalek::pkcs8::EncodePrivateKey;
        let signing = ed25519_dalek::SigningKey::generate(&mut rand::rngs::OsRng);
        let pem = signing.to_pkcs8_pem(Default::default()).unwrap();
        let key = EncodingKey::from_ed_pem(pem.as_bytes()).unwrap();
        let public = signing.verifying_key().to_bytes();
        let jwks = serde_json::json!({
            "keys": [{
                "kty": "OKP", "crv": "Ed25519", "alg": "EdDSA", "use": "sig",
                "kid": "ops-test", "x": URL_SAFE_NO_PAD.encode(public),
            }]
        })
        .to_string();
        Self { key, jwks }
    }

    fn token(&self, roles: &[&str]) -> String {
        let mut header = Header::new(Algorithm::EdDSA);
        header.kid = Some("ops-test".into());
        jsonwebtoken::encode(&header, &claims(roles), &self.key).unwrap()
    }
}

const SPEC: Spec = Spec {
    name: "kit_ops",
    process: "quire-kit-tests",
    migrations: embed_migrations!("tests/migrations"),
    topics: &["quire.test.kit-ops"],
    ports: quire_kit::config::Ports { grpc: 0, admin: 0 },
};

fn with_token<T>(message: T, token: Option<&str>) -> tonic::Request<T> {
    let mut request = tonic::Request::new(message);
    if let Some(token) = token {
        request
            .metadata_mut()
            .insert("authorization", format!("Bearer {token}").parse().unwrap());
    }
    request
}

#[tokio::test(flavor = "multi_thread")]
async fn every_service_serves_the_ops_to_admins_alone() {
    let signer = Signer::new();
    let verifier = TokenVerifier::default();
    verifier.load_jwks(&signer.jwks).unwrap();
    let topic = topic_with_one_record().await;
    let group = format!("kit-ops-served-{}", support::suffix());

    let common = CommonConfig {
        database_url: support::database_url(),
        db_schema: Some(format!("kit_ops_{}", support::suffix())),
        db_pool_size: 2,
        redis_url: support::env_or("QUIRE_REDIS_URL", "redis://127.0.0.1:6379"),
        kafka_brokers: support::brokers(),
        outbox_poll_ms: 50,
        migrate_on_start: true,
        migrate_database_url: None,
        kafka_create_topics: true,
        grpc_addr: Some("127.0.0.1:0".into()),
        admin_addr: Some("127.0.0.1:0".into()),
    };
    let core = Core::build(SPEC, common).await.unwrap();
    let (port, admin_port) = (core.grpc_port(), core.admin_port());
    let mut service = core.start(quire_kit::outbox::Wake::default()).unwrap();
    service.report_consumer(&group, &[&topic]);
    // The service's own API: any service will do; this one is not among those kit adds.
    let api = tonic_reflection::server::Builder::configure()
        .register_encoded_file_descriptor_set(quire_proto::FILE_DESCRIPTOR_SET)
        .build_v1alpha()
        .unwrap();
    let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
    let running = tokio::spawn(
        service.serve(api, quire_kit::grpc::identity(verifier), async {
            let _ = stop_rx.await;
        }),
    );

    let mut client = OpsServiceClient::new(
        tonic::transport::Channel::from_shared(format!("http://127.0.0.1:{port}"))
            .unwrap()
            .connect_lazy(),
    );
    let (reader, admin) = (
        signer.token(&["reader", "writer"]),
        signer.token(&["admin"]),
    );
    for (token, code) in [
        (None, tonic::Code::Unauthenticated),
        (Some(reader.as_str()), tonic::Code::PermissionDenied),
    ] {
        let status = client
            .get_ops_status(with_token(pb::GetOpsStatusRequest {}, token))
            .await
            .unwrap_err();
        assert_eq!(status.code(), code);
        let status = client
            .list_audit_log(with_token(pb::ListAuditLogRequest::default(), token))
            .await
            .unwrap_err();
        assert_eq!(status.code(), code);
    }

    let status = client
        .get_ops_status(with_token(pb::GetOpsStatusRequest {}, Some(&admin)))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(status.service, "kit_ops");
    assert_eq!(
        status.consumers,
        [pb::ConsumerLag {
            group: group.clone(),
            topic: topic.clone(),
            lag: 1
        }]
    );
    let page = client
        .list_audit_log(with_token(pb::ListAuditLogRequest::default(), Some(&admin)))
        .await
        .unwrap()
        .into_inner();
    assert!(page.entries.is_empty() && page.chain_intact);

    // The same figures on /metrics, for alerts (the first refresh runs at start).
    let lag_line = format!("quire_consumer_lag_records{{group=\"{group}\",topic=\"{topic}\"}} 1");
    let mut metrics = String::new();
    for _ in 0..100 {
        metrics = support::http_get(admin_port, "/metrics").await.1;
        if metrics.contains(&lag_line) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(metrics.contains(&lag_line), "{lag_line} not in:\n{metrics}");
    assert!(
        metrics.contains("quire_outbox_pending_events{service=\"kit_ops\"} 0"),
        "{metrics}"
    );

    stop_tx.send(()).unwrap();
    running.await.unwrap().unwrap();
}
