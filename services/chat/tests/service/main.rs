//! The chat service over gRPC, with real auth, catalog, Postgres and broker: turns, the
//! recommendations of a conversation, what a reader may not do, and the trade projection.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod admin;
mod input;
mod support;
mod trades;
mod turns;
