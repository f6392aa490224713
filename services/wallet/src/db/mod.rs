//! The `wallet` schema: generated table definitions and one model file per table.

pub mod account;
pub mod campaign;
pub mod entry;
pub mod idempotency_key;
pub mod invitation;
pub mod pledge;
pub mod reward;
pub mod schema;
pub mod top_up;
pub mod trade;
pub mod transfer;
pub mod wallet;

use chrono::{DateTime, SecondsFormat, Utc};
use diesel_migrations::{EmbeddedMigrations, embed_migrations};

pub const MIGRATIONS: EmbeddedMigrations = embed_migrations!("migrations");

/// A time as the API shows it (RFC 3339, UTC).
pub fn rfc3339(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(SecondsFormat::Micros, true)
}
