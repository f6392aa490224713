//! Per-step latency (HdrHistogram, microseconds) and errors, shared by every journey task.

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::time::Duration;

use hdrhistogram::Histogram;

/// The slowest answer a histogram holds: past every request timeout.
const MAX_US: u64 = 30 * 60 * 1_000_000;
/// Error messages kept per step for the report (the count has them all).
const SAMPLES: usize = 5;

pub struct Step {
    pub latency: Histogram<u64>,
    pub errors: u64,
    pub samples: Vec<String>,
}

impl Step {
    fn new() -> Self {
        Self {
            // 1 us to 30 min at three significant figures: 0.1% of the value.
            latency: Histogram::new_with_bounds(1, MAX_US, 3)
                .unwrap_or_else(|e| unreachable!("fixed histogram bounds: {e}")),
            errors: 0,
            samples: Vec::new(),
        }
    }

    pub fn count(&self) -> u64 {
        self.latency.len()
    }

    /// The `q` quantile (0..=1) in milliseconds.
    pub fn ms(&self, q: f64) -> f64 {
        self.latency.value_at_quantile(q) as f64 / 1000.0
    }

    pub fn max_ms(&self) -> f64 {
        self.latency.max() as f64 / 1000.0
    }
}

/// The steps by name, in the order they were first seen (sorted by name for the table).
#[derive(Default)]
pub struct Stats {
    steps: Mutex<BTreeMap<String, Step>>,
}

impl Stats {
    pub fn ok(&self, step: &str, took: Duration) {
        let us = u64::try_from(took.as_micros())
            .unwrap_or(MAX_US)
            .clamp(1, MAX_US);
        let mut steps = self.steps.lock().unwrap_or_else(|p| p.into_inner());
        let s = steps.entry(step.to_owned()).or_insert_with(Step::new);
        s.latency.saturating_record(us);
    }

    pub fn error(&self, step: &str, what: String) {
        let mut steps = self.steps.lock().unwrap_or_else(|p| p.into_inner());
        let s = steps.entry(step.to_owned()).or_insert_with(Step::new);
        s.errors += 1;
        if s.samples.len() < SAMPLES {
            s.samples.push(what);
        }
    }

    /// Everything recorded, by step name.
    pub fn take(&self) -> BTreeMap<String, Step> {
        std::mem::take(&mut *self.steps.lock().unwrap_or_else(|p| p.into_inner()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_come_from_what_was_recorded() {
        let stats = Stats::default();
        for ms in 1..=100 {
            stats.ok("search", Duration::from_millis(ms));
        }
        stats.error("search", "POST /api/search: 500".into());
        let steps = stats.take();
        let s = &steps["search"];
        assert_eq!(s.count(), 100);
        assert_eq!(s.errors, 1);
        assert!((s.ms(0.5) - 50.0).abs() < 0.1, "p50 {}", s.ms(0.5));
        assert!((s.ms(0.99) - 99.0).abs() < 0.1, "p99 {}", s.ms(0.99));
        assert!((s.max_ms() - 100.0).abs() < 0.1, "max {}", s.max_ms());
    }
}
