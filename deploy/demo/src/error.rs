//! The one error type of the demo crate.

#[derive(Debug, thiserror::Error)]
pub enum DemoError {
    #[error("book file: {0}")]
    Fixture(#[from] quire_fixtures::FixtureError),
    #[error("io: {0}")]
    Io(#[from] std::io::Error),
    #[error("json: {0}")]
    Json(#[from] serde_json::Error),
    #[error("text source {source_name}: {reason}")]
    Source { source_name: String, reason: String },
    #[error("bad input: {0}")]
    Invalid(String),
    #[cfg(feature = "loader")]
    #[error("grpc transport: {0}")]
    Transport(#[from] tonic::transport::Error),
    #[cfg(feature = "loader")]
    #[error("{call}: {status}")]
    Rpc {
        call: &'static str,
        status: Box<tonic::Status>,
    },
}
