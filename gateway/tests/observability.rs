//! What an operator relies on when something is slow or failing: one trace from the
//! browser's request through the gateway, auth and Kafka to the consumers of another
//! service, received by an OTLP collector; log lines that name that trace; and RED metrics
//! (rate, errors, duration histograms) of every gRPC method and gateway route on `/metrics`.
//!
//! Its own test binary: the tracer, the log writer and the metrics recorder belong to the
//! process, and every service of these tests runs in it, exporting to the OTLP receiver
//! this file runs.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test stops at the first surprise

#[path = "api/support.rs"]
#[allow(dead_code)] // the REST suite's helpers, of which these tests use a few
mod support;

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use opentelemetry_proto::tonic::collector::trace::v1::trace_service_server::{
    TraceService, TraceServiceServer,
};
use opentelemetry_proto::tonic::collector::trace::v1::{
    ExportTraceServiceRequest, ExportTraceServiceResponse,
};
use opentelemetry_proto::tonic::common::v1::any_value::Value as AnyValue;
use opentelemetry_proto::tonic::trace::v1::Span;
use opentelemetry_proto::tonic::trace::v1::span::SpanKind;
use quire_kit::telemetry::{BoxMakeWriter, Settings, TelemetryGuard};
use serde_json::{Value, json};
use support::{TestApp, unique_email};

/// The spans an OTLP/gRPC exporter sent, as a collector receives them.
#[derive(Clone, Default)]
struct Receiver(Arc<Mutex<Vec<Span>>>);

#[tonic::async_trait]
impl TraceService for Receiver {
    async fn export(
        &self,
        request: tonic::Request<ExportTraceServiceRequest>,
    ) -> Result<tonic::Response<ExportTraceServiceResponse>, tonic::Status> {
        let spans = request
            .into_inner()
            .resource_spans
            .into_iter()
            .flat_map(|r| r.scope_spans)
            .flat_map(|s| s.spans);
        self.0.lock().unwrap().extend(spans);
        Ok(tonic::Response::new(ExportTraceServiceResponse {
            partial_success: None,
        }))
    }
}

/// The log lines the process wrote.
#[derive(Clone, Default)]
struct Logs(Arc<Mutex<Vec<u8>>>);

impl std::io::Write for Logs {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Logs {
    fn lines(&self) -> Vec<Value> {
        String::from_utf8_lossy(&self.0.lock().unwrap())
            .lines()
            .filter_map(|l| serde_json::from_str(l).ok())
            .collect()
    }
}

/// The receiver, the logs and the telemetry of this process. They live on a runtime of
/// their own: each test's runtime ends with the test, and the exporter's connection and
/// the receiver must outlive them all.
struct Observed {
    received: Receiver,
    logs: Logs,
    telemetry: TelemetryGuard,
    _runtime: tokio::runtime::Runtime,
}

/// Starts the receiver and the process's telemetry before any service (the first
/// telemetry set up in a process is the one that stays).
fn observed() -> &'static Observed {
    static OBSERVED: OnceLock<Observed> = OnceLock::new();
    OBSERVED.get_or_init(|| {
        let runtime = tokio::runtime::Runtime::new().unwrap();
        // The receiver and the exporter's channel are driven by this runtime. (Called from a
        // test's runtime: no `block_on` here.)
        let entered = runtime.enter();
        let received = Receiver::default();
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.set_nonblocking(true).unwrap();
        let port = listener.local_addr().unwrap().port();
        let listener = tokio::net::TcpListener::from_std(listener).unwrap();
        runtime.spawn(
            tonic::transport::Server::builder()
                .add_service(TraceServiceServer::new(received.clone()))
                .serve_with_incoming(tonic::transport::server::TcpIncoming::from(listener)),
        );
        let logs = Logs::default();
        let sink = logs.clone();
        let telemetry = Settings {
            otlp_endpoint: Some(format!("http://127.0.0.1:{port}")),
            export_delay: Some(Duration::from_millis(100)),
            pretty: false,
            log_writer: Some(BoxMakeWriter::new(move || sink.clone())),
            // The log lines checked are info lines, whatever RUST_LOG the run has (make
            // test runs with warn).
            log_filter: Some("info,h2=warn,tower=warn,rdkafka=warn".into()),
            ..Settings::from_env("quire-tests")
        }
        .init();
        drop(entered);
        Observed {
            received,
            logs,
            telemetry,
            _runtime: runtime,
        }
    })
}

