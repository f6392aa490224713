//! The `chat` schema: its migrations, the generated table definitions, and the small
//! conversions every module shares.

pub mod schema;

use diesel_migrations::{EmbeddedMigrations, embed_migrations};

pub const MIGRATIONS: EmbeddedMigrations = embed_migrations!("migrations");

/// A time as the wire carries it (RFC 3339, UTC).
pub fn rfc3339(t: chrono::DateTime<chrono::Utc>) -> String {
    t.to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}
