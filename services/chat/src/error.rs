//! Every way a chat call can fail, and what the user is told: the failures every service
//! shares ([`KitError`]); the chat has none of its own yet beyond them.

pub use quire_kit::error::CommonErrors;
use quire_kit::{ApiError, KitError};

#[derive(Debug, thiserror::Error)]
pub enum ChatError {
    #[error(transparent)]
    Kit(#[from] KitError),
}

impl CommonErrors for ChatError {}

impl From<diesel::result::Error> for ChatError {
    fn from(e: diesel::result::Error) -> Self {
        Self::Kit(e.into())
    }
}

impl From<ApiError> for ChatError {
    fn from(e: ApiError) -> Self {
        Self::Kit(e.into())
    }
}

impl From<tokio::task::JoinError> for ChatError {
    fn from(e: tokio::task::JoinError) -> Self {
        Self::internal(format!("worker task failed: {e}"))
    }
}

impl From<serde_json::Error> for ChatError {
    fn from(e: serde_json::Error) -> Self {
        Self::internal(format!("stored json unreadable: {e}"))
    }
}

impl From<ChatError> for ApiError {
    fn from(e: ChatError) -> Self {
        match e {
            ChatError::Kit(kit) => kit.into(),
        }
    }
}

impl From<ChatError> for tonic::Status {
    fn from(e: ChatError) -> Self {
        ApiError::from(e).into()
    }
}

pub type Result<T, E = ChatError> = std::result::Result<T, E>;
