//! Every way a wallet call can fail, and what the user is told. What every service shares
//! (bad input, the database, another service's answer) is a [`KitError`].

use quire_kit::{ApiError, ErrorCode, KitError};

pub use quire_kit::CommonErrors;

#[derive(Debug, thiserror::Error)]
pub enum WalletError {
    /// The user has not opened a wallet (an outcome of the ledger, not a lookup).
    #[error("Wallet not found")]
    WalletNotFound,
    #[error("Insufficient balance")]
    InsufficientFunds,
    #[error("You cannot buy your own book")]
    OwnBook,
    #[error("You cannot back your own campaign")]
    OwnCampaign,
    #[error("The campaign is closed")]
    CampaignClosed,
    #[error("The book already has an open campaign")]
    CampaignOpen,
    #[error("The idempotency key was used for a different request")]
    KeyReused,
    #[error("payment provider: {0}")]
    Payment(#[from] crate::payment::PaymentError),
    /// Also what another service answered (catalog's 404 and 409 pass through as they are).
    #[error(transparent)]
    Kit(#[from] KitError),
}

impl CommonErrors for WalletError {}

impl From<diesel::result::Error> for WalletError {
    fn from(e: diesel::result::Error) -> Self {
        Self::Kit(e.into())
    }
}

impl From<ApiError> for WalletError {
    fn from(e: ApiError) -> Self {
        Self::Kit(e.into())
    }
}

impl From<WalletError> for ApiError {
    fn from(e: WalletError) -> Self {
        let text = e.to_string();
        use WalletError as E;
        match e {
            E::WalletNotFound => ApiError::not_found("wallet_not_found", text),
            E::InsufficientFunds => {
                ApiError::new(ErrorCode::InsufficientFunds, "insufficient_funds", text)
            }
            E::OwnBook => ApiError::conflict("own_book", text),
            E::OwnCampaign => ApiError::conflict("own_campaign", text),
            // A 409 as the contract says, under the `conflict` code for now: kit's error
            // table has no FAILED_PRECONDITION row answering 409 (see the report).
            E::CampaignClosed => ApiError::wrong_state("campaign_closed", text),
            E::CampaignOpen => ApiError::conflict("campaign_open", text),
            E::KeyReused => ApiError::conflict("idempotency_key_reused", text),
            E::Payment(error) => {
                tracing::warn!(%error, "payment provider unavailable");
                ApiError::unavailable("Payment provider temporarily unavailable")
            }
            E::Kit(kit) => kit.into(),
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
            other => KitError::Internal(other.to_string()),
        }
    }
}

pub type Result<T, E = WalletError> = std::result::Result<T, E>;
