//! The manuscript service's settings (`QUIRE_*` environment variables; see `.env.example`).
//! Names of its own say "manuscript" (or what they bound): one `.env` may hold every
//! service's settings, and catalog already reads `QUIRE_MAX_UPLOAD_BYTES`, wallet
//! `QUIRE_CATALOG_TIMEOUT_MS`.

use std::path::PathBuf;
use std::time::Duration;

use serde::Deserialize;

#[derive(Debug, Clone, Deserialize)]
pub struct ManuscriptConfig {
    /// The auth service, whose JWKS verifies the callers' tokens.
    #[serde(default = "quire_kit::config::auth_url")]
    pub auth_url: String,
    /// The catalog service, which makes each manuscript's book.
    #[serde(default = "quire_kit::config::catalog_url")]
    pub catalog_url: String,
    /// The deadline of one CreateBook call (it stores and reads the book's file).
    #[serde(default = "d_catalog_timeout")]
    pub create_book_timeout_ms: u64,
    /// Where the uploaded files live: `file:///abs/dir`, `s3://bucket` (credentials and
    /// region from the usual `AWS_*` variables) or `memory://`. Unset:
    /// `$QUIRE_DATA_DIR/objects` (shared with catalog: keys never collide).
    #[serde(default)]
    pub object_store_url: Option<String>,
    /// Consumer group of the book projection (the manuscript list's "published").
    #[serde(default = "d_events_group")]
    pub events_group: String,
    /// Most files in one upload.
    #[serde(default = "d_max_files")]
    pub manuscript_max_files: usize,
    /// Most bytes of all the files of one upload together.
    #[serde(default = "d_max_upload")]
    pub manuscript_max_bytes: u64,
    /// Most characters of text kept from one manuscript.
    #[serde(default = "d_max_text")]
    pub manuscript_max_text_chars: usize,
    /// Most characters the AI check takes at once.
    #[serde(default = "d_max_check")]
    pub ai_check_max_chars: usize,
    /// How long reading and analysing one upload may take before it is refused (422),
    /// waiting for a free core included.
    #[serde(default = "d_processing")]
    pub manuscript_processing_secs: u64,
    /// The memory one extraction worker may commit, in MiB (its heap and thread stacks:
    /// RLIMIT_DATA): past it the worker dies and the upload is refused (422), the service
    /// unharmed.
    #[serde(default = "d_extract_memory")]
    pub manuscript_extract_memory_mb: u64,
    /// The CPU seconds one extraction worker may use before the kernel stops it (422).
    #[serde(default = "d_extract_cpu")]
    pub manuscript_extract_cpu_secs: u64,
    /// The time one extraction worker may take from its start to its answer, however it
    /// spends it (waiting included): past it the worker is killed and the upload refused.
    #[serde(default = "d_extract_wall")]
    pub manuscript_extract_wall_ms: u64,
    /// The extraction worker's program: the service binary itself (`quire-manuscript
    /// extract`). Unset: this process' own executable, which is the service binary in
    /// production; tests, whose executable is the test binary, name the built service.
    #[serde(default)]
    pub manuscript_extract_worker: Option<PathBuf>,
    /// An upload or a book in the making older than this was abandoned by a process that
    /// died: the sweeper settles it. Longer than any upload takes.
    #[serde(default = "d_stale")]
    pub stale_upload_secs: u64,
    /// How often the sweeper looks.
    #[serde(default = "d_sweep")]
    pub sweep_every_secs: u64,
    /// How long an upload's progress stays readable.
    #[serde(default = "d_progress_ttl")]
    pub upload_progress_ttl_secs: u64,
}