fn random_hex(bytes: usize) -> String {
    (0..bytes)
        .map(|_| format!("{:02x}", rand::random::<u8>()))
        .collect()
}

/// A `traceparent` as a browser's instrumented fetch sends it: (header, trace id, span id).
fn browser_traceparent() -> (String, String, String) {
    let (trace, span) = (random_hex(16), random_hex(8));
    (format!("00-{trace}-{span}-01"), trace, span)
}

/// One received span, its ids in hex.
#[derive(Clone, Debug)]
struct Seen {
    name: String,
    kind: i32,
    span_id: String,
    parent: String,
    attributes: HashMap<String, String>,
}

impl Seen {
    fn attr(&self, key: &str) -> Option<&str> {
        self.attributes.get(key).map(String::as_str)
    }
}

/// The spans of trace `trace` received so far.
fn spans_of(trace: &str) -> Vec<Seen> {
    let observed = observed();
    observed.telemetry.flush();
    observed
        .received
        .0
        .lock()
        .unwrap()
        .iter()
        .filter(|s| hex::encode(&s.trace_id) == trace)
        .map(|s| Seen {
            name: s.name.clone(),
            kind: s.kind,
            span_id: hex::encode(&s.span_id),
            parent: hex::encode(&s.parent_span_id),
            attributes: s
                .attributes
                .iter()
                .filter_map(|kv| {
                    let value = match kv.value.as_ref()?.value.as_ref()? {
                        AnyValue::StringValue(s) => s.clone(),
                        AnyValue::IntValue(i) => i.to_string(),
                        AnyValue::BoolValue(b) => b.to_string(),
                        other => format!("{other:?}"),
                    };
                    Some((kv.key.clone(), value))
                })
                .collect(),
        })
        .collect()
}

