//! The calibrated demand models this replica has computed, so a revenue curve costs one
//! primary-key read and the curve itself rather than a genre's worth of rows and a
//! calibration. Each entry is keyed by what it was computed from: its genre, its
//! genre's version (moved by the projections whenever a book or a sale of the genre
//! changes: see [`super::observations`]) and the day (exposure grows with time). A request
//! reads the current version first, so an entry computed before a change is never served
//! again, on any replica (the version lives in the database, whichever replica's consumer
//! applied the change). Callers asking for the same missing entry at once wait for one
//! computation instead of each running it; superseded entries are evicted as new ones come.

use std::future::Future;
use std::sync::Arc;

use quire_pricing::{BookObservation, Posterior};
use uuid::Uuid;

use crate::error::Result;

/// Genres (at a version) whose observations are kept, about.
const GENRES: usize = 256;
/// How many observed books and sales the kept observations hold at most in all. One
/// genre's observations larger than a shard of this (an eighth or so) are not kept.
const OBSERVED: u64 = 4_000_000;
/// Calibrations kept: per genre and per book recently priced.
const POSTERIORS: usize = 20_000;

/// What an entry was computed from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Stamp {
    /// The genre's version in `genre_versions`.
    pub version: i64,
    /// Days since the common era (UTC): exposures are counted in days.
    pub day: i32,
}

/// A calibration, and whether its book is one of its genre's observed books.
pub type Calibrated = (Arc<Posterior>, bool);

type Observed = Arc<Vec<BookObservation>>;

/// Weighs a genre's observations by the books and sales they hold.
#[derive(Clone, Default)]
struct BySize;

impl quick_cache::Weighter<(String, Stamp), Observed> for BySize {
    fn weight(&self, _: &(String, Stamp), books: &Observed) -> u64 {
        let sales: usize = books.iter().map(|b| b.sales.len()).sum();
        (1 + books.len() + sales) as u64
    }
}

pub struct PricingCache {
    observations: quick_cache::sync::Cache<(String, Stamp), Observed, BySize>,
    posteriors: quick_cache::sync::Cache<(String, Option<Uuid>, Stamp), Calibrated>,
}

impl Default for PricingCache {
    fn default() -> Self {
        Self {
            observations: quick_cache::sync::Cache::with_weighter(GENRES, OBSERVED, BySize),
            posteriors: quick_cache::sync::Cache::new(POSTERIORS),
        }
    }
}

impl PricingCache {
    /// The observations of genre `key` at `stamp`, loaded by `load` unless kept.
    pub async fn observations(
        &self,
        key: &str,
        stamp: Stamp,
        load: impl Future<Output = Result<Vec<BookObservation>>>,
    ) -> Result<Observed> {
        self.observations
            .get_or_insert_async(&(key.to_owned(), stamp), async { load.await.map(Arc::new) })
            .await
    }

    /// The calibration of genre `key` (for `book`, or the genre alone) at `stamp`,
    /// computed by `calibrate` unless kept.
    pub async fn posterior(
        &self,
        key: &str,
        book: Option<Uuid>,
        stamp: Stamp,
        calibrate: impl Future<Output = Result<Calibrated>>,
    ) -> Result<Calibrated> {
        self.posteriors
            .get_or_insert_async(&(key.to_owned(), book, stamp), calibrate)
            .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn prior_only() -> Calibrated {
        let prior = quire_pricing::prior("romance");
        (Arc::new(quire_pricing::calibrate(&prior, &[], None)), false)
    }

    #[tokio::test]
    async fn an_entry_is_computed_once_per_stamp() {
        let cache = PricingCache::default();
        let at = Stamp {
            version: 3,
            day: 10,
        };
        let computed = std::sync::atomic::AtomicUsize::new(0);
        let compute = || async {
            computed.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            Ok(prior_only())
        };
        cache
            .posterior("romance", None, at, compute())
            .await
            .unwrap();
        cache
            .posterior("romance", None, at, compute())
            .await
            .unwrap();
        assert_eq!(computed.load(std::sync::atomic::Ordering::SeqCst), 1);
        // A new version, a new day or another book is computed afresh.
        let newer = Stamp {
            version: 4,
            day: 10,
        };
        let next_day = Stamp {
            version: 3,
            day: 11,
        };
        cache
            .posterior("romance", None, newer, compute())
            .await
            .unwrap();
        cache
            .posterior("romance", None, next_day, compute())
            .await
            .unwrap();
        cache
            .posterior("romance", Some(Uuid::nil()), at, compute())
            .await
            .unwrap();
        assert_eq!(computed.load(std::sync::atomic::Ordering::SeqCst), 4);
    }

    #[tokio::test]
    async fn a_failed_load_is_not_kept() {
        let cache = PricingCache::default();
        let at = Stamp { version: 1, day: 1 };
        let failed = cache
            .observations("poetry", at, async {
                Err(crate::error::ManuscriptError::Kit(
                    quire_kit::KitError::Internal("no database".into()),
                ))
            })
            .await;
        assert!(failed.is_err());
        let loaded = cache
            .observations("poetry", at, async { Ok(Vec::new()) })
            .await
            .unwrap();
        assert!(loaded.is_empty());
    }
}
