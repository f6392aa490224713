//! The REST contract of the account routes, through the real gateway and auth service,
//! on the real Postgres, Redis and Kafka broker. Nothing here may ever see a 500.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test or bench stops at the first surprise

mod bad_input;
mod events;
mod invitations;
mod registration;
mod roles_and_admin;
mod sessions;
mod support;
mod wallet_login;
mod web_app;
