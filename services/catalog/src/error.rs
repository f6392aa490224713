//! Every way a catalog call can fail, and what the user is told. What every service shares
//! is a [`KitError`], and decided there.

use quire_kit::{ApiError, ErrorCode, KitError};

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
    #[error(transparent)]
    Kit(#[from] KitError),
    // The six below are KitError's own failures, kept as variants of their own because
    // the handlers build and match them by name; each turns into its KitError to answer.
    /// Bad input; the first field names what was wrong.
    #[error("{1}")]
    Invalid(&'static str, String),
    #[error("Authentication required")]
    Unauthenticated,
    /// An unknown (or, for this caller, invisible) thing: "Book", "Comment", ...
    #[error("{0} not found")]
    NotFound(&'static str),
    #[error(transparent)]
    Api(#[from] ApiError),
    #[error("database: {0}")]
    Db(#[from] diesel::result::Error),
    #[error("{0}")]
    Internal(String),
}

impl CatalogError {
    pub fn invalid(field: &'static str, message: impl Into<String>) -> Self {
        Self::Invalid(field, message.into())
    }
    pub fn forbidden(message: impl Into<String>) -> Self {
        Self::Kit(KitError::Forbidden(message.into()))
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
            E::BookExists => ApiError::conflict("book_exists", text),
            E::NotForSale => ApiError::conflict("book_not_for_sale", text),
            E::TooLarge(_) => ApiError::new(ErrorCode::PayloadTooLarge, "file_too_large", text),
            E::Unreadable(_) => ApiError::new(ErrorCode::Unprocessable, "file_unreadable", text),
            E::Search(s) => ApiError::internal(&s),
            E::Kit(kit) => kit.into(),
            E::Invalid(field, message) => KitError::Invalid(field, message).into(),
            E::Unauthenticated => KitError::Unauthenticated.into(),
            E::NotFound(what) => KitError::NotFound(what).into(),
            E::Api(api) => api,
            E::Db(db) => KitError::Query(db).into(),
            E::Internal(message) => KitError::Internal(message).into(),
        }
    }
}

impl From<CatalogError> for tonic::Status {
    fn from(e: CatalogError) -> Self {
        ApiError::from(e).into()
    }
}

pub type Result<T, E = CatalogError> = std::result::Result<T, E>;
