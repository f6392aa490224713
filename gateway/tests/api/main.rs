//! The REST contract of the account and catalog routes, through the real gateway, auth and
//! catalog services, on the real Postgres, Redis and Kafka broker. Nothing here may ever see a 500.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test or bench stops at the first surprise

mod bad_input;
mod catalog_access;
mod catalog_bad_input;
mod catalog_books;
mod catalog_reading;
mod catalog_support;
mod events;
mod invitations;
mod registration;
mod roles_and_admin;
mod sessions;
mod support;
mod wallet_login;
mod web_app;
