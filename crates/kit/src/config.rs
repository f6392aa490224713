//! Settings shared by every service, read from `QUIRE_*` environment variables with
//! defaults that work on a developer machine (see `.env.example`).

use serde::Deserialize;

/// Infrastructure every service connects to.
#[derive(Debug, Clone, Deserialize)]
pub struct CommonConfig {
    /// Postgres server and database; the service's schema is set separately.
    #[serde(default = "default_database_url")]
    pub database_url: String,
    /// The Postgres schema this service owns; defaults to the service's name.
    #[serde(default)]
    pub db_schema: Option<String>,
    #[serde(default = "default_db_pool_size")]
    pub db_pool_size: usize,
    #[serde(default = "default_redis_url")]
    pub redis_url: String,
    /// Comma-separated `host:port` list.
    #[serde(default = "default_kafka_brokers")]
    pub kafka_brokers: String,
    /// How often the outbox relay looks for new events when it found none.
    #[serde(default = "default_outbox_poll_ms")]
    pub outbox_poll_ms: u64,
    /// Apply pending migrations when the service starts (local runs and tests). In
    /// Kubernetes the migrate Job does it and the service's database role need not own DDL.
    #[serde(default = "default_migrate_on_start")]
    pub migrate_on_start: bool,
}

impl CommonConfig {
    /// Reads the shared settings from the environment.
    pub fn from_env() -> Result<Self, envy::Error> {
        envy::prefixed("QUIRE_").from_env()
    }

    pub fn schema_or(&self, service: &str) -> String {
        self.db_schema.clone().unwrap_or_else(|| service.to_owned())
    }
}

fn default_database_url() -> String {
    "postgres://postgres@127.0.0.1:5432/quire".into()
}
fn default_db_pool_size() -> usize {
    16
}
fn default_redis_url() -> String {
    "redis://127.0.0.1:6379".into()
}
fn default_kafka_brokers() -> String {
    "127.0.0.1:9092".into()
}
fn default_migrate_on_start() -> bool {
    true
}
fn default_outbox_poll_ms() -> u64 {
    50
}

/// Reads a service's own settings (`QUIRE_` prefix) from the environment.
pub fn from_env<T: serde::de::DeserializeOwned>() -> Result<T, envy::Error> {
    envy::prefixed("QUIRE_").from_env()
}
