//! The `auth` schema: generated table definitions and one model file per table.

pub mod email_code;
pub mod invite_code;
pub mod oidc_login;
pub mod refresh_token;
pub mod schema;
pub mod setting;
pub mod user;
pub mod user_identity;
pub mod user_role;

use diesel_migrations::{EmbeddedMigrations, embed_migrations};

pub const MIGRATIONS: EmbeddedMigrations = embed_migrations!("migrations");
