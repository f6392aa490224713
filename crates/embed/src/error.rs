use std::path::PathBuf;

pub type Result<T> = std::result::Result<T, Error>;

/// Why the model could not be loaded or a text could not be embedded.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("no sentence-embedding model file at {path} (run deploy/local/fetch-model.sh)")]
    MissingFile {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{path} is not the pinned model: sha256 {found}, expected {expected}")]
    WrongModel {
        path: PathBuf,
        expected: &'static str,
        found: String,
    },
    #[error("cannot read the model config {path}: {source}")]
    Config {
        path: PathBuf,
        #[source]
        source: serde_json::Error,
    },
    #[error("tokenizer: {0}")]
    Tokenizer(String),
    #[error("model: {0}")]
    Model(#[from] candle_core::Error),
}
