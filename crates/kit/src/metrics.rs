//! RED metrics (rate, errors, duration) of the servers: every gRPC method every service
//! serves ([`GrpcMetricsLayer`], mounted by [`crate::grpc::server`]) and every HTTP route
//! of the gateway ([`record_http`]). Durations are Prometheus histograms, never
//! summaries: a histogram's buckets add up across replicas, so `histogram_quantile` gives
//! the p95 of a whole service, which no average of per-replica quantiles can.
//!
//! | metric | type | labels |
//! |---|---|---|
//! | `quire_grpc_server_requests_total` | counter | `service`, `method`, `code` |
//! | `quire_grpc_server_request_duration_seconds` | histogram | `service`, `method` |
//! | `quire_gateway_requests_total` | counter | `method`, `route`, `status` |
//! | `quire_gateway_request_seconds` | histogram | `method`, `route` |
//!
//! `code` is the gRPC status name (`OK`, `NotFound`, `Internal`, ...), `status` the HTTP
//! status; labels name methods and route patterns, never ids, so their number stays bounded.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Instant;

use metrics_exporter_prometheus::{BuildError, Matcher, PrometheusBuilder};

pub const GRPC_REQUESTS: &str = "quire_grpc_server_requests_total";
pub const GRPC_DURATION: &str = "quire_grpc_server_request_duration_seconds";
pub const HTTP_REQUESTS: &str = "quire_gateway_requests_total";
pub const HTTP_DURATION: &str = "quire_gateway_request_seconds";

/// Bucket bounds in seconds: from a cache hit (1 ms) to a call at the gateway's deadline
/// (10 s) and the server's own timeout (30 s).
const DURATION_BUCKETS: [f64; 14] = [
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0,
];

/// The exporter every Quire process installs: every `*_seconds` histogram with
/// [`DURATION_BUCKETS`] (rendered as `_bucket` lines, not as a summary).
pub fn prometheus_builder() -> Result<PrometheusBuilder, BuildError> {
    PrometheusBuilder::new()
        .set_buckets_for_metric(Matcher::Suffix("_seconds".into()), &DURATION_BUCKETS)
}

/// Counts one answered HTTP request of the gateway and its duration, by route pattern.
pub fn record_http(method: &str, route: &str, status: u16, started: Instant) {
    let (method, route) = (method.to_owned(), route.to_owned());
    ::metrics::counter!(HTTP_REQUESTS, "method" => method.clone(), "route" => route.clone(), "status" => status.to_string())
        .increment(1);
    ::metrics::histogram!(HTTP_DURATION, "method" => method, "route" => route)
        .record(started.elapsed().as_secs_f64());
}

/// A tower layer counting each gRPC call by service, method and status, and timing it
/// until the answer's headers leave (the whole call for a unary method).
#[derive(Clone, Copy, Debug, Default)]
pub struct GrpcMetricsLayer;

impl<S> tower_layer::Layer<S> for GrpcMetricsLayer {
    type Service = GrpcMetrics<S>;

    fn layer(&self, inner: S) -> Self::Service {
        GrpcMetrics { inner }
    }
}

/// See [`GrpcMetricsLayer`].
#[derive(Clone, Debug)]
pub struct GrpcMetrics<S> {
    inner: S,
}

impl<S, B, R> tower_service::Service<http::Request<B>> for GrpcMetrics<S>
where
    S: tower_service::Service<http::Request<B>, Response = http::Response<R>>,
    S::Future: Send + 'static,
{
    type Response = S::Response;
    type Error = S::Error;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Response, Self::Error>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: http::Request<B>) -> Self::Future {
        let started = Instant::now();
        let (service, method) = service_and_method(request.uri().path());
        let answer = self.inner.call(request);
        Box::pin(async move {
            let result = answer.await;
            let code = match &result {
                Ok(response) => code_of(response),
                // The transport failed: the caller saw no status at all.
                Err(_) => "Unavailable".to_owned(),
            };
            let span = tracing::Span::current();
            span.record("rpc.grpc.status_code", code.as_str());
            if code != "OK" {
                span.record("otel.status_code", "ERROR");
            }
            ::metrics::counter!(GRPC_REQUESTS, "service" => service.clone(), "method" => method.clone(), "code" => code)
                .increment(1);
            ::metrics::histogram!(GRPC_DURATION, "service" => service, "method" => method)
                .record(started.elapsed().as_secs_f64());
            result
        })
    }
}

/// `/quire.wallet.v1.WalletService/Trade` is (`quire.wallet.v1.WalletService`, `Trade`);
/// a path that is no gRPC method (a scanner's) is counted as `unknown`, not by its text.
fn service_and_method(path: &str) -> (String, String) {
    match path.trim_start_matches('/').split_once('/') {
        Some((service, method))
            if !service.is_empty()
                && !method.is_empty()
                && !method.contains('/')
                && service.len() + method.len() <= 200 =>
        {
            (service.to_owned(), method.to_owned())
        }
        _ => ("unknown".to_owned(), "unknown".to_owned()),
    }
}

/// The gRPC status of an answer: `grpc-status` in its headers (an error, answered without
/// a body), else OK for an HTTP 200 (the status then follows in the trailers, which a
/// unary method only sends with OK once it wrote its reply).
fn code_of<R>(response: &http::Response<R>) -> String {
    let code = match response.headers().get("grpc-status") {
        Some(value) => value
            .to_str()
            .ok()
            .and_then(|v| v.parse::<i32>().ok())
            .map_or(tonic::Code::Unknown, tonic::Code::from),
        None if response.status() == http::StatusCode::OK => tonic::Code::Ok,
        None => tonic::Code::Unknown,
    };
    match code {
        tonic::Code::Ok => "OK".to_owned(),
        other => format!("{other:?}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_grpc_path_names_its_service_and_method_and_anything_else_is_unknown() {
        assert_eq!(
            service_and_method("/quire.wallet.v1.WalletService/Trade"),
            ("quire.wallet.v1.WalletService".into(), "Trade".into())
        );
        for path in ["/", "/index.html", "/a/b/c", "//Trade"] {
            assert_eq!(
                service_and_method(path),
                ("unknown".into(), "unknown".into()),
                "{path}"
            );
        }
    }

    #[test]
    fn the_status_comes_from_grpc_status_else_from_an_http_200() {
        let answer = |status: u16, grpc: Option<&str>| {
            let mut r = http::Response::builder().status(status);
            if let Some(g) = grpc {
                r = r.header("grpc-status", g);
            }
            r.body(()).unwrap()
        };
        assert_eq!(code_of(&answer(200, None)), "OK");
        assert_eq!(code_of(&answer(200, Some("0"))), "OK");
        assert_eq!(code_of(&answer(200, Some("5"))), "NotFound");
        assert_eq!(code_of(&answer(200, Some("13"))), "Internal");
        assert_eq!(code_of(&answer(200, Some("x"))), "Unknown");
        assert_eq!(code_of(&answer(503, None)), "Unknown");
    }
}
