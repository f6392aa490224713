//! The parts of the smoke test's load generator (`src/bin/smoke.rs`, `make smoke`): the
//! open-model schedule, the REST client, the mail the verification codes come in, the
//! users made before the run, the journeys and their statistics. A client of a running
//! stack over HTTP only: it must never link a service or share code with one.

pub mod api;
pub mod journeys;
pub mod mail;
pub mod report;
pub mod schedule;
pub mod setup;
pub mod stats;
