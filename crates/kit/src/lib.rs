//! quire-kit: the pieces every Quire binary shares, so each service is only its domain.
//!
//! - [`config`]: the typed settings every service reads from the environment
//! - [`telemetry`]: JSON logs, OpenTelemetry export, W3C trace context across gRPC and Kafka
//! - [`db`]: the diesel-async pool confined to one Postgres schema, and its migrations
//! - [`error`]: the one table from error code to gRPC code and HTTP status, and the failures
//!   every service shares ([`KitError`])
//! - [`event_fields`]: the ids and times an event names, read alike by every consumer
//! - [`outbox`] and [`consumer`]: events that are never lost (transactional outbox, an
//!   idempotent producer) and never applied twice (idempotent at-least-once consumers)
//! - [`input`]: text from callers checked alike everywhere (no control characters)
//! - [`paging`]: one page of a list, with the same limits in every service
//! - [`caller`]: the JWT claims and the verifier every service trusts
//! - [`jwks`]: auth's public keys, fetched over gRPC and kept fresh, and the interceptor
//!   that verifies callers with them
//! - [`grpc`] and [`admin_http`]: server plumbing (health, reflection, metrics, shutdown)
//! - [`upstream`]: calls to a service's replicas, balanced per call, sent again where that
//!   is safe, failing fast (naming the service) when none answers
//! - [`deadline`]: a served call's deadline bounds the calls its handler makes
//! - [`metrics`]: the RED metrics (rate, errors, duration histograms) of every gRPC method
//!   and every gateway route
//! - [`service`]: the run loop of a gRPC service (stop signal, servers, relay, background tasks)
//! - [`app`]: what every service's `Application` is built on (ports, migrations, pool,
//!   topics) and its binary's `main` (with the `migrate` subcommand)
//! - [`objects`]: the object store of the services that keep files (a folder or S3)
//! - [`audit`]: the append-only, hash-chained log of admin actions in every service's schema
//! - [`ops`]: the OpsService every service serves to admins (outbox backlog, consumer lag,
//!   the audit log)
//! - [`settings`]: the settings admins change while a service runs, each change audited
//! - [`stats`]: the day ranges and zero-filled daily series of the admin figures
//! - [`daily_totals`]: per-day totals of closed days, summed once and kept, for those figures
//!
//! It must never hold domain rules: anything that knows about books, users or money
//! belongs to the service that owns it.
#![forbid(unsafe_code)]
#![cfg_attr(test, allow(clippy::unwrap_used, clippy::expect_used))]

pub mod admin_http;
pub mod app;
pub mod audit;
pub mod caller;
pub mod config;
pub mod consumer;
pub mod daily_totals;
pub mod db;
pub mod deadline;
pub mod error;
pub mod event_fields;
pub mod events;
pub mod grpc;
pub mod input;
pub mod jwks;
pub mod metrics;
pub mod objects;
pub mod ops;
pub mod outbox;
pub mod paging;
pub mod service;
pub mod settings;
pub mod shutdown;
pub mod stats;
pub mod telemetry;
pub mod upstream;

pub use error::{ApiError, CommonErrors, ErrorCode, KitError};

/// Every Quire binary (each links this crate) allocates with mimalloc. A request is many
/// small, short-lived allocations made and freed on different threads (protobuf, JSON, rows,
/// query trees); glibc's malloc spent about a tenth of a search's CPU on them.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;
