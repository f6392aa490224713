//! A service's shared start-up against the real Postgres and broker: the built core has
//! bound its ports and, unless told otherwise, migrated its schema; `migrate` (the binary's
//! subcommand) does the latter alone.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test stops at the first surprise

mod support;

use diesel_async::RunQueryDsl;
use diesel_migrations::embed_migrations;
use quire_kit::app::{Core, Spec, migrate};
use quire_kit::config::CommonConfig;
use quire_kit::db::PgPool;

/// A service of the kit's own tests: its one table is `counters`.
const SPEC: Spec = Spec {
    name: "kit_app",
    process: "quire-kit-tests",
    migrations: embed_migrations!("tests/migrations"),
    topics: &["quire.test.kit-app"],
    ports: quire_kit::config::Ports { grpc: 0, admin: 0 },
};

fn env_or(key: &str, default: &str) -> String {
    std::env::var(key).unwrap_or_else(|_| default.to_owned())
}

/// The shared settings on a schema no other test uses.
fn common(migrate_on_start: bool) -> CommonConfig {
    let schema = format!(
        "kit_app_{}",
        &uuid::Uuid::new_v4().simple().to_string()[..12]
    );
    CommonConfig {
        database_url: env_or(
            "QUIRE_TEST_DATABASE_URL",
            "postgres://postgres@127.0.0.1:5432/quire_test",
        ),
        db_schema: Some(schema),
        db_pool_size: 2,
        redis_url: env_or("QUIRE_REDIS_URL", "redis://127.0.0.1:6379"),
        kafka_brokers: env_or("QUIRE_KAFKA_BROKERS", "127.0.0.1:9092"),
        outbox_poll_ms: 20,
        migrate_on_start,
        migrate_database_url: None,
        kafka_create_topics: true,
        grpc_addr: Some("127.0.0.1:0".into()),
        admin_addr: Some("127.0.0.1:0".into()),
    }
}

/// Whether the service's own table is there, seen from its pool.
async fn has_counters(pool: &PgPool) -> bool {
    let mut conn = quire_kit::db::conn(pool).await.unwrap();
    diesel::sql_query("SELECT key FROM counters")
        .execute(&mut conn)
        .await
        .is_ok()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_built_core_has_bound_its_ports_and_migrated_its_schema() {
    let core = Core::build(SPEC, common(true))
        .await
        .expect("the core builds");
    let (grpc, admin) = (core.grpc_port(), core.admin_port());
    assert!(grpc > 0 && admin > 0 && grpc != admin, "{grpc} {admin}");
    for port in [grpc, admin] {
        tokio::net::TcpStream::connect(("127.0.0.1", port))
            .await
            .expect("the port listens before the service runs");
    }
    assert!(has_counters(&core.pool).await, "migrated on start");
}

#[tokio::test(flavor = "multi_thread")]
async fn without_migrate_on_start_the_schema_waits_for_the_migrate_subcommand() {
    let common = common(false);
    let core = Core::build(SPEC, common.clone())
        .await
        .expect("the core builds");
    assert!(!has_counters(&core.pool).await, "nothing migrated yet");
    migrate(SPEC, &common).await.expect("the migrations apply");
    assert!(has_counters(&core.pool).await, "migrated by `migrate`");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_taken_port_fails_the_build() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = taken.local_addr().unwrap().to_string();
    let common = CommonConfig {
        grpc_addr: Some(addr),
        ..common(true)
    };
    let built = Core::build(SPEC, common).await;
    assert!(built.is_err(), "a second service cannot take the port");
}

/// The status `/readyz` on the admin port answers with (0 while nothing answers).
async fn readyz(admin: u16) -> u16 {
    support::http_get(admin, "/readyz").await.0
}

/// The first answer of `/readyz` once the admin port serves.
async fn first_readyz(admin: u16) -> u16 {
    for _ in 0..100 {
        match readyz(admin).await {
            0 => tokio::time::sleep(std::time::Duration::from_millis(50)).await,
            status => return status,
        }
    }
    panic!("the admin port never answered /readyz");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_service_is_ready_only_once_its_schema_holds_every_migration() {
    // A pod that starts before its migrate Job has finished (or after a failed one) must
    // take no traffic: its queries would meet tables it does not know.
    let common = common(false);
    let core = Core::build(SPEC, common.clone()).await.unwrap();
    let admin = core.admin_port();
    let service = core.start(quire_kit::outbox::Wake::default()).unwrap();
    // Any API will do as the service's own; this one is not among those kit adds.
    let api = tonic_reflection::server::Builder::configure()
        .register_encoded_file_descriptor_set(quire_proto::FILE_DESCRIPTOR_SET)
        .build_v1alpha()
        .unwrap();
    let verifier = quire_kit::caller::TokenVerifier::default();
    let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
    let running = tokio::spawn(
        service.serve(api, quire_kit::grpc::identity(verifier), async {
            let _ = stop_rx.await;
        }),
    );

    assert_eq!(
        first_readyz(admin).await,
        503,
        "not ready on an empty schema"
    );
    migrate(SPEC, &common).await.unwrap();
    assert_eq!(readyz(admin).await, 200, "ready once migrated");
    assert_eq!(readyz(admin).await, 200, "and stays so");

    let _ = stop_tx.send(());
    running.await.unwrap().unwrap();
}

#[tokio::test(flavor = "multi_thread")]
async fn migrate_connects_where_migrate_database_url_says() {
    // Behind a transaction pooler the service's URL cannot hold the migrations' session
    // lock; the migrate Job is given the primary's URL instead.
    let real = common(false);
    let behind_a_pooler = CommonConfig {
        database_url: "postgres://nobody@127.0.0.1:1/nowhere".into(),
        migrate_database_url: Some(real.database_url.clone()),
        ..real.clone()
    };
    migrate(SPEC, &behind_a_pooler).await.unwrap();
    let core = Core::build(SPEC, real).await.unwrap();
    assert!(
        has_counters(&core.pool).await,
        "migrated through the direct URL"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn without_topic_creation_a_missing_topic_stops_the_start_by_name() {
    let name = format!("quire.test.kit-missing-{}", uuid::Uuid::new_v4().simple());
    let topic: &'static str = Box::leak(name.into_boxed_str());
    let topics: &'static [&'static str] = Box::leak(vec![topic].into_boxed_slice());
    let spec = || Spec { topics, ..SPEC };
    let owned_elsewhere = CommonConfig {
        kafka_create_topics: false,
        ..common(true)
    };
    let refused = Core::build(spec(), owned_elsewhere.clone()).await;
    let message = refused.err().expect("the start is refused").to_string();
    assert!(message.contains(topic), "{message}");
    let brokers = owned_elsewhere.kafka_brokers.clone();
    assert_eq!(
        quire_kit::events::missing_topics(&brokers, &[topic])
            .await
            .unwrap(),
        vec![topic.to_owned()],
        "nothing was created"
    );

    // Once the topic is there (here made as a bare local broker would), the start goes on.
    quire_kit::events::ensure_topics(&brokers, &[topic])
        .await
        .unwrap();
    Core::build(spec(), owned_elsewhere)
        .await
        .expect("the topic exists now");
}
