//! The one table that maps every failure to its gRPC code and its HTTP status.
//!
//! Services return [`ApiError`]s; they travel to the gateway as a `tonic::Status` whose
//! metadata names the [`ErrorCode`] and a machine-readable reason, so the gateway's REST
//! envelope is decided here and nowhere else. A service's own error wraps [`KitError`], the
//! failures every service shares, and adds its domain's; both end as an [`ApiError`].

use tonic::metadata::MetadataValue;

mod common;

pub use common::{CommonErrors, KitError};

/// Metadata key holding the [`ErrorCode`] of a failed call.
pub const CODE_KEY: &str = "quire-error-code";
/// Metadata key holding the machine-readable reason (`email_already_registered`, ...).
pub const REASON_KEY: &str = "quire-error-reason";
/// Metadata key holding seconds to wait, for rate limits.
pub const RETRY_AFTER_KEY: &str = "retry-after";

/// What kind of failure happened, from the caller's point of view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorCode {
    BadRequest,
    Unauthenticated,
    Forbidden,
    NotFound,
    Conflict,
    /// The thing acted on is no longer in a state that allows it (a campaign closed): 409
    /// over HTTP like a conflict, FAILED_PRECONDITION over gRPC.
    WrongState,
    InsufficientFunds,
    PayloadTooLarge,
    Unprocessable,
    RateLimited,
    /// The caller did not send its request (its body) in time.
    RequestTimeout,
    Unavailable,
    Internal,
}

/// code, name on the wire, gRPC code, HTTP status
const TABLE: &[(ErrorCode, &str, tonic::Code, u16)] = &[
    (
        ErrorCode::BadRequest,
        "bad_request",
        tonic::Code::InvalidArgument,
        400,
    ),
    (
        ErrorCode::Unauthenticated,
        "unauthenticated",
        tonic::Code::Unauthenticated,
        401,
    ),
    (
        ErrorCode::Forbidden,
        "forbidden",
        tonic::Code::PermissionDenied,
        403,
    ),
    (ErrorCode::NotFound, "not_found", tonic::Code::NotFound, 404),
    (
        ErrorCode::Conflict,
        "conflict",
        tonic::Code::AlreadyExists,
        409,
    ),
    (
        ErrorCode::WrongState,
        "wrong_state",
        tonic::Code::FailedPrecondition,
        409,
    ),
    (
        ErrorCode::InsufficientFunds,
        "insufficient_funds",
        tonic::Code::FailedPrecondition,
        402,
    ),
    (
        ErrorCode::PayloadTooLarge,
        "payload_too_large",
        tonic::Code::OutOfRange,
        413,
    ),
    (
        ErrorCode::Unprocessable,
        "unprocessable",
        tonic::Code::FailedPrecondition,
        422,
    ),
    (
        ErrorCode::RateLimited,
        "rate_limited",
        tonic::Code::ResourceExhausted,
        429,
    ),
    (
        ErrorCode::RequestTimeout,
        "request_timeout",
        tonic::Code::DeadlineExceeded,
        408,
    ),
    (
        ErrorCode::Unavailable,
        "unavailable",
        tonic::Code::Unavailable,
        503,
    ),
    (ErrorCode::Internal, "internal", tonic::Code::Internal, 500),
];

impl ErrorCode {
    fn row(self) -> &'static (ErrorCode, &'static str, tonic::Code, u16) {
        // The table lists every variant; the fallback is never taken.
        TABLE
            .iter()
            .find(|r| r.0 == self)
            .unwrap_or(&TABLE[TABLE.len() - 1])
    }
    pub fn as_str(self) -> &'static str {
        self.row().1
    }
    pub fn grpc(self) -> tonic::Code {
        self.row().2
    }
    pub fn http_status(self) -> u16 {
        self.row().3
    }
    pub fn parse(name: &str) -> Option<Self> {
        TABLE.iter().find(|r| r.1 == name).map(|r| r.0)
    }
    /// For statuses that carry no Quire metadata (a proxy, a deadline, a dead peer).
    pub fn from_grpc(code: tonic::Code) -> Self {
        use tonic::Code as C;
        match code {
            C::InvalidArgument => Self::BadRequest,
            C::Unauthenticated => Self::Unauthenticated,
            C::PermissionDenied => Self::Forbidden,
            C::NotFound => Self::NotFound,
            C::AlreadyExists | C::Aborted => Self::Conflict,
            C::FailedPrecondition => Self::Unprocessable,
            C::OutOfRange => Self::PayloadTooLarge,
            C::ResourceExhausted => Self::RateLimited,
            // Our services always attach their code, so a bare Unknown is what tonic makes of
            // a connection that broke mid-call (a peer killed or restarted): worth a retry.
            C::Unavailable | C::DeadlineExceeded | C::Cancelled | C::Unknown => Self::Unavailable,
            _ => Self::Internal,
        }
    }
}

