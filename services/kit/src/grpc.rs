//! gRPC plumbing shared by servers (identity, tracing, health, reflection) and by clients
//! (deadlines, forwarding identity and trace context).

use std::time::Duration;

use tonic::Request;
use tonic::metadata::MetadataValue;
use tonic::transport::{Channel, Endpoint, Server};

use crate::caller::{Caller, TokenVerifier, bearer};
use crate::telemetry;

/// A server that opens a span per call, continuing the caller's trace.
pub fn server() -> Server {
    Server::builder()
        .timeout(Duration::from_secs(30))
        .tcp_nodelay(true)
        .trace_fn(|req: &http::Request<()>| {
            let span = tracing::info_span!("grpc", rpc = %req.uri().path(), otel.kind = "server");
            telemetry::set_parent_from(&span, req.headers());
            span
        })
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

/// The address of a service, with sane timeouts; [`Endpoint::connect_lazy`] makes a
/// channel whose connection is driven by the runtime it is created on.
pub fn endpoint(url: &str) -> Result<Endpoint, tonic::transport::Error> {
    Ok(Endpoint::from_shared(url.to_owned())?
        .connect_timeout(Duration::from_secs(3))
        .timeout(Duration::from_secs(30))
        .tcp_nodelay(true)
        .http2_keep_alive_interval(Duration::from_secs(30)))
}

/// A lazily connecting channel to `url`.
pub fn channel(url: &str) -> Result<Channel, tonic::transport::Error> {
    Ok(endpoint(url)?.connect_lazy())
}

/// Wraps `message` for an internal call: the current trace context, the caller's token
/// when there is one, and a deadline.
pub fn outgoing<T>(message: T, caller: Option<&Caller>, deadline: Duration) -> Request<T> {
    let mut request = Request::new(message);
    request.set_timeout(deadline);
    telemetry::inject_current(request.metadata_mut());
    if let Some(caller) = caller
        && let Ok(v) = MetadataValue::try_from(format!("Bearer {}", caller.token))
    {
        request.metadata_mut().insert("authorization", v);
    }
    request
}
