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

/// GET `path` on 127.0.0.1:`port`: the status and the body (status 0 while nothing
/// answers there).
pub async fn http_get(port: u16, path: &str) -> (u16, String) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let Ok(mut tcp) = tokio::net::TcpStream::connect(("127.0.0.1", port)).await else {
        return (0, String::new());
    };
    let request = format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    let mut answer = String::new();
    if tcp.write_all(request.as_bytes()).await.is_err()
        || tcp.read_to_string(&mut answer).await.is_err()
    {
        return (0, String::new());
    }
    let status = answer
        .split_whitespace()
        .nth(1)
        .and_then(|code| code.parse().ok())
        .unwrap_or(0);
    let body = answer
        .split_once("\r\n\r\n")
        .map(|(_, body)| body.to_owned())
        .unwrap_or_default();
    (status, body)
}