/// A failure as the user will see it: a code, a human text, a machine reason.
#[derive(Debug, Clone, thiserror::Error)]
#[error("{message}")]
pub struct ApiError {
    pub code: ErrorCode,
    /// The text shown to the user; the known texts of DESIGN.md section 4 go here verbatim.
    pub message: String,
    /// A stable machine-readable reason (`email_already_registered`).
    pub reason: String,
    pub retry_after_secs: Option<u64>,
}

impl ApiError {
    pub fn new(code: ErrorCode, reason: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
            reason: reason.into(),
            retry_after_secs: None,
        }
    }
    pub fn bad_request(reason: impl Into<String>, message: impl Into<String>) -> Self {
        Self::new(ErrorCode::BadRequest, reason, message)
    }
    pub fn unauthenticated(message: impl Into<String>) -> Self {
        Self::new(ErrorCode::Unauthenticated, "unauthenticated", message)
    }
    pub fn forbidden(message: impl Into<String>) -> Self {
        Self::new(ErrorCode::Forbidden, "forbidden", message)
    }
    pub fn not_found(reason: impl Into<String>, message: impl Into<String>) -> Self {
        Self::new(ErrorCode::NotFound, reason, message)
    }
    pub fn conflict(reason: impl Into<String>, message: impl Into<String>) -> Self {
        Self::new(ErrorCode::Conflict, reason, message)
    }
    pub fn wrong_state(reason: impl Into<String>, message: impl Into<String>) -> Self {
        Self::new(ErrorCode::WrongState, reason, message)
    }
    pub fn rate_limited(retry_after_secs: u64) -> Self {
        Self {
            retry_after_secs: Some(retry_after_secs),
            ..Self::new(
                ErrorCode::RateLimited,
                "rate_limited",
                "Too many requests, try again later",
            )
        }
    }
    pub fn unavailable(message: impl Into<String>) -> Self {
        Self::new(ErrorCode::Unavailable, "unavailable", message)
    }
    /// An unexpected failure: the cause is logged here, the user sees a generic text.
    pub fn internal(cause: &dyn std::fmt::Display) -> Self {
        tracing::error!(error = %cause, "internal error");
        Self::new(ErrorCode::Internal, "internal", "Internal error")
    }

    /// Reads an error back from a status produced by [`From<ApiError> for tonic::Status`],
    /// or classifies a foreign status by its gRPC code.
    pub fn from_status(status: &tonic::Status) -> Self {
        let md = status.metadata();
        let get = |k: &str| md.get(k).and_then(|v| v.to_str().ok());
        let code = get(CODE_KEY)
            .and_then(ErrorCode::parse)
            .unwrap_or_else(|| ErrorCode::from_grpc(status.code()));
        let reason = get(REASON_KEY).unwrap_or(code.as_str()).to_owned();
        let message = match code {
            // Never pass on what a foreign or crashed peer said about its internals.
            ErrorCode::Internal => "Internal error".to_owned(),
            ErrorCode::Unavailable if get(CODE_KEY).is_none() => {
                "Service temporarily unavailable".to_owned()
            }
            _ => status.message().to_owned(),
        };
        let retry_after_secs = get(RETRY_AFTER_KEY).and_then(|v| v.parse().ok());
        Self {
            code,
            message,
            reason,
            retry_after_secs,
        }
    }
}

impl From<ApiError> for tonic::Status {
    fn from(e: ApiError) -> Self {
        let mut status = tonic::Status::new(e.code.grpc(), e.message);
        let md = status.metadata_mut();
        md.insert(CODE_KEY, MetadataValue::from_static(e.code.as_str()));
        if let Ok(v) = MetadataValue::try_from(e.reason.as_str()) {
            md.insert(REASON_KEY, v);
        }
        if let Some(secs) = e.retry_after_secs {
            md.insert(RETRY_AFTER_KEY, MetadataValue::from(secs));
        }
        status
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_survives_a_trip_through_grpc() {
        for (code, ..) in TABLE {
            let e = ApiError::new(*code, "why", "what");
            let back = ApiError::from_status(&tonic::Status::from(e));
            assert_eq!(back.code, *code);
            assert_eq!(back.reason, "why");
        }
    }

    #[test]
    fn a_foreign_internal_status_hides_its_text() {
        let back = ApiError::from_status(&tonic::Status::internal("panic at db.rs:12"));
        assert_eq!(back.code, ErrorCode::Internal);
        assert_eq!(back.message, "Internal error");
        assert_eq!(back.code.http_status(), 500);
    }

    #[test]
    fn a_call_cut_off_by_a_dying_peer_is_a_503_to_retry() {
        // What tonic reports when the server's connection resets mid-call.
        let back = ApiError::from_status(&tonic::Status::unknown(
            "h2 protocol error: error reading a body from connection",
        ));
        assert_eq!(back.code.http_status(), 503);
        assert_eq!(back.message, "Service temporarily unavailable");
    }

    #[test]
    fn insufficient_funds_is_a_402_not_a_422() {
        let s = tonic::Status::from(ApiError::new(ErrorCode::InsufficientFunds, "x", "y"));
        assert_eq!(ApiError::from_status(&s).code.http_status(), 402);
    }
}
