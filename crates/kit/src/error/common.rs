//! The failures every service shares, whatever its domain: bad input, a caller who may not,
//! a thing that is not there, what another service answered, a broken assumption, and the
//! plumbing (database, broker, object store). A service's own error enum wraps
//! [`KitError`] (`#[error(transparent)] Kit(#[from] KitError)`) and adds only its domain's
//! failures.

use super::ApiError;

#[derive(Debug, thiserror::Error)]
pub enum KitError {
    /// Bad input; the first field names what was wrong (the reason is `invalid_<field>`).
    #[error("{1}")]
    Invalid(&'static str, String),
    #[error("Authentication required")]
    Unauthenticated,
    #[error("{0}")]
    Forbidden(String),
    /// An unknown (or, for this caller, invisible) thing: "Book", "User", ...
    #[error("{0} not found")]
    NotFound(&'static str),
    /// What another service answered, passed on as it is.
    #[error(transparent)]
    Api(#[from] ApiError),
    /// A broken assumption: logged, while the caller reads a generic text.
    #[error("{0}")]
    Internal(String),
    #[error("invalid schema name {0:?}: use lowercase letters, digits and underscores")]
    BadSchema(String),
    #[error("database pool: {0}")]
    Pool(String),
    #[error("database: {0}")]
    Query(#[from] diesel::result::Error),
    #[error("connect: {0}")]
    Connect(#[from] diesel::ConnectionError),
    #[error("migrations: {0}")]
    Migration(String),
    #[error("kafka: {0}")]
    Kafka(String),
    #[error("object store: {0}")]
    Store(#[from] object_store::Error),
}

impl From<KitError> for ApiError {
    fn from(e: KitError) -> Self {
        let text = e.to_string();
        use KitError as E;
        match e {
            E::Invalid(field, _) => ApiError::bad_request(format!("invalid_{field}"), text),
            E::Unauthenticated => ApiError::unauthenticated(text),
            E::Forbidden(_) => ApiError::forbidden(text),
            E::NotFound(what) => {
                ApiError::not_found(format!("{}_not_found", what.to_lowercase()), text)
            }
            E::Api(api) => api,
            E::Pool(_) | E::Connect(_) | E::Kafka(_) => {
                tracing::error!(error = %text, "backing service unreachable");
                ApiError::unavailable("Service temporarily unavailable")
            }
            E::Store(store) => {
                tracing::error!(error = %store, "object store failed");
                ApiError::unavailable("Service temporarily unavailable")
            }
            E::Query(db) => ApiError::internal(&db),
            E::Internal(message) => ApiError::internal(&message),
            E::BadSchema(_) | E::Migration(_) => ApiError::internal(&text),
        }
    }
}

/// The shared failures, made as a service's own error type: `WalletError::invalid("amount",
/// "amount: must be positive")`. A service opts in with `impl CommonErrors for WalletError
/// {}`; its error must convert from [`KitError`].
pub trait CommonErrors: From<KitError> {
    /// Bad input in `field`; `message` is what the user reads.
    fn invalid(field: &'static str, message: impl Into<String>) -> Self {
        KitError::Invalid(field, message.into()).into()
    }

    fn forbidden(message: impl Into<String>) -> Self {
        KitError::Forbidden(message.into()).into()
    }

    /// `what` is a thing's name as the user reads it: "Book" gives "Book not found".
    fn not_found(what: &'static str) -> Self {
        KitError::NotFound(what).into()
    }

    /// A broken assumption; `message` goes to the log, never to the caller.
    fn internal(message: impl Into<String>) -> Self {
        KitError::Internal(message.into()).into()
    }
}

impl CommonErrors for KitError {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ErrorCode;

    #[test]
    fn bad_input_names_its_field_in_the_reason() {
        let e = ApiError::from(KitError::invalid(
            "price_cents",
            "price: must not be negative",
        ));
        assert_eq!(e.code, ErrorCode::BadRequest);
        assert_eq!(e.reason, "invalid_price_cents");
        assert_eq!(e.message, "price: must not be negative");
    }

    #[test]
    fn a_missing_thing_is_named_in_the_text_and_the_reason() {
        let e = ApiError::from(KitError::not_found("Book"));
        assert_eq!(e.code.http_status(), 404);
        assert_eq!(
            (e.reason.as_str(), e.message.as_str()),
            ("book_not_found", "Book not found")
        );
    }

    #[test]
    fn another_services_answer_passes_through_unchanged() {
        let answer = ApiError::conflict("own_book", "You cannot buy your own book");
        let e = ApiError::from(KitError::from(answer));
        assert_eq!(
            (e.code, e.reason.as_str()),
            (ErrorCode::Conflict, "own_book")
        );
    }

    #[test]
    fn internal_causes_never_reach_the_caller() {
        for e in [
            KitError::internal("catalog priced book 7 below zero"),
            KitError::Query(diesel::result::Error::NotFound),
            KitError::Migration("table users exists".into()),
        ] {
            let api = ApiError::from(e);
            assert_eq!(api.code, ErrorCode::Internal);
            assert_eq!(api.message, "Internal error");
        }
    }

    #[test]
    fn an_unreachable_backing_service_is_a_503_to_retry() {
        let store = object_store::Error::Generic {
            store: "S3",
            source: "connection refused".into(),
        };
        for e in [KitError::Pool("timed out".into()), KitError::Store(store)] {
            let api = ApiError::from(e);
            assert_eq!(api.code.http_status(), 503);
            assert_eq!(api.message, "Service temporarily unavailable");
        }
    }
}
