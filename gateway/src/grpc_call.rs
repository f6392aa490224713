//! The outgoing side of every handler: a gRPC request carrying the caller's identity and
//! the trace context, with the deadline of an ordinary call.

use std::time::Duration;

use quire_kit::caller::Caller;
use quire_kit::grpc::outgoing;

/// A call that reads or writes a few rows; file transfers set their own.
pub const DEADLINE: Duration = Duration::from_secs(10);

pub fn call<T>(message: T, caller: Option<&Caller>) -> tonic::Request<T> {
    outgoing(message, caller, DEADLINE)
}
