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

#[get("/healthz")]
pub async fn healthz() -> HttpResponse {
    HttpResponse::Ok().body("ok")
}

/// What the gateway needs to be of use: Redis and the health services of its gRPC peers.
pub struct Health {
    pub redis: redis::Client,
    pub auth: HealthClient<Upstream>,
    pub wallet: HealthClient<Upstream>,
    pub catalog: HealthClient<Upstream>,
    pub manuscript: HealthClient<Upstream>,
    pub chat: HealthClient<Upstream>,
}

async fn serving(client: &HealthClient<Upstream>) -> bool {
    let mut req = tonic::Request::new(HealthCheckRequest {
        service: String::new(),
    });
    req.set_timeout(Duration::from_secs(2));
    client.clone().check(req).await.is_ok()
}

/// Ready when Redis and every service the gateway calls answer.
#[get("/readyz")]
pub async fn readyz(health: web::Data<Health>) -> HttpResponse {
    let redis = async {
        let ping = async {
            let mut conn = health.redis.get_multiplexed_async_connection().await.ok()?;
            redis::cmd("PING")
                .query_async::<String>(&mut conn)
                .await
                .ok()
        };
        tokio::time::timeout(Duration::from_secs(2), ping)
            .await
            .ok()
            .flatten()
            .is_some()
    };
    let (redis_ok, auth_ok, wallet_ok, catalog_ok, manuscript_ok, chat_ok) = futures::join!(
        redis,
        serving(&health.auth),
        serving(&health.wallet),
        serving(&health.catalog),
        serving(&health.manuscript),
        serving(&health.chat)
    );
    let body = serde_json::json!({
        "redis": redis_ok, "auth": auth_ok, "wallet": wallet_ok, "catalog": catalog_ok,
        "manuscript": manuscript_ok, "chat": chat_ok
    });
    if redis_ok && auth_ok && wallet_ok && catalog_ok && manuscript_ok && chat_ok {
        HttpResponse::Ok().json(body)
    } else {
        HttpResponse::ServiceUnavailable().json(body)
    }
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
