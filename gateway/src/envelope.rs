//! The REST envelope of DESIGN.md section 4. Every `/api` answer, success or failure,
//! leaves the gateway through this module.

use actix_web::http::StatusCode;
use actix_web::{HttpResponse, ResponseError};
use quire_kit::{ApiError, ErrorCode};
use serde::Serialize;
use utoipa::ToSchema;

/// Every `/api` reply: `data` holds the payload on success; on failure `success` is
/// false, `message`/`detail` hold the text, `error` a machine code and `data.reason` the
/// text again.
#[derive(Serialize, ToSchema)]
pub struct Envelope<T> {
    pub code: u16,
    pub success: bool,
    pub message: String,
    pub data: T,
}

/// `200 {"code":200,"success":true,"message":"OK","data":...}`
/// Serialized straight from the payload: going through `serde_json::json!` first built a
/// `Value` tree, a map and a string per field of every book of a list, which cost a page of
/// search hits more than its JSON text.
pub fn ok<T: Serialize>(data: T) -> HttpResponse {
    HttpResponse::Ok().json(Envelope {
        code: 200,
        success: true,
        message: "OK".into(),
        data,
    })
}

/// A failure on its way to the client.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct Failure(pub ApiError);

impl From<ApiError> for Failure {
    fn from(e: ApiError) -> Self {
        Self(e)
    }
}

impl From<tonic::Status> for Failure {
    fn from(s: tonic::Status) -> Self {
        Self(ApiError::from_status(&s))
    }
}

impl Failure {
    pub fn bad_request(reason: &str, message: impl Into<String>) -> Self {
        Self(ApiError::bad_request(reason, message))
    }
}

impl ResponseError for Failure {
    fn status_code(&self) -> StatusCode {
        StatusCode::from_u16(self.0.code.http_status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
    }

    fn error_response(&self) -> HttpResponse {
        let e = &self.0;
        let status = self.status_code();
        metrics::counter!("quire_gateway_failures_total", "error" => e.code.as_str()).increment(1);
        let mut builder = HttpResponse::build(status);
        if let Some(secs) = retry_after(status, e.retry_after_secs) {
            builder.insert_header(("Retry-After", secs.to_string()));
        }
        builder.json(failure_body(status, &e.message, &e.reason))
    }
}

/// When a part behind the gateway is down, how long a client should wait before it asks
/// again, unless the error says otherwise.
pub const UNAVAILABLE_RETRY_AFTER_SECS: u64 = 5;

/// The `Retry-After` of a failure: what the error says, and for every 503 at least a
/// default, so that a client (and the web app's retries) waits instead of hammering a part
/// that is down.
fn retry_after(status: StatusCode, said: Option<u64>) -> Option<u64> {
    match said {
        Some(secs) => Some(secs),
        None if status == StatusCode::SERVICE_UNAVAILABLE => Some(UNAVAILABLE_RETRY_AFTER_SECS),
        None => None,
    }
}

/// The failure envelope (the `Failure` schema of the OpenAPI document).
fn failure_body(status: StatusCode, message: &str, reason: &str) -> serde_json::Value {
    serde_json::json!({
        "code": status.as_u16(),
        "success": false,
        "message": message,
        "detail": message,
        "error": reason,
        "data": { "reason": message },
    })
}

/// A known `/api` path asked with a method it does not take; `allow` lists the methods it
/// does (`GET, POST`). Not an [`ApiError`]: no service ever answers it.
pub fn method_not_allowed(allow: &str) -> HttpResponse {
    let status = StatusCode::METHOD_NOT_ALLOWED;
    metrics::counter!("quire_gateway_failures_total", "error" => "method_not_allowed").increment(1);
    HttpResponse::build(status)
        .insert_header((actix_web::http::header::ALLOW, allow))
        .json(failure_body(
            status,
            &format!("Method not allowed: this path takes {allow}"),
            "method_not_allowed",
        ))
}

pub type Reply = Result<HttpResponse, Failure>;

/// The envelope for routes that do not exist.
pub fn not_found() -> Failure {
    Failure(ApiError::new(
        ErrorCode::NotFound,
        "no_such_route",
        "No such API route",
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_503_says_when_to_try_again() {
        let down = Failure(ApiError::unavailable("Service temporarily unavailable"));
        let r = down.error_response();
        assert_eq!(r.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(r.headers().get("retry-after").unwrap(), "5");
        let cache = Failure(crate::shared_store::Unreachable.into());
        let r = cache.error_response();
        assert_eq!(r.headers().get("retry-after").unwrap(), "5");
        let said = Failure(ApiError {
            retry_after_secs: Some(30),
            ..ApiError::unavailable("Service temporarily unavailable")
        });
        assert_eq!(
            said.error_response().headers().get("retry-after").unwrap(),
            "30"
        );
    }

    #[test]
    fn other_failures_carry_no_retry_after_unless_they_say_so() {
        let r = Failure(ApiError::not_found("no_book", "No such book")).error_response();
        assert!(r.headers().get("retry-after").is_none());
        let r = Failure(ApiError::rate_limited(12)).error_response();
        assert_eq!(r.headers().get("retry-after").unwrap(), "12");
    }
}
