//! The one error type of the crate; its messages reach users through the REST envelope.

/// Why a book file was refused. Each variant maps to one HTTP status at the edge.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BookFileError {
    /// Not an epub, pdf or txt, or the name's extension disagrees with the content (415-like).
    #[error("{0}")]
    Unsupported(String),
    /// Over a size limit (413).
    #[error("{0}")]
    TooLarge(String),
    /// Claims a supported format but cannot be read safely (422).
    #[error("{0}")]
    Unreadable(String),
}

impl BookFileError {
    pub(crate) fn unreadable(format: &str, why: impl std::fmt::Display) -> Self {
        Self::Unreadable(format!("The {format} is unreadable: {why}"))
    }
}
