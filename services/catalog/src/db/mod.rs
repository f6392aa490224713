//! The `catalog` schema: generated table definitions and one model file per table.

pub mod book;
pub mod book_file;
pub mod book_rating;
pub mod bookmark;
pub mod chapter;
pub mod comment;
pub mod favourite;
pub mod publish_status;
pub mod purchase;
pub mod reading_history;
pub mod reading_progress;
pub mod schema;
pub mod user_name;

use diesel_migrations::{EmbeddedMigrations, embed_migrations};

pub const MIGRATIONS: EmbeddedMigrations = embed_migrations!("migrations");

/// Postgres `text[]` columns read as optional elements; ours never hold NULLs.
pub fn texts(values: Vec<Option<String>>) -> Vec<String> {
    values.into_iter().flatten().collect()
}
