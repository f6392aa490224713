//! The chat service's settings (`QUIRE_*` environment variables). Names of its own say
//! "chat" (or what they bound): one `.env` may hold every service's settings.

use std::time::Duration;

use serde::Deserialize;

#[derive(Debug, Clone, Deserialize)]
pub struct ChatConfig {
    /// The auth service, whose JWKS verifies the callers' tokens.
    #[serde(default = "quire_kit::config::auth_url")]
    pub auth_url: String,
    /// The catalog service, whose search gives the candidates.
    #[serde(default = "quire_kit::config::catalog_url")]
    pub catalog_url: String,
    /// The deadline of one catalog search; past it the index alone ranks.
    #[serde(default = "d_search_timeout")]
    pub chat_search_timeout_ms: u64,
    /// Consumer group of the book and trade projections: one per replica (each keeps its
    /// own index of the shop in memory, so each must see every event).
    #[serde(default = "d_events_group")]
    pub chat_events_group: String,
    /// Query vectors kept (the LRU of the texts last embedded).
    #[serde(default = "d_query_cache")]
    pub chat_query_cache: usize,
    /// Books embedded at once by the background task.
    #[serde(default = "d_embed_batch")]
    pub chat_embed_batch: usize,
    /// Semantic matching with the sentence-embedding model (`QUIRE_EMBED_MODEL_DIR`, else
    /// fetch-model.sh's folder). `false`: lexical only, nothing embedded (tests that do not
    /// measure the model, where a model per service would cost each a core and 90 MB).
    #[serde(default = "d_semantic")]
    pub chat_semantic: bool,
}

fn d_search_timeout() -> u64 {
    1500
}
fn d_events_group() -> String {
    "chat".into()
}
fn d_query_cache() -> usize {
    1000
}
fn d_semantic() -> bool {
    true
}
fn d_embed_batch() -> usize {
    8
}

impl ChatConfig {
    pub fn from_env() -> Result<Self, envy::Error> {
        quire_kit::config::from_env()
    }

    /// Refuses settings the service cannot work with.
    pub fn check(&self) -> anyhow::Result<()> {
        if self.chat_embed_batch == 0 || self.chat_query_cache == 0 {
            anyhow::bail!("chat_embed_batch and chat_query_cache must be above zero");
        }
        Ok(())
    }

    pub fn search_timeout(&self) -> Duration {
        Duration::from_millis(self.chat_search_timeout_ms)
    }
}

impl Default for ChatConfig {
    fn default() -> Self {
        Self {
            auth_url: quire_kit::config::auth_url(),
            catalog_url: quire_kit::config::catalog_url(),
            chat_search_timeout_ms: d_search_timeout(),
            chat_events_group: d_events_group(),
            chat_query_cache: d_query_cache(),
            chat_embed_batch: d_embed_batch(),
            chat_semantic: d_semantic(),
        }
    }
}
