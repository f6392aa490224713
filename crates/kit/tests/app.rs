//! A service's shared start-up against the real Postgres and broker: the built core has
//! bound its ports and, unless told otherwise, migrated its schema; `migrate` (the binary's
//! subcommand) does the latter alone.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test stops at the first surprise

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
