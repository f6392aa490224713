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

/// What `/readyz` says beside ready or not: a line on how well the service works now
/// (chat: whether its embedding model is loaded, how many books have vectors).
pub type ReadyDetail = Arc<dyn Fn() -> String + Send + Sync>;

static PROMETHEUS: OnceLock<Option<PrometheusHandle>> = OnceLock::new();

/// The process-wide Prometheus recorder (installed once; tests build many apps).
pub fn prometheus() -> Option<PrometheusHandle> {
    PROMETHEUS
        .get_or_init(|| {
            let installed =
                crate::metrics::prometheus_builder().and_then(PrometheusBuilder::install_recorder);
            match installed {
                Ok(h) => Some(h),
                Err(error) => {
                    tracing::warn!(%error, "metrics recorder not installed");
                    None
                }
            }
        })
        .clone()
}

/// The admin routes, to serve on the service's admin port.
pub fn router(ready: ReadyCheck, detail: Option<ReadyDetail>) -> Router {
    let metrics = prometheus();
    Router::new()
        .route("/healthz", get(|| async { "ok" }))
        .route(
            "/readyz",
            get(move || {
                let ready = ready.clone();
                let detail = detail.clone();
                async move {
                    let (status, word) = if ready().await {
                        (StatusCode::OK, "ready")
                    } else {
                        (StatusCode::SERVICE_UNAVAILABLE, "not ready")
                    };
                    match detail {
                        Some(detail) => (status, format!("{word}\n{}", detail())),
                        None => (status, word.to_owned()),
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
    detail: Option<ReadyDetail>,
    stop: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    axum::serve(listener, router(ready, detail))
        .with_graceful_shutdown(stop)
        .await
}
