//! Every way a manuscript call can fail, and what the user is told: the failures every
//! service shares ([`KitError`]) and the manuscript's own.

use quire_kit::error::CommonErrors;
use quire_kit::{ApiError, ErrorCode, KitError};

#[derive(Debug, thiserror::Error)]
pub enum ManuscriptError {
    /// The text was uploaded before, by anyone (exactly or nearly the same).
    #[error("Book Existed Already!")]
    Duplicate,
    /// A file, or all of them together, over a limit.
    #[error("{0}")]
    TooLarge(String),
    /// A file that claims a supported format but cannot be read.
    #[error("{0}")]
    Unreadable(String),
    #[error(transparent)]
    Kit(#[from] KitError),
}

impl CommonErrors for ManuscriptError {}

impl From<diesel::result::Error> for ManuscriptError {
    fn from(e: diesel::result::Error) -> Self {
        Self::Kit(e.into())
    }
}

impl From<object_store::Error> for ManuscriptError {
    fn from(e: object_store::Error) -> Self {
        Self::Kit(e.into())
    }
}

impl From<ApiError> for ManuscriptError {
    fn from(e: ApiError) -> Self {
        Self::Kit(e.into())
    }
}

impl From<quire_bookfile::BookFileError> for ManuscriptError {
    fn from(e: quire_bookfile::BookFileError) -> Self {
        use quire_bookfile::BookFileError as F;
        match e {
            F::Unsupported(m) => Self::invalid("files", m),
            F::TooLarge(m) => Self::TooLarge(m),
            F::Unreadable(m) => Self::Unreadable(m),
        }
    }
}

impl From<tokio::task::JoinError> for ManuscriptError {
    fn from(e: tokio::task::JoinError) -> Self {
        Self::internal(format!("worker task failed: {e}"))
    }
}

impl From<ManuscriptError> for ApiError {
    fn from(e: ManuscriptError) -> Self {
        let text = e.to_string();
        use ManuscriptError as E;
        match e {
            E::Duplicate => ApiError::conflict("book_exists", text),
            E::TooLarge(_) => ApiError::new(ErrorCode::PayloadTooLarge, "file_too_large", text),
            E::Unreadable(_) => ApiError::new(ErrorCode::Unprocessable, "file_unreadable", text),
            E::Kit(kit) => kit.into(),
        }
    }
}

impl From<ManuscriptError> for tonic::Status {
    fn from(e: ManuscriptError) -> Self {
        ApiError::from(e).into()
    }
}

pub type Result<T, E = ManuscriptError> = std::result::Result<T, E>;
