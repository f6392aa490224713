//! Every request body is read against a deadline. actix bounds how long a client may take
//! to send its headers, not its body: a client that sends a few bytes and then waits (or a
//! multipart body that never closes) would hold a connection and a handler forever, and a
//! hundred such clients hold a hundred. Past the deadline the body stream fails with a
//! timeout, which the extractors answer with 408.

use std::io;
use std::pin::Pin;
use std::time::Duration;

use actix_web::HttpMessage;
use actix_web::body::MessageBody;
use actix_web::dev::{Payload, ServiceRequest, ServiceResponse};
use actix_web::error::PayloadError;
use actix_web::middleware::Next;
use actix_web::web::Bytes;
use futures::{Stream, StreamExt};
use quire_kit::{ApiError, ErrorCode};
use tokio::time::Instant;

use crate::envelope::Failure;

const TIMED_OUT: &str = "request body not received in time";

/// Wraps the request's body so that reading it fails once `limit` has passed since the
/// request came in.
pub fn bound(req: &mut ServiceRequest, limit: Duration) {
    let deadline = Instant::now() + limit;
    let inner = req.take_payload();
    let stream = futures::stream::unfold(Some(inner), move |state| async move {
        let mut inner = state?;
        match tokio::time::timeout_at(deadline, inner.next()).await {
            Ok(Some(item)) => Some((item, Some(inner))),
            Ok(None) => None,
            Err(_) => Some((
                Err(PayloadError::Io(io::Error::new(
                    io::ErrorKind::TimedOut,
                    TIMED_OUT,
                ))),
                None,
            )),
        }
    });
    // Fused: a reader may poll again after the end (or the timeout) and must see the end.
    let boxed: Pin<Box<dyn Stream<Item = Result<Bytes, PayloadError>>>> = Box::pin(stream.fuse());
    req.set_payload(Payload::from(boxed));
}

/// The middleware: bounds the body of every request by the gateway's setting.
pub async fn middleware(
    mut req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let limit = req
        .app_data::<actix_web::web::Data<crate::state::AppState>>()
        .map(|s| Duration::from_secs(s.config.body_timeout_secs.max(1)));
    if let Some(limit) = limit {
        bound(&mut req, limit);
    }
    next.call(req).await
}

/// Whether a body read failed because its deadline passed.
pub fn timed_out(error: &(dyn std::error::Error + 'static)) -> bool {
    let mut cause = Some(error);
    while let Some(e) = cause {
        if let Some(io) = e.downcast_ref::<io::Error>()
            && io.kind() == io::ErrorKind::TimedOut
        {
            return true;
        }
        if e.to_string().contains(TIMED_OUT) {
            return true;
        }
        cause = e.source();
    }
    false
}

/// The answer to a body that did not arrive in time.
pub fn failure() -> Failure {
    Failure(ApiError::new(
        ErrorCode::RequestTimeout,
        "request_timeout",
        "The request body was not received in time",
    ))
}
