//! What the audit and ops tests share: a fresh schema with kit's migrations (and the kit
//! tests' own table), on the real Postgres, and the broker's address.
#![allow(dead_code)] // each test binary uses part of it

use diesel_migrations::{EmbeddedMigrations, embed_migrations};
use quire_kit::db::PgPool;

pub const TEST_MIGRATIONS: EmbeddedMigrations = embed_migrations!("tests/migrations");

pub fn env_or(key: &str, default: &str) -> String {
    std::env::var(key).unwrap_or_else(|_| default.to_owned())
}

pub fn database_url() -> String {
    env_or(
        "QUIRE_TEST_DATABASE_URL",
        "postgres://postgres@127.0.0.1:5432/quire_test",
    )
}

pub fn brokers() -> String {
    env_or("QUIRE_KAFKA_BROKERS", "127.0.0.1:9092")
}

/// Twelve random hex digits no other test uses.
pub fn suffix() -> String {
    uuid::Uuid::new_v4().simple().to_string()[..12].to_owned()
}

/// A migrated schema of this test alone, and a pool confined to it.
pub async fn fresh_schema(prefix: &str) -> (String, PgPool) {
    let schema = format!("{prefix}_{}", suffix());
    quire_kit::db::run_migrations(&database_url(), &schema, TEST_MIGRATIONS)
        .await
        .unwrap();
    let pool = quire_kit::db::pool(&database_url(), &schema, 8).unwrap();
    (schema, pool)
}
