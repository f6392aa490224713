//! The open model: journey `i` starts at `i / rate` seconds after the run's start, each in
//! a task of its own, whatever the earlier ones are doing. A slow stack therefore meets
//! more journeys at once instead of fewer (a closed loop of clients would slow its own
//! arrivals down and hide the wait, the "coordinated omission"); and the journeys measure
//! from their scheduled start, so a late start is counted as latency too.

use std::future::Future;
use std::time::Duration;

use tokio::task::JoinSet;
use tokio::time::Instant;

/// How many journeys a run of `duration` at `rate` per second starts: those scheduled
/// before its end.
pub fn count(rate: f64, duration: Duration) -> u64 {
    (rate * duration.as_secs_f64()).ceil() as u64
}

/// When journey `i` is due, from the run's start.
pub fn offset(i: u64, rate: f64) -> Duration {
    Duration::from_secs_f64(i as f64 / rate)
}

/// How the schedule was kept.
#[derive(Debug, Clone, Copy)]
pub struct Dispatch {
    pub target_rate: f64,
    pub started: u64,
    /// Arrivals per second achieved: started / (last start - run start + one interval);
    /// the target when every journey started on time.
    pub achieved_rate: f64,
    /// The latest a journey started after its scheduled time.
    pub max_lag: Duration,
    /// From the run's start until the last journey ended.
    pub elapsed: Duration,
    /// Most journeys under way at once.
    pub peak_in_flight: usize,
}

impl Dispatch {
    /// How far the generator fell behind its own schedule, in percent of the target.
    pub fn behind_pct(&self) -> f64 {
        ((self.target_rate - self.achieved_rate) / self.target_rate * 100.0).max(0.0)
    }
}

/// Starts `start(i, due)` for every journey of the schedule at its due time and waits
/// for them all. `start` is called on time even when earlier journeys have not ended.
pub async fn run<F, Fut>(rate: f64, duration: Duration, mut start: F) -> Dispatch
where
    F: FnMut(u64, Instant) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    let n = count(rate, duration);
    let t0 = Instant::now();
    let mut tasks = JoinSet::new();
    let mut max_lag = Duration::ZERO;
    let mut last_start = t0;
    let mut peak = 0;
    for i in 0..n {
        let due = t0 + offset(i, rate);
        // Late already (the runtime was busy): start now, and the next ones as soon as
        // their time has come, in a burst, so that the schedule is kept on average.
        tokio::time::sleep_until(due).await;
        let now = Instant::now();
        max_lag = max_lag.max(now - due);
        last_start = now;
        // Finished journeys are collected as we go, so the set holds those under way.
        while tasks.try_join_next().is_some() {}
        tasks.spawn(start(i, due));
        peak = peak.max(tasks.len());
    }
    while tasks.join_next().await.is_some() {}
    let span = (last_start - t0).as_secs_f64() + 1.0 / rate;
    Dispatch {
        target_rate: rate,
        started: n,
        achieved_rate: if n == 0 { 0.0 } else { n as f64 / span },
        max_lag,
        elapsed: t0.elapsed(),
        peak_in_flight: peak,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::sync::Mutex;

    #[test]
    fn journeys_are_due_at_even_intervals_until_the_end_of_the_run() {
        assert_eq!(count(5.0, Duration::from_secs(60)), 300);
        assert_eq!(count(2.0, Duration::from_millis(15_200)), 31);
        assert_eq!(offset(0, 5.0), Duration::ZERO);
        assert_eq!(offset(7, 5.0), Duration::from_millis(1400));
    }

    /// Each journey takes 30 intervals; a closed loop would start a handful in the run.
    /// The open model starts every one on time, and many are under way at once.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn slow_journeys_do_not_delay_the_next_starts() {
        let starts = Arc::new(Mutex::new(Vec::new()));
        let t0 = Instant::now();
        let seen = starts.clone();
        let d = run(100.0, Duration::from_millis(500), move |i, due| {
            seen.lock().unwrap().push((i, due, Instant::now()));
            tokio::time::sleep(Duration::from_millis(300))
        })
        .await;
        let starts = starts.lock().unwrap();
        assert_eq!(d.started, 50);
        assert_eq!(starts.len(), 50);
        let (_, last_due, last_start) = starts[49];
        assert!(last_due - t0 < Duration::from_millis(500));
        assert!(
            last_start - t0 < Duration::from_millis(600),
            "the 50th journey started {:?} after the run began",
            last_start - t0
        );
        assert!(
            d.peak_in_flight >= 25,
            "{} under way at most",
            d.peak_in_flight
        );
        assert!(
            d.behind_pct() < 5.0,
            "achieved {} of 100/s",
            d.achieved_rate
        );
        // The run waits for the last journey: 0.49 s + 0.3 s.
        assert!(d.elapsed >= Duration::from_millis(790));
    }
}
