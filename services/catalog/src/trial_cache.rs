//! Trial parts kept in memory: cutting an epub or pdf costs far more than serving it, and
//! every anonymous reader of a book asks for the same bytes. The key holds the file's hash
//! and the trial percentage, so a new file or a new setting never serves a stale trial.

use std::sync::Arc;

use bytes::Bytes;
use uuid::Uuid;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TrialKey {
    pub book_id: Uuid,
    pub file_index: i32,
    pub sha256: String,
    pub percent: u8,
}

#[derive(Clone)]
struct BytesWeighter;

impl quick_cache::Weighter<TrialKey, Bytes> for BytesWeighter {
    fn weight(&self, _key: &TrialKey, value: &Bytes) -> u64 {
        value.len().max(1) as u64
    }
}

#[derive(Clone)]
pub struct TrialCache {
    cache: Arc<quick_cache::sync::Cache<TrialKey, Bytes, BytesWeighter>>,
}

impl TrialCache {
    pub fn new(capacity_bytes: u64) -> Self {
        // Estimated item count: trials of a few hundred KiB.
        let items = usize::try_from(capacity_bytes / (256 * 1024))
            .unwrap_or(1024)
            .max(16);
        Self {
            cache: Arc::new(quick_cache::sync::Cache::with_weighter(
                items,
                capacity_bytes.max(1),
                BytesWeighter,
            )),
        }
    }

    pub fn get(&self, key: &TrialKey) -> Option<Bytes> {
        self.cache.get(key)
    }

    pub fn insert(&self, key: TrialKey, value: Bytes) {
        self.cache.insert(key, value);
    }
}
