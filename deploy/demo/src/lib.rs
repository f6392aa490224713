//! quire-demo: the demo shop of Quire.
//!
//! It builds real book files (EPUB 3, PDF, UTF-8 text) from plain chapters ([`build`]),
//! holds the catalogue of demo books ([`catalog`]: public-domain texts from registry
//! packages and short texts written for the project), loads them into a running platform
//! through the auth and catalog gRPC APIs as demo writer and publisher accounts
//! ([`loader`]), and makes synthetic book records for benchmarks ([`synthetic`]).
//!
//! What it must never do: touch a service's database directly (it goes through the APIs
//! like any client), add a book twice (a second load adds nothing), or ship a text whose
//! licence is not noted next to it.
#![forbid(unsafe_code)]
#![cfg_attr(test, allow(clippy::unwrap_used, clippy::expect_used))]

pub mod build;
pub mod catalog;
pub mod cover;
mod error;
#[cfg(feature = "loader")]
pub mod loader;
mod sources;
pub mod synthetic;
mod texts;

pub use error::DemoError;
