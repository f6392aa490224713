//! quire-bench: the benchmarks of `make bench` live in `benches/`, their reports beside
//! this crate (`bench/*.md`). This library is empty: it exists so that the benchmarks
//! have a crate of their own, and must never hold code a service or the gateway uses.
#![forbid(unsafe_code)]
