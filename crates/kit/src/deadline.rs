//! Deadlines that travel: a call a service makes while it serves another is bounded by what
//! is left of the call it serves, so work whose caller has given up is not started for
//! nobody further down.
//!
//! A server reads the caller's `grpc-timeout` ([`DeadlineLayer`]) and runs the handler
//! with the point in time it ends; [`grpc::outgoing`](crate::grpc::outgoing) then sends
//! each call of that handler with the shorter of its own deadline and what is left. The
//! same header format is read and written again by [`crate::upstream`] when it sends a
//! call a second time.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use tower_layer::Layer;
use tower_service::Service;

/// The header gRPC carries a call's deadline in.
pub const HEADER: &str = "grpc-timeout";

tokio::task_local! {
    static SERVING_UNTIL: Instant;
}

/// What is left of the deadline of the call being served, if it named one.
pub fn remaining() -> Option<Duration> {
    SERVING_UNTIL
        .try_with(|until| until.saturating_duration_since(Instant::now()))
        .ok()
}

/// `own`, shortened to what is left of the call being served.
pub fn bounded(own: Duration) -> Duration {
    remaining().map_or(own, |left| left.min(own))
}

/// Reads a `grpc-timeout` value: at most 8 digits and a unit (`H`, `M`, `S`, `m`, `u`, `n`).
pub fn parse(value: &str) -> Option<Duration> {
    let (digits, unit) = value.split_at(value.len().checked_sub(1)?);
    if digits.is_empty() || digits.len() > 8 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let n: u64 = digits.parse().ok()?;
    Some(match unit {
        "H" => Duration::from_secs(n * 3600),
        "M" => Duration::from_secs(n * 60),
        "S" => Duration::from_secs(n),
        "m" => Duration::from_millis(n),
        "u" => Duration::from_micros(n),
        "n" => Duration::from_nanos(n),
        _ => return None,
    })
}

/// Writes a `grpc-timeout` value, in milliseconds (rounded up, so a deadline never grows
/// shorter than asked, and at least 1 ms).
pub fn format(timeout: Duration) -> String {
    let ms = timeout.as_micros().div_ceil(1000).clamp(1, 99_999_999);
    format!("{ms}m")
}

/// The server layer that keeps each call's deadline for the handler (see the module).
#[derive(Clone, Copy, Debug, Default)]
pub struct DeadlineLayer;

impl<S> Layer<S> for DeadlineLayer {
    type Service = Deadline<S>;

    fn layer(&self, inner: S) -> Self::Service {
        Deadline { inner }
    }
}

/// See [`DeadlineLayer`].
#[derive(Clone, Debug)]
pub struct Deadline<S> {
    inner: S,
}

impl<S, B> Service<http::Request<B>> for Deadline<S>
where
    S: Service<http::Request<B>>,
    S::Future: Send + 'static,
{
    type Response = S::Response;
    type Error = S::Error;
    type Future = Pin<Box<dyn Future<Output = Result<S::Response, S::Error>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: http::Request<B>) -> Self::Future {
        let timeout = request
            .headers()
            .get(HEADER)
            .and_then(|v| v.to_str().ok())
            .and_then(parse);
        let answer = self.inner.call(request);
        match timeout {
            Some(timeout) => Box::pin(SERVING_UNTIL.scope(Instant::now() + timeout, answer)),
            None => Box::pin(answer),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timeouts_read_as_grpc_writes_them() {
        assert_eq!(parse("10S"), Some(Duration::from_secs(10)));
        assert_eq!(parse("2M"), Some(Duration::from_secs(120)));
        assert_eq!(parse("1500m"), Some(Duration::from_millis(1500)));
        assert_eq!(parse("7u"), Some(Duration::from_micros(7)));
        assert_eq!(parse("9n"), Some(Duration::from_nanos(9)));
        for bad in ["", "S", "10", "10s", "123456789m", "-1S", "1.5S"] {
            assert_eq!(parse(bad), None, "{bad:?}");
        }
        assert_eq!(format(Duration::from_millis(1500)), "1500m");
        assert_eq!(format(Duration::from_micros(1)), "1m");
        assert_eq!(format(Duration::ZERO), "1m");
        assert_eq!(
            parse(&format(Duration::from_secs(300))),
            Some(Duration::from_secs(300))
        );
    }

    #[tokio::test]
    async fn a_call_made_while_serving_gets_what_is_left_of_the_deadline() {
        assert_eq!(bounded(Duration::from_secs(10)), Duration::from_secs(10));
        let until = Instant::now() + Duration::from_secs(2);
        SERVING_UNTIL
            .scope(until, async {
                let left = bounded(Duration::from_secs(10));
                assert!(left <= Duration::from_secs(2) && left > Duration::from_secs(1));
                assert_eq!(
                    bounded(Duration::from_millis(500)),
                    Duration::from_millis(500)
                );
            })
            .await;
    }
}
