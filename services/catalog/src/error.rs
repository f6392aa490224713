//! Every way a catalog call can fail, and what the user is told.

use quire_kit::{ApiError, ErrorCode, KitError};

#[derive(Debug, thiserror::Error)]
pub enum CatalogError {
    /// Bad input; the first field names what was wrong.
    #[error("{1}")]
    Invalid(&'static str, String),
    #[error("Authentication required")]
    Unauthenticated,
    #[error("{0}")]
    Forbidden(String),
    /// An unknown (or, for this caller, invisible) thing: "Book", "Comment", ...
    #[error("{0} not found")]
    NotFound(&'static str),
    #[error("Book Existed Already!")]
    BookExists,
    #[error("The book is not in the shop")]
    NotForSale,
    #[error("{0}")]
    TooLarge(String),
    /// A file that claims a supported format but cannot be read.
    #[error("{0}")]
    Unreadable(String),
    #[error(transparent)]
    Api(#[from] ApiError),
    #[error(transparent)]
    Kit(#[from] KitError),
    #[error("database: {0}")]
    Db(#[from] diesel::result::Error),
    #[error("object store: {0}")]
    Store(#[from] object_store::Error),
    #[error("search: {0}")]
    Search(#[from] quire_book_search::SearchError),
    #[error("{0}")]
    Internal(String),
}

impl CatalogError {
    pub fn invalid(field: &'static str, message: impl Into<String>) -> Self {
        Self::Invalid(field, message.into())
    }
    pub fn forbidden(message: impl Into<String>) -> Self {
        Self::Forbidden(message.into())
    }
}

impl From<quire_bookfile::BookFileError> for CatalogError {
    fn from(e: quire_bookfile::BookFileError) -> Self {
        use quire_bookfile::BookFileError as F;
        match e {
            F::Unsupported(m) => Self::Invalid("file", m),
            F::TooLarge(m) => Self::TooLarge(m),
            F::Unreadable(m) => Self::Unreadable(m),
        }
    }
}

impl From<tokio::task::JoinError> for CatalogError {
    fn from(e: tokio::task::JoinError) -> Self {
        Self::Internal(format!("worker task failed: {e}"))
    }
}

impl From<CatalogError> for ApiError {
    fn from(e: CatalogError) -> Self {
        let text = e.to_string();
        use CatalogError as E;
        match e {
            E::Invalid(field, _) => ApiError::bad_request(format!("invalid_{field}"), text),
            E::Unauthenticated => ApiError::unauthenticated(text),
            E::Forbidden(_) => ApiError::forbidden(text),
            E::NotFound(what) => {
                ApiError::not_found(format!("{}_not_found", what.to_lowercase()), text)
            }
            E::BookExists => ApiError::conflict("book_exists", text),
            E::NotForSale => ApiError::conflict("book_not_for_sale", text),
            E::TooLarge(_) => ApiError::new(ErrorCode::PayloadTooLarge, "file_too_large", text),
            E::Unreadable(_) => ApiError::new(ErrorCode::Unprocessable, "file_unreadable", text),
            E::Api(api) => api,
            E::Kit(kit) => kit.into(),
            E::Db(db) => ApiError::internal(&db),
            E::Store(store) => {
                tracing::error!(error = %store, "object store failed");
                ApiError::unavailable("Service temporarily unavailable")
            }
            E::Search(s) => ApiError::internal(&s),
            E::Internal(msg) => ApiError::internal(&msg),
        }
    }
}

impl From<CatalogError> for tonic::Status {
    fn from(e: CatalogError) -> Self {
        ApiError::from(e).into()
    }
}

pub type Result<T, E = CatalogError> = std::result::Result<T, E>;
