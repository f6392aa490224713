//! The rate limits' fallback while Redis is unreachable: the same fixed one-minute windows,
//! counted in this process only.
//!
//! A limit per replica lets a client N replicas times the limit, which is better than no
//! limit and better than refusing everyone while Redis is down. Memory stays bounded: at
//! most `capacity` windows are kept, and when a new client comes to a full table the
//! oldest window goes (its client starts a fresh window: at worst a little more allowed).

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;
use std::time::Instant;

/// The length of a window, as in Redis (`EXPIRE key 60 NX`).
const WINDOW_MS: u64 = 60_000;

/// How many clients the fallback remembers by default: a few MB at most.
pub const DEFAULT_CAPACITY: usize = 100_000;

struct Window {
    started_ms: u64,
    count: u32,
}

#[derive(Default)]
struct Windows {
    by_key: HashMap<String, Window>,
    /// Every window by the time it started, oldest first (an entry whose key has since
    /// started a newer window is skipped when it comes up).
    by_age: VecDeque<(u64, String)>,
}

/// The windows of one process.
pub struct LocalLimits {
    origin: Instant,
    capacity: usize,
    windows: Mutex<Windows>,
}

impl LocalLimits {
    pub fn new(capacity: usize) -> Self {
        Self {
            origin: Instant::now(),
            capacity: capacity.max(1),
            windows: Mutex::default(),
        }
    }

    /// Counts one request in the window of `key` now; answers the window's count and the
    /// seconds left in it, as Redis's `INCR` and `TTL` do.
    pub fn count(&self, key: &str) -> (u32, u64) {
        self.count_at(key, self.origin.elapsed().as_millis() as u64)
    }

    /// [`Self::count`] at `now_ms` (milliseconds on a clock that never goes back).
    pub fn count_at(&self, key: &str, now_ms: u64) -> (u32, u64) {
        // A poisoned lock only means another request panicked midway: the counts are
        // still counts.
        let mut windows = self
            .windows
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        windows.forget_ended(now_ms);
        let live = windows
            .by_key
            .get(key)
            .is_some_and(|w| now_ms < w.started_ms + WINDOW_MS);
        if !live {
            while windows.by_key.len() >= self.capacity && windows.drop_oldest() {}
            windows.by_key.insert(
                key.to_owned(),
                Window {
                    started_ms: now_ms,
                    count: 0,
                },
            );
            windows.by_age.push_back((now_ms, key.to_owned()));
        }
        let Some(window) = windows.by_key.get_mut(key) else {
            return (1, WINDOW_MS / 1000);
        };
        window.count = window.count.saturating_add(1);
        let left_ms = (window.started_ms + WINDOW_MS).saturating_sub(now_ms);
        (window.count, left_ms.div_ceil(1000))
    }

    /// How many clients are remembered now.
    pub fn len(&self) -> usize {
        self.windows
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .by_key
            .len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl Default for LocalLimits {
    fn default() -> Self {
        Self::new(DEFAULT_CAPACITY)
    }
}

impl Windows {
    /// Drops the windows that ended by `now_ms`.
    fn forget_ended(&mut self, now_ms: u64) {
        while self
            .by_age
            .front()
            .is_some_and(|(started, _)| started + WINDOW_MS <= now_ms)
        {
            self.drop_oldest();
        }
    }

    /// Drops the oldest window; false when there is none.
    fn drop_oldest(&mut self) -> bool {
        let Some((started, key)) = self.by_age.pop_front() else {
            return false;
        };
        if self
            .by_key
            .get(&key)
            .is_some_and(|w| w.started_ms == started)
        {
            self.by_key.remove(&key);
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_window_counts_its_requests_and_says_how_long_it_has_left() {
        let limits = LocalLimits::new(10);
        assert_eq!(limits.count_at("api:a", 1_000), (1, 60));
        assert_eq!(limits.count_at("api:a", 2_000), (2, 59));
        assert_eq!(limits.count_at("api:a", 60_500), (3, 1));
    }

    #[test]
    fn a_new_window_starts_once_the_minute_is_over() {
        let limits = LocalLimits::new(10);
        for _ in 0..5 {
            limits.count_at("api:a", 0);
        }
        assert_eq!(limits.count_at("api:a", 60_000), (1, 60));
    }

    #[test]
    fn clients_are_counted_apart() {
        let limits = LocalLimits::new(10);
        limits.count_at("api:a", 0);
        limits.count_at("api:a", 0);
        assert_eq!(limits.count_at("api:b", 0), (1, 60));
        assert_eq!(limits.count_at("login:a", 0), (1, 60));
    }

    #[test]
    fn a_full_table_drops_the_oldest_window_for_a_new_client() {
        let limits = LocalLimits::new(3);
        limits.count_at("a", 0);
        limits.count_at("b", 10);
        limits.count_at("c", 20);
        limits.count_at("a", 30);
        limits.count_at("d", 40);
        assert_eq!(limits.len(), 3);
        // `a` was the oldest window: it starts again; `b` and `c` keep theirs.
        assert_eq!(limits.count_at("b", 50), (2, 60));
        assert_eq!(limits.count_at("a", 60), (1, 60));
        assert_eq!(limits.len(), 3);
    }

    #[test]
    fn ended_windows_are_forgotten() {
        let limits = LocalLimits::new(100);
        for i in 0..50 {
            limits.count_at(&format!("client:{i}"), 0);
        }
        limits.count_at("late", 61_000);
        assert_eq!(limits.len(), 1);
    }

    #[test]
    fn a_client_that_restarts_its_window_is_not_dropped_by_its_old_one() {
        let limits = LocalLimits::new(100);
        limits.count_at("a", 0);
        limits.count_at("a", 60_000);
        limits.count_at("b", 60_001);
        assert_eq!(limits.count_at("a", 61_000), (2, 59));
        assert_eq!(limits.len(), 2);
    }
}
