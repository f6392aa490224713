//! The catalog service's settings (`QUIRE_*` environment variables; see `.env.example`).

use serde::Deserialize;

#[derive(Debug, Clone, Deserialize)]
pub struct CatalogConfig {
    /// The auth service, whose JWKS verifies the callers' tokens.
    #[serde(default = "quire_kit::config::auth_url")]
    pub auth_url: String,
    /// The wallet service, asked whether a caller bought a book when the purchases
    /// projection has not seen the trade yet (read-your-writes after buying).
    #[serde(default = "quire_kit::config::wallet_url")]
    pub wallet_url: String,
    /// The deadline of that question; past it the caller gets the trial, as before buying.
    #[serde(default = "d_wallet_timeout")]
    pub wallet_timeout_ms: u64,
    /// Where book files and covers live: `file:///abs/dir` or `s3://bucket` (credentials
    /// and region from the usual `AWS_*` variables). Unset: `$QUIRE_DATA_DIR/objects`.
    #[serde(default)]
    pub object_store_url: Option<String>,
    /// Directory of this replica's search index; unset: the index lives in memory and is
    /// rebuilt from the books table at start.
    #[serde(default)]
    pub search_index_dir: Option<String>,
    /// Consumer group of this replica's search indexer (each replica reads every book
    /// event); unset: `catalog-search-<hostname>`.
    #[serde(default)]
    pub search_group: Option<String>,
    /// Consumer group of the purchases and user-name projections (shared by replicas).
    #[serde(default = "d_events_group")]
    pub events_group: String,
    /// The trial size until an admin changes it, in percent of the book.
    #[serde(default = "d_trial")]
    pub default_trial_percent: u8,
    /// The largest book file or cover accepted.
    #[serde(default = "d_max_upload")]
    pub max_upload_bytes: u64,
    /// Bytes of trial files kept in memory.
    #[serde(default = "d_trial_cache")]
    pub trial_cache_bytes: u64,
}

fn d_wallet_timeout() -> u64 {
    1000
}
fn d_events_group() -> String {
    "catalog".into()
}
fn d_trial() -> u8 {
    10
}
fn d_max_upload() -> u64 {
    50 * 1024 * 1024
}
fn d_trial_cache() -> u64 {
    256 * 1024 * 1024
}

impl CatalogConfig {
    pub fn from_env() -> Result<Self, envy::Error> {
        quire_kit::config::from_env()
    }

    /// The object store URL, defaulting to a folder under the data directory.
    pub fn object_store_url(&self) -> String {
        quire_kit::objects::url_or_default(self.object_store_url.as_deref())
    }

    pub fn search_group(&self) -> String {
        self.search_group.clone().unwrap_or_else(|| {
            let host = hostname::get()
                .ok()
                .and_then(|h| h.into_string().ok())
                .unwrap_or_else(|| "local".into());
            format!("catalog-search-{host}")
        })
    }
}

impl Default for CatalogConfig {
    fn default() -> Self {
        Self {
            auth_url: quire_kit::config::auth_url(),
            wallet_url: quire_kit::config::wallet_url(),
            wallet_timeout_ms: d_wallet_timeout(),
            object_store_url: None,
            search_index_dir: None,
            search_group: None,
            events_group: d_events_group(),
            default_trial_percent: d_trial(),
            max_upload_bytes: d_max_upload(),
            trial_cache_bytes: d_trial_cache(),
        }
    }
}
