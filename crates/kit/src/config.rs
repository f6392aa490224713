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
    /// Where `migrate` connects, when it must not go where the service does: behind a
    /// transaction-mode pooler (PgBouncer) the service's `database_url` cannot hold the
    /// session-wide advisory lock the migrations take, so the migrate Job reaches the
    /// primary directly. Unset: `database_url`.
    #[serde(default)]
    pub migrate_database_url: Option<String>,
    /// Create the topics this service uses when they are missing (local runs and tests).
    /// Kubernetes sets it false: Strimzi's topic operator owns the topics there, with the
    /// replication the cluster needs, and a service that created one first with its own
    /// settings would win the race; then a missing topic stops the start with its name.
    #[serde(default = "default_kafka_create_topics")]
    pub kafka_create_topics: bool,
    /// Where this service serves gRPC; unset: all interfaces on its port of [`ports`].
    #[serde(default)]
    pub grpc_addr: Option<String>,
    /// Where it serves health and metrics; unset: all interfaces on its admin port.
    #[serde(default)]
    pub admin_addr: Option<String>,
}

impl CommonConfig {
    /// Reads the shared settings from the environment.
    pub fn from_env() -> Result<Self, envy::Error> {
        envy::prefixed("QUIRE_").from_env()
    }

    /// Where migrations connect: [`Self::migrate_database_url`], else the service's URL.
    pub fn migrate_url(&self) -> &str {
        self.migrate_database_url
            .as_deref()
            .unwrap_or(&self.database_url)
    }

    pub fn schema_or(&self, service: &str) -> String {
        self.db_schema.clone().unwrap_or_else(|| service.to_owned())
    }

    /// The gRPC and admin addresses to listen on: the settings, else `ports`' defaults.
    pub fn listen_addrs(&self, ports: Ports) -> (String, String) {
        (
            self.grpc_addr
                .clone()
                .unwrap_or_else(|| format!("0.0.0.0:{}", ports.grpc)),
            self.admin_addr
                .clone()
                .unwrap_or_else(|| format!("0.0.0.0:{}", ports.admin)),
        )
    }
}

/// A service's default gRPC and admin (health, metrics) ports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ports {
    pub grpc: u16,
    pub admin: u16,
}

/// Where each service listens unless told otherwise: one table for the services' own
/// defaults and the URLs their callers default to (a developer machine runs them all on
/// loopback; Kubernetes and compose set every address).
pub mod ports {
    use super::Ports;

    pub const AUTH: Ports = Ports {
        grpc: 50051,
        admin: 9101,
    };
    pub const WALLET: Ports = Ports {
        grpc: 50052,
        admin: 9102,
    };
    pub const CATALOG: Ports = Ports {
        grpc: 50053,
        admin: 9103,
    };
    pub const CHAT: Ports = Ports {
        grpc: 50054,
        admin: 9104,
    };
    pub const MANUSCRIPT: Ports = Ports {
        grpc: 50055,
        admin: 9105,
    };
}

fn local_url(ports: Ports) -> String {
    format!("http://127.0.0.1:{}", ports.grpc)
}

/// The default URL of the auth service, for a caller's settings (`#[serde(default = ...)]`).
pub fn auth_url() -> String {
    local_url(ports::AUTH)
}
/// The default URL of the wallet service.
pub fn wallet_url() -> String {
    local_url(ports::WALLET)
}
/// The default URL of the catalog service.
pub fn catalog_url() -> String {
    local_url(ports::CATALOG)
}
/// The default URL of the chat service.
pub fn chat_url() -> String {
    local_url(ports::CHAT)
}
/// The default URL of the manuscript service.
pub fn manuscript_url() -> String {
    local_url(ports::MANUSCRIPT)
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
fn default_kafka_create_topics() -> bool {
    true
}
fn default_outbox_poll_ms() -> u64 {
    50
}

/// Reads a service's own settings (`QUIRE_` prefix) from the environment.
pub fn from_env<T: serde::de::DeserializeOwned>() -> Result<T, envy::Error> {
    envy::prefixed("QUIRE_").from_env()
}
