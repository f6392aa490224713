//! The auth service's admin area against real Postgres, Redis and the broker: disabling
//! accounts, setting roles, the access settings and the account figures; and rotating
//! the token signing key.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod access_settings;
mod admin_only;
mod disabling;
mod key_rotation;
mod roles;
mod support;
mod user_stats;
