//! Logs and traces. Every binary calls [`init`] first: JSON logs to stdout (or readable
//! ones with `QUIRE_LOG_FORMAT=pretty`), and OpenTelemetry export over OTLP/gRPC when
//! `OTEL_EXPORTER_OTLP_ENDPOINT` is set. The W3C trace-context propagator and a tracer are
//! always installed, so a `traceparent` passes through a service even when it exports
//! nothing. A JSON line written inside a span carries the `trace_id` and `span_id` of that
//! span's OpenTelemetry context, so a trace in Jaeger leads to its log lines and back.

use std::time::Duration;

use opentelemetry::propagation::{Extractor, Injector};
use opentelemetry::trace::TracerProvider as _;
use opentelemetry_sdk::propagation::TraceContextPropagator;
use opentelemetry_sdk::trace::{BatchConfigBuilder, BatchSpanProcessor, SdkTracerProvider};
use tracing_opentelemetry::OpenTelemetrySpanExt;
use tracing_subscriber::fmt::format::{Format, Json, JsonFields, Writer};
use tracing_subscriber::fmt::{FmtContext, FormatEvent, FormatFields};
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::registry::LookupSpan;
use tracing_subscriber::util::SubscriberInitExt;
use tracing_subscriber::{EnvFilter, Layer};

pub use tracing_subscriber::fmt::writer::BoxMakeWriter;

/// Flushes pending spans when dropped at the end of `main`.
pub struct TelemetryGuard {
    provider: Option<SdkTracerProvider>,
}

impl TelemetryGuard {
    /// Exports the spans that ended and wait in the batch now.
    pub fn flush(&self) {
        if let Some(p) = &self.provider
            && let Err(error) = p.force_flush()
        {
            eprintln!("telemetry flush failed: {error}");
        }
    }
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

/// How a process logs and exports its spans. [`Settings::from_env`] is what production
/// reads; a test changes fields (its own OTLP receiver, a writer it reads back) instead of
/// the process environment.
pub struct Settings {
    /// The `service.name` of the exported spans.
    pub service: String,
    /// The OTLP/gRPC collector (`http://host:4317`); `None` exports nothing.
    pub otlp_endpoint: Option<String>,
    /// How long ended spans wait to be exported in one batch; `None` is the SDK's
    /// (`OTEL_BSP_SCHEDULE_DELAY`, else 5 s).
    pub export_delay: Option<Duration>,
    /// Readable lines instead of JSON.
    pub pretty: bool,
    /// Where log lines go; `None` is stdout.
    pub log_writer: Option<BoxMakeWriter>,
    /// Which log lines are written, as `RUST_LOG` says it; `None` reads `RUST_LOG` (a test
    /// that reads the lines names its own, whatever the run's `RUST_LOG`).
    pub log_filter: Option<String>,
}

impl Settings {
    /// `OTEL_SERVICE_NAME` (else `service`), `OTEL_EXPORTER_OTLP_ENDPOINT` and
    /// `QUIRE_LOG_FORMAT`.
    pub fn from_env(service: &str) -> Self {
        Self {
            service: std::env::var("OTEL_SERVICE_NAME").unwrap_or_else(|_| service.to_owned()),
            otlp_endpoint: std::env::var("OTEL_EXPORTER_OTLP_ENDPOINT")
                .ok()
                .filter(|e| !e.is_empty()),
            export_delay: None,
            pretty: std::env::var("QUIRE_LOG_FORMAT").is_ok_and(|v| v == "pretty"),
            log_writer: None,
            log_filter: None,
        }
    }

    /// Installs the global subscriber, tracer provider and propagator. A second call in one
    /// process (tests build several apps) changes nothing: the first settings stay.
    pub fn init(self) -> TelemetryGuard {
        opentelemetry::global::set_text_map_propagator(TraceContextPropagator::new());
        let provider = self.provider();
        let installed = self.subscriber(&provider).try_init().is_ok();
        if !installed {
            // Its spans would go nowhere: the first subscriber keeps the first tracer.
            let _ = provider.shutdown();
            return TelemetryGuard { provider: None };
        }
        opentelemetry::global::set_tracer_provider(provider.clone());
        TelemetryGuard {
            provider: Some(provider),
        }
    }

    /// A tracer provider even without an exporter: spans then still carry trace ids, so a
    /// `traceparent` that arrives is continued and passed on by a service that exports
    /// nothing itself.
    fn provider(&self) -> SdkTracerProvider {
        let resource = opentelemetry_sdk::Resource::builder()
            .with_service_name(self.service.clone())
            .build();
        let mut builder = SdkTracerProvider::builder().with_resource(resource);
        if let Some(endpoint) = &self.otlp_endpoint {
            use opentelemetry_otlp::WithExportConfig;
            match opentelemetry_otlp::SpanExporter::builder()
                .with_tonic()
                .with_endpoint(endpoint.clone())
                .build()
            {
                Ok(exporter) => {
                    let mut config = BatchConfigBuilder::default();
                    if let Some(delay) = self.export_delay {
                        config = config.with_scheduled_delay(delay);
                    }
                    let batch = BatchSpanProcessor::builder(exporter)
                        .with_batch_config(config.build())
                        .build();
                    builder = builder.with_span_processor(batch);
                }
                Err(error) => eprintln!("otlp exporter to {endpoint} not started: {error}"),
            }
        }
        builder.build()
    }

