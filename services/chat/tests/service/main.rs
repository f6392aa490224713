//! The chat service over gRPC, with real auth, catalog, Postgres and broker: turns, the
//! recommendations of a conversation, what a reader may not do, the trade projection, and
//! the conversations issue 33 reported failing.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod admin;
mod failures;
mod input;
mod support;
mod trades;
mod turns;
