//! gRPC plumbing shared by servers (identity, tracing, RED metrics, health, reflection) and
//! by clients (deadlines, forwarding identity and trace context).
//!
//! Deadlines are per call: every caller sets one with [`outgoing`] (it travels as
//! `grpc-timeout`); the client's channel and the server both end the call when it passes,
//! and the server then drops the handler's future, so work that lost its caller stops at
//! its next await instead of finishing for nobody. Neither side cuts a call earlier than
//! its deadline: a channel has no timeout of its own, and a server only bounds the calls
//! that arrive without any deadline (tools such as grpcurl) by [`CALL_CEILING`]. A call
//! made while serving another gets no more than what is left of that one's
//! ([`crate::deadline`]).

use std::time::Duration;

use tonic::Request;
use tonic::metadata::MetadataValue;
use tonic::transport::{Channel, Endpoint, Server};
use tower_layer::{Identity, Stack};

use crate::caller::{Caller, TokenVerifier, bearer};
use crate::deadline::DeadlineLayer;
use crate::metrics::GrpcMetricsLayer;
use crate::telemetry;

/// How long a call that names no deadline may run on a server: longer than any deadline a
/// Quire caller sets (the gateway's longest, a manuscript's upload, is 300 s), so it never
/// shortens one (tonic takes the shorter of this and the call's own).
pub const CALL_CEILING: Duration = Duration::from_secs(600);

/// A server that opens a span per call, continuing the caller's trace, counts and times
/// every call (see [`crate::metrics`]) and keeps its deadline for the calls its handler
/// makes (see [`crate::deadline`]).
pub fn server() -> Server<Stack<DeadlineLayer, Stack<GrpcMetricsLayer, Identity>>> {
    Server::builder()
        .timeout(CALL_CEILING)
        .tcp_nodelay(true)
        .trace_fn(|req: &http::Request<()>| {
            let path = req.uri().path();
            let span = tracing::info_span!(
                "grpc",
                otel.name = path.trim_start_matches('/'),
                otel.kind = "server",
                otel.status_code = tracing::field::Empty,
                rpc.system = "grpc",
                rpc = %path,
                rpc.grpc.status_code = tracing::field::Empty,
            );
            telemetry::set_parent_from(&span, req.headers());
            span
        })
        .layer(GrpcMetricsLayer)
        .layer(DeadlineLayer)
}

/// gRPC reflection over every Quire proto.
pub fn reflection() -> Result<
    tonic_reflection::server::v1::ServerReflectionServer<
        impl tonic_reflection::server::v1::ServerReflection,
    >,
    tonic_reflection::server::Error,
> {
    tonic_reflection::server::Builder::configure()
        .register_encoded_file_descriptor_set(quire_proto::FILE_DESCRIPTOR_SET)
        .register_encoded_file_descriptor_set(tonic_health::pb::FILE_DESCRIPTOR_SET)
        .build_v1()
}

/// An interceptor that verifies a forwarded bearer token and stores the [`Caller`].
/// A call without a token passes through; methods that need one ask [`crate::caller::caller_of`].
pub fn identity(verifier: TokenVerifier) -> impl tonic::service::Interceptor + Clone {
    move |mut request: Request<()>| {
        let token = request
            .metadata()
            .get("authorization")
            .and_then(|v| v.to_str().ok())
            .and_then(bearer)
            .map(str::to_owned);
        if let Some(token) = token {
            let caller = verifier.verify(&token).map_err(tonic::Status::from)?;
            request.extensions_mut().insert(caller);
        }
        Ok(request)
    }
}

/// The address of a service, with a bound on connecting; [`Endpoint::connect_lazy`] makes a
/// channel whose connection is driven by the runtime it is created on. It sets no request
/// timeout: each call's own deadline ([`outgoing`]) bounds it, on the client as well.
pub fn endpoint(url: &str) -> Result<Endpoint, tonic::transport::Error> {
    Ok(Endpoint::from_shared(url.to_owned())?
        .connect_timeout(Duration::from_secs(3))
        .tcp_nodelay(true)
        .http2_keep_alive_interval(Duration::from_secs(30)))
}

/// A lazily connecting channel to `url`.
pub fn channel(url: &str) -> Result<Channel, tonic::transport::Error> {
    Ok(endpoint(url)?.connect_lazy())
}

/// Wraps `message` for an internal call: the trace context of a new client span (a child
/// of the current span), the caller's token when there is one, and a deadline: `deadline`,
/// or less when the call being served has less left ([`crate::deadline::bounded`]).
///
/// The client span travels in the request's extensions, so it ends once the transport
/// dropped the request, when the call was sent: it marks where the call left and is the
/// parent of the server's span, which times the call. (Timing the whole call on the
/// client would take a layer on every channel, changing every client's type.)
pub fn outgoing<T>(message: T, caller: Option<&Caller>, deadline: Duration) -> Request<T> {
    let mut request = Request::new(message);
    request.set_timeout(crate::deadline::bounded(deadline));
    let name = std::any::type_name::<T>();
    let span = tracing::info_span!(
        "grpc client",
        otel.kind = "client",
        rpc.system = "grpc",
        rpc.request = name.rsplit("::").next().unwrap_or(name),
    );
    {
        let _entered = span.enter();
        telemetry::inject_current(request.metadata_mut());
    }
    request.extensions_mut().insert(ClientSpan { _span: span });
    if let Some(caller) = caller
        && let Ok(v) = MetadataValue::try_from(format!("Bearer {}", caller.token))
    {
        request.metadata_mut().insert("authorization", v);
    }
    request
}

/// The span of a call made with [`outgoing`], alive as long as its request.
#[derive(Clone)]
struct ClientSpan {
    _span: tracing::Span,
}
