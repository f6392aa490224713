//! The catalog service against real Postgres, Kafka and a real auth service.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod admin;
mod books;
mod covers;
mod purchases;
mod ratings;
mod reading;
mod reading_extras;
mod reading_places;
mod samples;
mod search;
mod shop_scale;
mod support;
mod uploaded_epubs;
