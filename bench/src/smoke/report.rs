//! The verdict of a run: the table (step, count, errors, p50, p95, p99, max, bound), the
//! arrival rate achieved against the target, and why it failed, if it did.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::schedule::Dispatch;
use super::stats::Step;

/// The p99 each step must stay under, in ms, unless `--p99` says otherwise; bench/smoke.md
/// says where they come from.
pub const DEFAULT_BOUNDS: [(&str, f64); 13] = [
    ("browse: home list", 500.0),
    ("browse: book page", 500.0),
    ("browse: book toc", 500.0),
    ("search", 500.0),
    ("chat: turn", 1000.0),
    ("chat: recbooks", 1000.0),
    ("buy: recharge", 1000.0),
    ("buy: trade", 1000.0),
    ("read: toc", 500.0),
    ("read: content", 1000.0),
    ("read: progress", 500.0),
    ("upload: publish", 5000.0),
    ("upload: manuscript", 500.0),
];

/// The generator may fall this far behind its schedule, in percent of the target rate.
pub const MAX_BEHIND_PCT: f64 = 5.0;

/// The default bounds with `overrides` (`step=ms,step=ms`) applied.
pub fn bounds(overrides: Option<&str>) -> anyhow::Result<BTreeMap<String, f64>> {
    let mut bounds: BTreeMap<String, f64> = DEFAULT_BOUNDS
        .iter()
        .map(|(s, ms)| ((*s).to_owned(), *ms))
        .collect();
    for part in overrides
        .unwrap_or("")
        .split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
    {
        let (step, ms) = part
            .rsplit_once('=')
            .ok_or_else(|| anyhow::anyhow!("--p99: \"{part}\" is not step=ms"))?;
        let step = step.trim();
        if !bounds.contains_key(step) {
            anyhow::bail!(
                "--p99: no step \"{step}\" (steps: {})",
                DEFAULT_BOUNDS.map(|(s, _)| s).join(", ")
            );
        }
        let ms: f64 = ms
            .trim()
            .parse()
            .ok()
            .filter(|v: &f64| *v > 0.0)
            .ok_or_else(|| {
                anyhow::anyhow!("--p99: the bound of {step} is not a positive number of ms")
            })?;
        bounds.insert(step.to_owned(), ms);
    }
    Ok(bounds)
}

pub struct Verdict {
    pub table: String,
    pub failures: Vec<String>,
}

pub fn judge(
    steps: &BTreeMap<String, Step>,
    bounds: &BTreeMap<String, f64>,
    dispatch: &Dispatch,
) -> Verdict {
    let mut failures = Vec::new();
    let mut table = String::from(
        "| step | count | errors | p50 ms | p95 ms | p99 ms | max ms | p99 bound ms |\n|---|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    // The steps in journey order, then each journey as a whole.
    let order: Vec<&str> = DEFAULT_BOUNDS
        .iter()
        .map(|(s, _)| *s)
        .chain(
            steps
                .keys()
                .map(String::as_str)
                .filter(|k| k.starts_with("journey: ")),
        )
        .collect();
    for name in order {
        let Some(s) = steps.get(name) else { continue };
        let bound = bounds.get(name);
        let cell = |v: f64| {
            if s.count() == 0 {
                "-".to_owned()
            } else {
                format!("{v:.1}")
            }
        };
        let _ = writeln!(
            table,
            "| {name} | {} | {} | {} | {} | {} | {} | {} |",
            s.count(),
            s.errors,
            cell(s.ms(0.50)),
            cell(s.ms(0.95)),
            cell(s.ms(0.99)),
            cell(s.max_ms()),
            bound.map_or("-".to_owned(), |b| format!("{b:.0}")),
        );
        if name.starts_with("journey: ") {
            continue;
        }
        if s.errors > 0 {
            failures.push(format!(
                "{name}: {} error(s), e.g. {}",
                s.errors,
                s.samples.first().map_or("", String::as_str)
            ));
        }
        if let Some(b) = bound
            && s.count() > 0
            && s.ms(0.99) > *b
        {
            failures.push(format!(
                "{name}: p99 {:.1} ms over its bound of {b:.0} ms",
                s.ms(0.99)
            ));
        }
    }
    let _ = writeln!(
        table,
        "\nArrivals: {} journeys, {:.2}/s achieved of {:.2}/s targeted ({:.1}% behind; latest start {:.1} ms after its time); at most {} under way at once; {:.1} s until the last ended.",
        dispatch.started,
        dispatch.achieved_rate,
        dispatch.target_rate,
        dispatch.behind_pct(),
        dispatch.max_lag.as_secs_f64() * 1000.0,
        dispatch.peak_in_flight,
        dispatch.elapsed.as_secs_f64(),
    );
    if dispatch.behind_pct() > MAX_BEHIND_PCT {
        failures.push(format!(
            "the generator fell {:.1}% behind its schedule (more than {MAX_BEHIND_PCT}%): the machine could not start journeys that fast",
            dispatch.behind_pct()
        ));
    }
    Verdict { table, failures }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::smoke::stats::Stats;
    use std::time::Duration;

    fn dispatch(achieved: f64) -> Dispatch {
        Dispatch {
            target_rate: 5.0,
            started: 300,
            achieved_rate: achieved,
            max_lag: Duration::from_millis(2),
            elapsed: Duration::from_secs(61),
            peak_in_flight: 4,
        }
    }

    #[test]
    fn a_run_fails_on_an_error_a_slow_p99_or_a_late_generator() {
        let stats = Stats::default();
        for _ in 0..100 {
            stats.ok("search", Duration::from_millis(20));
            stats.ok("chat: turn", Duration::from_millis(2500));
        }
        stats.error("buy: trade", "GET /api/trade: 500 boom".into());
        let bounds = bounds(Some("search=10")).unwrap();
        let v = judge(&stats.take(), &bounds, &dispatch(4.9));
        assert!(v.table.contains("| search | 100 | 0 |"), "{}", v.table);
        let all = v.failures.join("\n");
        assert!(
            all.contains("search: p99 20.0 ms over its bound of 10 ms"),
            "{all}"
        );
        assert!(all.contains("chat: turn: p99"), "{all}");
        assert!(
            all.contains("buy: trade: 1 error(s), e.g. GET /api/trade: 500 boom"),
            "{all}"
        );
        assert!(!all.contains("behind"), "2% behind is within 5%: {all}");

        let on_time = Stats::default();
        on_time.ok("search", Duration::from_millis(5));
        let v = judge(&on_time.take(), &bounds, &dispatch(4.0));
        assert_eq!(v.failures.len(), 1, "{:?}", v.failures);
        assert!(v.failures[0].contains("20.0% behind"), "{:?}", v.failures);
    }

    #[test]
    fn a_bound_for_an_unknown_step_is_refused() {
        assert!(
            bounds(Some("serach=10"))
                .unwrap_err()
                .to_string()
                .contains("no step")
        );
        assert!(bounds(Some("search=-1")).is_err());
        assert_eq!(
            bounds(Some("chat: turn=1500")).unwrap()["chat: turn"],
            1500.0
        );
    }
}
