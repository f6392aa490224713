//! Every way a catalog call can fail, and what the user is told. What every service shares
//! is a [`KitError`], and decided there.

use quire_kit::{ApiError, ErrorCode, KitError};

pub use quire_kit::CommonErrors;

#[derive(Debug, thiserror::Error)]
pub enum CatalogError {
    #[error("Book Existed Already!")]
    BookExists,
    #[error("The book is not in the shop")]
    NotForSale,
    #[error("{0}")]
    TooLarge(String),
    /// A file that claims a supported format but cannot be read.
    #[error("{0}")]
    Unreadable(String),
    #[error("search: {0}")]
    Search(#[from] quire_book_search::SearchError),
    /// Also what another service answered, bad input, "not found" and the database.
    #[error(transparent)]
    Kit(#[from] KitError),
}

impl CommonErrors for CatalogError {}

impl From<diesel::result::Error> for CatalogError {
    fn from(e: diesel::result::Error) -> Self {
        Self::Kit(e.into())
    }
}

impl From<ApiError> for CatalogError {
    fn from(e: ApiError) -> Self {
        Self::Kit(e.into())
    }
}

impl From<quire_bookfile::BookFileError> for CatalogError {
    fn from(e: quire_bookfile::BookFileError) -> Self {
        use quire_bookfile::BookFileError as F;
        match e {
            F::Unsupported(m) => Self::invalid("file", m),
            F::TooLarge(m) => Self::TooLarge(m),
            F::Unreadable(m) => Self::Unreadable(m),
        }
    }
}

impl From<tokio::task::JoinError> for CatalogError {
    fn from(e: tokio::task::JoinError) -> Self {
        Self::internal(format!("worker task failed: {e}"))
    }
}

impl From<CatalogError> for ApiError {
    fn from(e: CatalogError) -> Self {
        let text = e.to_string();
        use CatalogError as E;
        match e {
            E::BookExists => ApiError::conflict("book_exists", text),
            E::NotForSale => ApiError::conflict("book_not_for_sale", text),
            E::TooLarge(_) => ApiError::new(ErrorCode::PayloadTooLarge, "file_too_large", text),
            E::Unreadable(_) => ApiError::new(ErrorCode::Unprocessable, "file_unreadable", text),
            E::Search(s) => ApiError::internal(&s),
            E::Kit(kit) => kit.into(),
        }
    }
}

impl From<CatalogError> for tonic::Status {
    fn from(e: CatalogError) -> Self {
        ApiError::from(e).into()
    }
}

pub type Result<T, E = CatalogError> = std::result::Result<T, E>;