/// Waits up to `secs` for the spans of `trace` to satisfy `complete`.
async fn wait_for_spans(trace: &str, secs: u64, complete: impl Fn(&[Seen]) -> bool) -> Vec<Seen> {
    let until = std::time::Instant::now() + Duration::from_secs(secs);
    loop {
        let spans = spans_of(trace);
        if complete(&spans) || std::time::Instant::now() > until {
            return spans;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// Whether `descendant` is `ancestor` or below it among `spans`.
fn descends_from(spans: &[Seen], descendant: &Seen, ancestor: &Seen) -> bool {
    let mut current = Some(descendant);
    while let Some(span) = current {
        if span.span_id == ancestor.span_id {
            return true;
        }
        current = spans.iter().find(|s| s.span_id == span.parent);
    }
    false
}

const KIND_SERVER: i32 = SpanKind::Server as i32;
const KIND_CLIENT: i32 = SpanKind::Client as i32;
const KIND_PRODUCER: i32 = SpanKind::Producer as i32;
const KIND_CONSUMER: i32 = SpanKind::Consumer as i32;

fn registered(spans: &[Seen], group_prefix: &str) -> bool {
    spans.iter().any(|s| {
        s.kind == KIND_CONSUMER
            && s.attr("messaging.consumer.group.name")
                .is_some_and(|g| g.starts_with(group_prefix))
    })
}

#[tokio::test(flavor = "multi_thread")]
async fn a_registration_is_one_trace_from_the_browser_through_auth_and_kafka_to_the_wallet() {
    observed();
    let app = TestApp::spawn().await;
    let email = unique_email();
    let code = app.mailed_code(&email).await;
    let (traceparent, trace, browser_span) = browser_traceparent();
    let (status, body) = app
        .send(
            app.http
                .post(app.url("/api/register/"))
                .header("traceparent", &traceparent)
                .json(&json!({"email": email, "password": "reader-pass-1", "verify_code": code})),
        )
        .await;
    assert_eq!(status, 200, "{body}");

    // The wallet and catalog follow quire.user.v1 in groups of this test's stack.
    let spans = wait_for_spans(&trace, 60, |spans| {
        registered(spans, "wallet-gw-") && registered(spans, "catalog-gw-")
    })
    .await;
    let names: Vec<_> = spans.iter().map(|s| (&s.name, s.kind)).collect();

    // gateway: the HTTP server span continues the browser's span.
    let http = spans
        .iter()
        .find(|s| s.kind == KIND_SERVER && s.attr("http.route") == Some("/api/register/"))
        .unwrap_or_else(|| panic!("no gateway span in {names:?}"));
    assert_eq!(
        http.parent, browser_span,
        "the gateway continues the browser's trace"
    );
    assert_eq!(http.attr("http.status"), Some("200"));

    // auth: its server span is the child of a client span the gateway opened.
    let auth = spans
        .iter()
        .find(|s| s.kind == KIND_SERVER && s.name == "quire.auth.v1.AuthService/Register")
        .unwrap_or_else(|| panic!("no auth span in {names:?}"));
    assert_eq!(auth.attr("rpc.grpc.status_code"), Some("OK"));
    let client = spans
        .iter()
        .find(|s| s.span_id == auth.parent)
        .unwrap_or_else(|| panic!("auth's parent was not received: {names:?}"));
    assert_eq!(client.kind, KIND_CLIENT, "{client:?}");
    assert_eq!(client.attr("rpc.request"), Some("RegisterRequest"));
    assert!(
        descends_from(&spans, client, http),
        "the gRPC call was made while serving the HTTP request"
    );

    // The event auth wrote in its outbox is sent in a child of auth's span.
    let publish = spans
        .iter()
        .find(|s| {
            s.kind == KIND_PRODUCER && s.attr("messaging.destination.name") == Some("quire.user.v1")
        })
        .unwrap_or_else(|| panic!("no publish span in {names:?}"));
    assert!(
        descends_from(&spans, publish, auth),
        "the event was written while auth served the call: {publish:?}"
    );

    // Each consumer of another service handles it in a child of that send.
    for group in ["wallet-gw-", "catalog-gw-"] {
        let consume = spans
            .iter()
            .find(|s| {
                s.kind == KIND_CONSUMER
                    && s.attr("messaging.consumer.group.name")
                        .is_some_and(|g| g.starts_with(group))
            })
            .unwrap_or_else(|| panic!("no {group} consumer span in {names:?}"));
        assert_eq!(consume.parent, publish.span_id, "{group}: {consume:?}");
        assert_eq!(
            consume.attr("event_type"),
            Some("quire.user.registered.v1"),
            "{consume:?}"
        );
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_log_line_written_while_serving_a_request_carries_that_requests_trace_id() {
    let observed = observed();
    let app = TestApp::spawn().await;
    let admin = app.admin_token().await;
    let (_, _, reader) = app.reader().await;
    let reader_id = reader["user_id"].as_str().unwrap().to_owned();

    let (traceparent, trace, _) = browser_traceparent();
    let (status, body) = app
        .send(
            app.http
                .put(app.url(&format!("/api/admin/users/{reader_id}/roles")))
                .bearer_auth(&admin)
                .header("traceparent", &traceparent)
                .json(&json!({"roles": ["writer"]})),
        )
        .await;
    assert_eq!(status, 200, "{body}");

    // auth logs the change inside the span of the call.
    let line = observed
        .logs
        .lines()
        .into_iter()
        .find(|l| l["message"] == "roles set" && l["user_id"] == reader_id.as_str())
        .expect("auth logged the change");
    assert_eq!(line["trace_id"], trace.as_str(), "{line}");
    let span_id = line["span_id"].as_str().expect("the line names its span");
    let spans = wait_for_spans(&trace, 20, |spans| {
        spans.iter().any(|s| s.span_id == span_id)
    })
    .await;
    let span = spans
        .iter()
        .find(|s| s.span_id == span_id)
        .unwrap_or_else(|| panic!("the line's span {span_id} was not exported: {spans:?}"));
    let auth = spans
        .iter()
        .find(|s| s.name == "quire.auth.v1.AuthService/SetUserRoles")
        .expect("auth's span was exported");
    assert!(descends_from(&spans, span, auth), "{line}");

    // A line outside every request names no trace.
    let started = observed
        .logs
        .lines()
        .into_iter()
        .find(|l| l["message"] == "gateway listening")
        .expect("the gateway logged its start");
    assert!(started.get("trace_id").is_none(), "{started}");
}

/// The gateway's `/metrics` page (the services of this process record into the same one).
async fn scrape(app: &TestApp) -> String {
    let page = app
        .http
        .get(format!("{}/metrics", app.admin_base))
        .send()
        .await
        .unwrap();
    assert_eq!(page.status().as_u16(), 200);
    page.text().await.unwrap()
}

/// The value of the sample `name{labels}` (every label given must match) in a Prometheus
/// text page, summed over the samples that match.
fn sample(page: &str, name: &str, labels: &[(&str, &str)]) -> f64 {
    page.lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| {
            let (series, value) = l.rsplit_once(' ')?;
            let (metric, rest) = series.split_once('{').unwrap_or((series, "}"));
            (metric == name
                && labels
                    .iter()
                    .all(|(k, v)| rest.contains(&format!("{k}=\"{v}\""))))
            .then(|| value.parse::<f64>().ok())?
        })
        .sum()
}

/// The `le` bounds of the buckets of `name` with `labels`.
fn buckets(page: &str, name: &str, labels: &[(&str, &str)]) -> Vec<String> {
    let bucket = format!("{name}_bucket{{");
    page.lines()
        .filter(|l| l.starts_with(&bucket))
        .filter(|l| {
            labels
                .iter()
                .all(|(k, v)| l.contains(&format!("{k}=\"{v}\"")))
        })
        .filter_map(|l| {
            let le = l.split("le=\"").nth(1)?;
            Some(le.split('"').next()?.to_owned())
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn every_grpc_method_and_route_has_a_rate_an_error_count_and_a_duration_histogram() {
    observed();
    let app = TestApp::spawn().await;
    let login = [
        ("service", "quire.auth.v1.AuthService"),
        ("method", "Login"),
    ];
    let not_found = [login[0], login[1], ("code", "NotFound")];
    let http_404 = [("route", "/api/login/"), ("status", "404")];
    let before = scrape(&app).await;

    app.reader().await;
    let (status, body) = app
        .post(
            "/api/login/",
            json!({"email": unique_email(), "password": "whatever-1"}),
            None,
        )
        .await;
    assert_eq!(status, 404, "{body}");
    let page = scrape(&app).await;

    // gRPC, server side: calls by status, and a histogram of their durations.
    let ok = [login[0], login[1], ("code", "OK")];
    let name = quire_kit::metrics::GRPC_REQUESTS;
    assert!(sample(&page, name, &ok) >= 1.0, "{page}");
    assert!(
        sample(&page, name, &not_found) >= sample(&before, name, &not_found) + 1.0,
        "the failed login is counted as NotFound"
    );
    let les = buckets(&page, quire_kit::metrics::GRPC_DURATION, &login);
    assert!(les.len() > 5 && les.contains(&"+Inf".to_owned()), "{les:?}");
    let count = sample(
        &page,
        &format!("{}_count", quire_kit::metrics::GRPC_DURATION),
        &login,
    );
    assert!(count >= 2.0, "the two logins are timed: {count}");
    assert!(
        !page.contains(&format!("{}{{quantile", quire_kit::metrics::GRPC_DURATION)),
        "a histogram, not a summary"
    );

    // HTTP, the gateway's routes: the same, by route pattern.
    let name = quire_kit::metrics::HTTP_REQUESTS;
    assert!(
        sample(&page, name, &http_404) >= sample(&before, name, &http_404) + 1.0,
        "the 404 is counted"
    );
    let les = buckets(
        &page,
        quire_kit::metrics::HTTP_DURATION,
        &[("method", "POST"), ("route", "/api/login/")],
    );
    assert!(
        les.len() > 5 && les.contains(&"0.005".to_owned()),
        "{les:?}"
    );
}
