//! The `manuscript` schema: generated table definitions and one model file per table.

pub mod band_key;
pub mod chapter;
pub mod manuscript;
pub mod manuscript_file;
pub mod schema;
pub mod upload;
pub mod upload_progress;

use diesel_migrations::{EmbeddedMigrations, embed_migrations};

pub const MIGRATIONS: EmbeddedMigrations = embed_migrations!("migrations");

/// A time as the wire carries it (RFC 3339, UTC).
pub fn rfc3339(t: chrono::DateTime<chrono::Utc>) -> String {
    t.to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

/// A count as a database integer (counts here are far below the limits).
pub fn int4(n: usize) -> i32 {
    i32::try_from(n).unwrap_or(i32::MAX)
}

pub fn int8(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}
