//! quire-demo: the demo shop of Quire.
//!
//! It holds the catalogue of demo books ([`catalog`]: public-domain texts from registry
//! packages and short texts written for the project), loads them into a running platform
//! through the auth and catalog gRPC APIs as demo writer and publisher accounts
//! ([`loader`]). Their files and covers are made by `quire-fixtures`.
//!
//! What it must never do: touch a service's database directly (it goes through the APIs
//! like any client), add a book twice (a second load adds nothing), or ship a text whose
//! licence is not noted next to it.
#![forbid(unsafe_code)]
#![cfg_attr(test, allow(clippy::unwrap_used, clippy::expect_used))]

pub mod catalog;
mod error;
#[cfg(feature = "loader")]
pub mod loader;
mod sources;
mod texts;

pub use error::DemoError;
