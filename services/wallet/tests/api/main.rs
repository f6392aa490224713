//! The wallet service against real Postgres, Kafka and real auth and catalog services.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod admin;
mod campaign_races;
mod campaigns;
mod concurrency;
mod idempotency;
mod recharges;
mod rewards;
mod support;
mod trades;
mod wallets;