    /// The log and trace layers over one registry, not yet installed.
    fn subscriber(
        self,
        provider: &SdkTracerProvider,
    ) -> impl tracing::Subscriber + Send + Sync + 'static {
        let filter = match &self.log_filter {
            Some(directives) => EnvFilter::new(directives),
            None => EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| EnvFilter::new("info,h2=warn,tower=warn,rdkafka=warn")),
        };
        let writer = self
            .log_writer
            .unwrap_or_else(|| BoxMakeWriter::new(std::io::stdout));
        let fmt = if self.pretty {
            // Colours only for a terminal: `make run` writes logs to files people grep.
            use std::io::IsTerminal;
            tracing_subscriber::fmt::layer()
                .with_target(false)
                .with_ansi(std::io::stdout().is_terminal())
                .with_writer(writer)
                .boxed()
        } else {
            let json = tracing_subscriber::fmt::format()
                .json()
                .flatten_event(true)
                .with_current_span(true);
            tracing_subscriber::fmt::layer()
                .fmt_fields(JsonFields::new())
                .event_format(WithTraceIds(json))
                .with_writer(writer)
                .boxed()
        };
        // Traces keep their info-level spans whatever RUST_LOG quietens in the logs: a
        // `RUST_LOG=warn` must not cut a request's trace (or its traceparent) in two.
        let otel = tracing_opentelemetry::layer()
            .with_tracer(provider.tracer(self.service))
            .with_filter(tracing_subscriber::filter::LevelFilter::INFO);
        tracing_subscriber::registry()
            .with(fmt.with_filter(filter))
            .with(otel)
    }
}

/// Installs the global subscriber for `service` (its name in logs and traces) as the
/// environment says (see [`Settings::from_env`]).
pub fn init(service: &'static str) -> TelemetryGuard {
    Settings::from_env(service).init()
}

/// The JSON line of an event with `trace_id` and `span_id` first: those of the innermost
/// span around the event that has an OpenTelemetry context (none outside every span).
struct WithTraceIds(Format<Json>);

impl<S, N> FormatEvent<S, N> for WithTraceIds
where
    S: tracing::Subscriber + for<'a> LookupSpan<'a>,
    N: for<'a> FormatFields<'a> + 'static,
{
    fn format_event(
        &self,
        ctx: &FmtContext<'_, S, N>,
        mut writer: Writer<'_>,
        event: &tracing::Event<'_>,
    ) -> std::fmt::Result {
        let ids = ctx.event_scope().and_then(|mut scope| {
            scope.find_map(|span| {
                let extensions = span.extensions();
                let otel = extensions.get::<tracing_opentelemetry::OtelData>()?;
                let trace_id = otel.trace_id()?;
                (trace_id != opentelemetry::TraceId::INVALID).then_some((trace_id, otel.span_id()?))
            })
        });
        let Some((trace_id, span_id)) = ids else {
            return self.0.format_event(ctx, writer, event);
        };
        let mut line = String::new();
        self.0.format_event(ctx, Writer::new(&mut line), event)?;
        match line.strip_prefix('{') {
            Some(rest) => write!(
                writer,
                "{{\"trace_id\":\"{trace_id}\",\"span_id\":\"{span_id}\",{rest}"
            ),
            None => writer.write_str(&line),
        }
    }
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

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};

    use super::*;

    #[derive(Clone, Default)]
    struct Lines(Arc<Mutex<Vec<u8>>>);

    impl std::io::Write for Lines {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    impl Lines {
        fn json(&self) -> Vec<serde_json::Value> {
            String::from_utf8(self.0.lock().unwrap().clone())
                .unwrap()
                .lines()
                .map(|l| serde_json::from_str(l).unwrap())
                .collect()
        }
    }

    #[test]
    fn a_json_line_inside_a_span_names_the_trace_it_continues_and_its_span() {
        opentelemetry::global::set_text_map_propagator(TraceContextPropagator::new());
        let lines = Lines::default();
        let sink = lines.clone();
        let settings = Settings {
            service: "kit-test".into(),
            otlp_endpoint: None,
            export_delay: None,
            pretty: false,
            log_writer: Some(BoxMakeWriter::new(move || sink.clone())),
            log_filter: Some("info".into()),
        };
        let provider = settings.provider();
        let trace = "4bf92f3577b34da6a3ce929d0e0e4736";
        let span_id = tracing::subscriber::with_default(settings.subscriber(&provider), || {
            tracing::info!("before any request");
            let span = tracing::info_span!("request");
            let mut carrier = http::HeaderMap::new();
            Carrier::set(
                &mut carrier,
                "traceparent",
                format!("00-{trace}-00f067aa0ba902b7-01"),
            );
            set_parent_from(&span, &carrier);
            let _entered = span.enter();
            tracing::info!(book_id = 7, "book published");
            use opentelemetry::trace::TraceContextExt as _;
            span.context().span().span_context().span_id().to_string()
        });
        let lines = lines.json();
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert!(lines[0].get("trace_id").is_none(), "{}", lines[0]);
        assert_eq!(lines[1]["trace_id"], trace, "{}", lines[1]);
        assert_eq!(lines[1]["span_id"], span_id.as_str(), "{}", lines[1]);
        assert_ne!(
            span_id, "00f067aa0ba902b7",
            "the span is a child of the caller's"
        );
        // The usual fields stay.
        assert_eq!(lines[1]["message"], "book published");
        assert_eq!(lines[1]["book_id"], 7);
        assert_eq!(lines[1]["span"]["name"], "request");
    }
}
