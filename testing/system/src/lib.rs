//! quire-system-tests: tests of the whole of Quire at once, each in `tests/`: the real
//! gateway in front of the real services, talking REST as the web app does, while service
//! processes and the broker are killed and started again. `tests/bank.rs` holds money to the
//! cent through all of it.
//!
//! The services a test kills run as child processes; the others run in the test's process.
//! A killed service is a binary of this package (see `Cargo.toml`): the service's own
//! `main.rs`, so that the test finds it through `CARGO_BIN_EXE_*` and it is always built
//! from the current sources.
//!
//! This crate must never hold anything a service or another crate's test needs (it is the
//! last crate in the graph, depending on all of them), nor start a service any other way
//! than production does: through its `QUIRE_*` settings and its `Application` or binary.
#![forbid(unsafe_code)]
