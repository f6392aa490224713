//! Every way a wallet call can fail, and what the user is told.

use quire_kit::{ApiError, ErrorCode, KitError};

#[derive(Debug, thiserror::Error)]
pub enum WalletError {
    /// Bad input; the first field names what was wrong.
    #[error("{1}")]
    Invalid(&'static str, String),
    #[error("Authentication required")]
    Unauthenticated,
    #[error("{0}")]
    Forbidden(String),
    #[error("Wallet not found")]
    WalletNotFound,
    #[error("Insufficient balance")]
    InsufficientFunds,
    #[error("You cannot buy your own book")]
    OwnBook,
    #[error("The idempotency key was used for a different request")]
    KeyReused,
    #[error("payment provider: {0}")]
    Payment(#[from] crate::payment::PaymentError),
    /// What another service answered (catalog's 404 and 409 pass through as they are).
    #[error(transparent)]
    Api(#[from] ApiError),
    #[error(transparent)]
    Kit(#[from] KitError),
    #[error("database: {0}")]
    Db(#[from] diesel::result::Error),
    #[error("{0}")]
    Internal(String),
}

impl WalletError {
    pub fn invalid(field: &'static str, message: impl Into<String>) -> Self {
        Self::Invalid(field, message.into())
    }
    pub fn forbidden(message: impl Into<String>) -> Self {
        Self::Forbidden(message.into())
    }
}

impl From<WalletError> for ApiError {
    fn from(e: WalletError) -> Self {
        let text = e.to_string();
        use WalletError as E;
        match e {
            E::Invalid(field, _) => ApiError::bad_request(format!("invalid_{field}"), text),
            E::Unauthenticated => ApiError::unauthenticated(text),
            E::Forbidden(_) => ApiError::forbidden(text),
            E::WalletNotFound => ApiError::not_found("wallet_not_found", text),
            E::InsufficientFunds => {
                ApiError::new(ErrorCode::InsufficientFunds, "insufficient_funds", text)
            }
            E::OwnBook => ApiError::conflict("own_book", text),
            E::KeyReused => ApiError::conflict("idempotency_key_reused", text),
            E::Payment(error) => {
                tracing::warn!(%error, "payment provider unavailable");
                ApiError::unavailable("Payment provider temporarily unavailable")
            }
            E::Api(api) => api,
            E::Kit(kit) => kit.into(),
            E::Db(db) => ApiError::internal(&db),
            E::Internal(msg) => ApiError::internal(&msg),
        }
    }
}

impl From<WalletError> for tonic::Status {
    fn from(e: WalletError) -> Self {
        ApiError::from(e).into()
    }
}

/// What a consumer reports when a handler failed: the event is retried, never skipped.
impl From<WalletError> for KitError {
    fn from(e: WalletError) -> Self {
        match e {
            WalletError::Kit(kit) => kit,
            WalletError::Db(db) => KitError::Query(db),
            other => KitError::Query(diesel::result::Error::QueryBuilderError(
                other.to_string().into(),
            )),
        }
    }
}

pub type Result<T, E = WalletError> = std::result::Result<T, E>;
