//! The one error type of the crate.

/// What can go wrong with the index.
#[derive(Debug, thiserror::Error)]
pub enum SearchError {
    /// tantivy failed (I/O, a corrupt segment, a poisoned writer).
    #[error("search index error: {0}")]
    Index(#[from] tantivy::TantivyError),
    /// Reading an index structure failed.
    #[error("search index i/o error: {0}")]
    Io(#[from] std::io::Error),
    /// The index directory could not be created or opened.
    #[error("search index directory error: {0}")]
    Directory(String),
    /// A stored document lacked a field the schema promises (a foreign or corrupt index).
    #[error("search index holds a malformed document: {0}")]
    Corrupt(String),
    /// A lock was poisoned by a panicking thread.
    #[error("search index lock poisoned")]
    Poisoned,
}
