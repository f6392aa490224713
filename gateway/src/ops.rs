//! For operators: `/healthz`, `/readyz` and `/metrics` on the admin port (readiness and
//! metrics never on the public one: they say what runs behind the gateway), and a span
//! and metrics per request.

use std::time::{Duration, Instant};

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::middleware::Next;
use actix_web::{HttpResponse, get, web};
use quire_kit::upstream::Upstream;
use tonic_health::pb::HealthCheckRequest;
use tonic_health::pb::health_client::HealthClient;
use tracing::Instrument;

use crate::shared_store::SharedStore;

#[get("/healthz")]
pub async fn healthz() -> HttpResponse {
    HttpResponse::Ok().body("ok")
}

/// The parts behind the gateway: Redis and the health services of its gRPC peers.
pub struct Health {
    pub redis: SharedStore,
    pub auth: HealthClient<Upstream>,
    pub wallet: HealthClient<Upstream>,
    pub catalog: HealthClient<Upstream>,
    pub manuscript: HealthClient<Upstream>,
    pub chat: HealthClient<Upstream>,
}

/// How long a peer's health check may take: all are asked at once, and the whole answer
/// must come within the readiness probe's timeout (2 s in `k8s/base/gateway.yaml`).
const CHECK_TIMEOUT: Duration = Duration::from_secs(1);

async fn serving(client: &HealthClient<Upstream>) -> bool {
    let mut req = tonic::Request::new(HealthCheckRequest {
        service: String::new(),
    });
    req.set_timeout(CHECK_TIMEOUT);
    tokio::time::timeout(CHECK_TIMEOUT, client.clone().check(req))
        .await
        .is_ok_and(|answer| answer.is_ok())
}

/// Ready whenever the process serves: a part that is down fails its own routes fast (503
/// with `Retry-After`) while the others answer, so taking this pod out of the Service
/// would only take the working routes down too (and every replica sees the same part
/// down, so all would go at once). The body says which parts are up and which are down,
/// for the operator and for alerts.
#[get("/readyz")]
pub async fn readyz(health: web::Data<Health>) -> HttpResponse {
    let (redis, auth, wallet, catalog, manuscript, chat) = futures::join!(
        health.redis.ping(),
        serving(&health.auth),
        serving(&health.wallet),
        serving(&health.catalog),
        serving(&health.manuscript),
        serving(&health.chat)
    );
    let parts = [
        ("redis", redis),
        ("auth", auth),
        ("wallet", wallet),
        ("catalog", catalog),
        ("manuscript", manuscript),
        ("chat", chat),
    ];
    let degraded: Vec<&str> = parts
        .iter()
        .filter(|(_, up)| !up)
        .map(|(part, _)| *part)
        .collect();
    let parts: serde_json::Map<String, serde_json::Value> = parts
        .iter()
        .map(|(part, up)| ((*part).to_owned(), (if *up { "up" } else { "down" }).into()))
        .collect();
    HttpResponse::Ok().json(serde_json::json!({
        "ready": true,
        "parts": parts,
        "degraded": degraded,
    }))
}

#[get("/metrics")]
pub async fn metrics_page() -> HttpResponse {
    let body = quire_kit::admin_http::prometheus()
        .map(|h| h.render())
        .unwrap_or_default();
    HttpResponse::Ok()
        .content_type("text/plain; version=0.0.4")
        .body(body)
}

/// One span per request (continuing the caller's trace) and request metrics labelled by
/// route pattern, never by raw path, so ids do not explode the label space (see
/// [`quire_kit::metrics`]).
pub async fn observe(
    req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let started = Instant::now();
    let method = req.method().to_string();
    let span = tracing::info_span!(
        "http",
        // The route is known only once routed, after the span started: OTel takes the
        // method alone as the name then.
        otel.name = %method,
        otel.kind = "server",
        otel.status_code = tracing::field::Empty,
        http.method = %method,
        http.route = tracing::field::Empty,
        http.status = tracing::field::Empty,
    );
    // actix has its own header type: copy the two trace headers across.
    let mut carrier = http::HeaderMap::new();
    for name in ["traceparent", "tracestate"] {
        if let Some(v) = req.headers().get(name).and_then(|v| v.to_str().ok()) {
            quire_kit::telemetry::Carrier::set(&mut carrier, name, v.to_owned());
        }
    }
    quire_kit::telemetry::set_parent_from(&span, &carrier);
    let response = next.call(req).instrument(span.clone()).await?;
    let route = response
        .request()
        .match_pattern()
        .unwrap_or_else(|| "unmatched".into());
    let status = response.status().as_u16();
    span.record("http.route", route.as_str());
    span.record("http.status", status);
    if response.status().is_server_error() {
        span.record("otel.status_code", "ERROR");
    }
    quire_kit::metrics::record_http(&method, &route, status, started);
    Ok(response)
}
