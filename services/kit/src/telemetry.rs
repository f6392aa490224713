//! Logs and traces. Every binary calls [`init`] first: JSON logs to stdout (or readable
//! ones with `QUIRE_LOG_FORMAT=pretty`), and OpenTelemetry export over OTLP/gRPC when
//! `OTEL_EXPORTER_OTLP_ENDPOINT` is set. The W3C trace-context propagator and a tracer are
//! always installed, so a `traceparent` passes through a service even when it exports
//! nothing.

use opentelemetry::propagation::{Extractor, Injector};
use opentelemetry::trace::TracerProvider as _;
use opentelemetry_sdk::propagation::TraceContextPropagator;
use opentelemetry_sdk::trace::SdkTracerProvider;
use tracing_opentelemetry::OpenTelemetrySpanExt;
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;
use tracing_subscriber::{EnvFilter, Layer};

/// Flushes pending spans when dropped at the end of `main`.
pub struct TelemetryGuard {
    provider: Option<SdkTracerProvider>,
}

impl Drop for TelemetryGuard {
    fn drop(&mut self) {
        if let Some(p) = self.provider.take()
            && let Err(error) = p.shutdown()
        {
            eprintln!("telemetry shutdown failed: {error}");
        }
    }
}

/// Installs the global subscriber for `service` (its name in logs and traces).
pub fn init(service: &'static str) -> TelemetryGuard {
    opentelemetry::global::set_text_map_propagator(TraceContextPropagator::new());
    let filter = EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| EnvFilter::new("info,h2=warn,tower=warn,rdkafka=warn"));
    let pretty = std::env::var("QUIRE_LOG_FORMAT").is_ok_and(|v| v == "pretty");
    let fmt = if pretty {
        // Colours only for a terminal: `make run` writes logs to files people grep.
        use std::io::IsTerminal;
        tracing_subscriber::fmt::layer()
            .with_target(false)
            .with_ansi(std::io::stdout().is_terminal())
            .boxed()
    } else {
        tracing_subscriber::fmt::layer()
            .json()
            .flatten_event(true)
            .with_current_span(true)
            .boxed()
    };

    let provider = otlp_provider(service);
    // Traces keep their info-level spans whatever RUST_LOG quietens in the logs: a
    // `RUST_LOG=warn` must not cut a request's trace (or its traceparent) in two.
    let otel = provider.as_ref().map(|p| {
        let tracer = p.tracer(service);
        tracing_opentelemetry::layer()
            .with_tracer(tracer)
            .with_filter(tracing_subscriber::filter::LevelFilter::INFO)
    });
    // A second init (tests build several apps in one process) keeps the first subscriber.
    let _ = tracing_subscriber::registry()
        .with(fmt.with_filter(filter))
        .with(otel)
        .try_init();
    TelemetryGuard { provider }
}

/// A tracer provider even without an exporter: spans then still carry trace ids, so a
/// `traceparent` that arrives is continued and passed on by a service that exports
/// nothing itself.
fn otlp_provider(service: &'static str) -> Option<SdkTracerProvider> {
    let name = std::env::var("OTEL_SERVICE_NAME").unwrap_or_else(|_| service.to_owned());
    let resource = opentelemetry_sdk::Resource::builder()
        .with_service_name(name)
        .build();
    let mut builder = SdkTracerProvider::builder().with_resource(resource);
    let endpoint = std::env::var("OTEL_EXPORTER_OTLP_ENDPOINT")
        .ok()
        .filter(|e| !e.is_empty());
    if let Some(endpoint) = endpoint {
        use opentelemetry_otlp::WithExportConfig;
        match opentelemetry_otlp::SpanExporter::builder()
            .with_tonic()
            .with_endpoint(endpoint.clone())
            .build()
        {
            Ok(exporter) => builder = builder.with_batch_exporter(exporter),
            Err(error) => eprintln!("otlp exporter to {endpoint} not started: {error}"),
        }
    }
    let provider = builder.build();
    opentelemetry::global::set_tracer_provider(provider.clone());
    Some(provider)
}

/// Any string map that can carry trace context (gRPC metadata, HTTP or Kafka headers).
pub trait Carrier {
    fn get(&self, key: &str) -> Option<&str>;
    fn keys(&self) -> Vec<&str>;
    fn set(&mut self, key: &str, value: String);
}

impl Carrier for http::HeaderMap {
    fn get(&self, key: &str) -> Option<&str> {
        http::HeaderMap::get(self, key).and_then(|v| v.to_str().ok())
    }
    fn keys(&self) -> Vec<&str> {
        http::HeaderMap::keys(self).map(|k| k.as_str()).collect()
    }
    fn set(&mut self, key: &str, value: String) {
        if let (Ok(k), Ok(v)) = (
            http::HeaderName::try_from(key),
            http::HeaderValue::try_from(value),
        ) {
            self.insert(k, v);
        }
    }
}

impl Carrier for tonic::metadata::MetadataMap {
    fn get(&self, key: &str) -> Option<&str> {
        tonic::metadata::MetadataMap::get(self, key).and_then(|v| v.to_str().ok())
    }
    fn keys(&self) -> Vec<&str> {
        self.keys()
            .filter_map(|k| match k {
                tonic::metadata::KeyRef::Ascii(k) => Some(k.as_str()),
                tonic::metadata::KeyRef::Binary(_) => None,
            })
            .collect()
    }
    fn set(&mut self, key: &str, value: String) {
        if let (Ok(k), Ok(v)) = (
            tonic::metadata::MetadataKey::from_bytes(key.as_bytes()),
            tonic::metadata::MetadataValue::try_from(value),
        ) {
            self.insert(k, v);
        }
    }
}

struct Inj<'a, C: Carrier>(&'a mut C);
impl<C: Carrier> Injector for Inj<'_, C> {
    fn set(&mut self, key: &str, value: String) {
        self.0.set(key, value);
    }
}
struct Ext<'a, C: Carrier>(&'a C);
impl<C: Carrier> Extractor for Ext<'_, C> {
    fn get(&self, key: &str) -> Option<&str> {
        self.0.get(key)
    }
    fn keys(&self) -> Vec<&str> {
        self.0.keys()
    }
}

/// Writes the current span's context (`traceparent`) into `carrier`.
pub fn inject_current(carrier: &mut impl Carrier) {
    let cx = tracing::Span::current().context();
    opentelemetry::global::get_text_map_propagator(|p| p.inject_context(&cx, &mut Inj(carrier)));
}

/// Makes `span` a child of the context found in `carrier`, if any.
pub fn set_parent_from(span: &tracing::Span, carrier: &impl Carrier) {
    let cx = opentelemetry::global::get_text_map_propagator(|p| p.extract(&Ext(carrier)));
    let _ = span.set_parent(cx);
}

/// The current span's `traceparent`, to store beside an outbox event.
pub fn current_traceparent() -> Option<String> {
    let mut headers = http::HeaderMap::new();
    inject_current(&mut headers);
    Carrier::get(&headers, "traceparent").map(str::to_owned)
}
