use std::path::Path;

use crate::{Embedder, files};

/// What a service has for semantic matching: the model, or the reason it matches
/// lexically only. Built once at start-up; it never fails, so the service starts either way.
pub struct MaybeEmbedder {
    embedder: Option<Embedder>,
    status: String,
}

impl MaybeEmbedder {
    /// Loads the model from `$QUIRE_EMBED_MODEL_DIR`, else from fetch-model.sh's folder.
    pub fn from_env() -> Self {
        match files::model_dir_from_env() {
            Some(dir) => Self::load(&dir),
            None => Self::without(format!(
                "lexical only: no model folder (set {} or HOME)",
                files::MODEL_DIR_ENV
            )),
        }
    }

    /// Loads the model from `dir`, logging which way the service will match.
    pub fn load(dir: &Path) -> Self {
        let shown = dir.display().to_string();
        match Embedder::load(dir) {
            Ok(embedder) => {
                tracing::info!(model_dir = %shown, "sentence embeddings ready: semantic and lexical matching");
                Self {
                    embedder: Some(embedder),
                    status: format!("semantic: all-MiniLM-L6-v2 from {shown}"),
                }
            }
            Err(error) => Self::without(format!("lexical only: {error}")),
        }
    }

    /// No model, by the operator's choice (`reason` says which setting).
    pub fn disabled(reason: &str) -> Self {
        Self::without(format!("lexical only: {reason}"))
    }

    fn without(status: String) -> Self {
        tracing::warn!(%status, "sentence embeddings unavailable: lexical matching only");
        Self {
            embedder: None,
            status,
        }
    }

    /// The model, when it loaded.
    pub fn embedder(&self) -> Option<&Embedder> {
        self.embedder.as_ref()
    }

    /// One line for the readiness detail: `semantic: ...` or `lexical only: <why>`.
    pub fn status(&self) -> &str {
        &self.status
    }
}

impl Embedder {
    /// [`MaybeEmbedder::from_env`]: the model if it can be had, lexical-only otherwise.
    pub fn from_env() -> MaybeEmbedder {
        MaybeEmbedder::from_env()
    }
}
