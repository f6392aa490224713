//! Extraction in a process of its own. A writer's files are whatever an attacker made
//! them: a pdf of a million objects, a zip bomb, a nesting that recurses forever. So the
//! service never parses an upload itself: a worker process (the service binary again, as
//! `quire-manuscript extract`) reads one upload under OS limits on its memory and CPU
//! time, within a wall-clock deadline, and dies alone when it passes one; the service
//! tells the writer so and serves the next upload.
//!
//! `parent` runs a worker from the service, `child` is the worker, `wire` what they say
//! to each other, `limits` the OS limits and which one stopped a worker.

pub mod child;
mod limits;
mod parent;
mod wire;

pub use parent::{extract, program};
/// The request header, for what drives a worker directly (the hostile-upload bench).
pub use wire::{SUBCOMMAND, request_head};