fn d_catalog_timeout() -> u64 {
    60_000
}
fn d_events_group() -> String {
    "manuscript".into()
}
fn d_max_files() -> usize {
    50
}
fn d_max_upload() -> u64 {
    50 * 1024 * 1024
}
fn d_max_text() -> usize {
    5_000_000
}
fn d_max_check() -> usize {
    200_000
}
fn d_processing() -> u64 {
    300
}
fn d_extract_memory() -> u64 {
    512
}
fn d_extract_cpu() -> u64 {
    30
}
fn d_extract_wall() -> u64 {
    60_000
}
fn d_stale() -> u64 {
    900
}
fn d_sweep() -> u64 {
    60
}
fn d_progress_ttl() -> u64 {
    24 * 3600
}

impl ManuscriptConfig {
    pub fn from_env() -> Result<Self, envy::Error> {
        quire_kit::config::from_env()
    }

    /// Refuses settings under which the sweeper could take an upload still under way.
    pub fn check(&self) -> anyhow::Result<()> {
        let busiest = self.manuscript_processing_secs + 4 * self.create_book_timeout_ms / 1000;
        if self.stale_upload_secs <= busiest {
            anyhow::bail!(
                "stale_upload_secs ({}) must exceed the longest upload ({busiest} s: \
                 manuscript_processing_secs and four create_book deadlines)",
                self.stale_upload_secs
            );
        }
        if self.manuscript_max_files == 0 || self.manuscript_max_bytes == 0 {
            anyhow::bail!("manuscript_max_files and manuscript_max_bytes must be above zero");
        }
        if self.manuscript_extract_memory_mb == 0
            || self.manuscript_extract_cpu_secs == 0
            || self.manuscript_extract_wall_ms == 0
        {
            anyhow::bail!(
                "manuscript_extract_memory_mb, manuscript_extract_cpu_secs and \
                 manuscript_extract_wall_ms must be above zero"
            );
        }
        if self.manuscript_extract_wall_ms > self.manuscript_processing_secs * 1000 {
            anyhow::bail!(
                "manuscript_extract_wall_ms ({}) must not exceed manuscript_processing_secs \
                 ({} s): the extraction is part of the processing",
                self.manuscript_extract_wall_ms,
                self.manuscript_processing_secs
            );
        }
        Ok(())
    }

    /// The object store URL, defaulting to a folder under the data directory.
    pub fn object_store_url(&self) -> String {
        quire_kit::objects::url_or_default(self.object_store_url.as_deref())
    }

    pub fn catalog_timeout(&self) -> Duration {
        Duration::from_millis(self.create_book_timeout_ms)
    }

    /// Consumer group of the analytics projections (books, trades, campaigns): a group of
    /// its own, named after [`Self::events_group`], because a projection added later must
    /// read the topics from their start, which the older group has long moved past.
    pub fn analytics_group(&self) -> String {
        format!("{}-analytics", self.events_group)
    }

    /// The memory limit of one extraction worker, in bytes.
    pub fn extract_memory_bytes(&self) -> u64 {
        self.manuscript_extract_memory_mb
            .saturating_mul(1024 * 1024)
    }

    pub fn extract_wall(&self) -> Duration {
        Duration::from_millis(self.manuscript_extract_wall_ms)
    }

    pub fn stale_after(&self) -> Duration {
        Duration::from_secs(self.stale_upload_secs)
    }
}

impl Default for ManuscriptConfig {
    fn default() -> Self {
        Self {
            auth_url: quire_kit::config::auth_url(),
            catalog_url: quire_kit::config::catalog_url(),
            create_book_timeout_ms: d_catalog_timeout(),
            object_store_url: None,
            events_group: d_events_group(),
            manuscript_max_files: d_max_files(),
            manuscript_max_bytes: d_max_upload(),
            manuscript_max_text_chars: d_max_text(),
            ai_check_max_chars: d_max_check(),
            manuscript_processing_secs: d_processing(),
            manuscript_extract_memory_mb: d_extract_memory(),
            manuscript_extract_cpu_secs: d_extract_cpu(),
            manuscript_extract_wall_ms: d_extract_wall(),
            manuscript_extract_worker: None,
            stale_upload_secs: d_stale(),
            sweep_every_secs: d_sweep(),
            upload_progress_ttl_secs: d_progress_ttl(),
        }
    }
}
