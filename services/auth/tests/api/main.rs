//! The auth service's admin area against real Postgres, Redis and the broker: disabling
//! accounts, setting roles, the access settings and the account figures.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod access_settings;
mod admin_only;
mod disabling;
mod roles;
mod support;
mod user_stats;
