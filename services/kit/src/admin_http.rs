//! The small HTTP side of every gRPC service: `/healthz` (the process runs), `/readyz`
//! (its dependencies answer) and `/metrics` (Prometheus).

use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, OnceLock};

use axum::Router;
use axum::http::StatusCode;
use axum::routing::get;
use metrics_exporter_prometheus::{PrometheusBuilder, PrometheusHandle};

/// A readiness probe: resolves to true when the service can do its work.
pub type ReadyCheck = Arc<dyn Fn() -> Pin<Box<dyn Future<Output = bool> + Send>> + Send + Sync>;

static PROMETHEUS: OnceLock<Option<PrometheusHandle>> = OnceLock::new();

/// The process-wide Prometheus recorder (installed once; tests build many apps).
pub fn prometheus() -> Option<PrometheusHandle> {
    PROMETHEUS
        .get_or_init(|| match PrometheusBuilder::new().install_recorder() {
            Ok(h) => Some(h),
            Err(error) => {
                tracing::warn!(%error, "metrics recorder not installed");
                None
            }
        })
        .clone()
}

/// The admin routes, to serve on the service's admin port.
pub fn router(ready: ReadyCheck) -> Router {
    let metrics = prometheus();
    Router::new()
        .route("/healthz", get(|| async { "ok" }))
        .route(
            "/readyz",
            get(move || {
                let ready = ready.clone();
                async move {
                    if ready().await {
                        (StatusCode::OK, "ready")
                    } else {
                        (StatusCode::SERVICE_UNAVAILABLE, "not ready")
                    }
                }
            }),
        )
        .route(
            "/metrics",
            get(move || {
                let body = metrics
                    .as_ref()
                    .map(PrometheusHandle::render)
                    .unwrap_or_default();
                async move { body }
            }),
        )
}

/// Serves the admin routes on `listener` until `stop` resolves.
pub async fn serve(
    listener: tokio::net::TcpListener,
    ready: ReadyCheck,
    stop: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    axum::serve(listener, router(ready))
        .with_graceful_shutdown(stop)
        .await
}
