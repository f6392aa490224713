//! `make smoke`: for a minute, simulated readers and writers walk Quire's main journeys
//! (browse, search, chat, buy and read, upload) against a running stack at a fixed
//! arrival rate, an open model: journeys start on schedule however slowly the stack
//! answers, and their steps are timed from the scheduled start, so queueing is counted.
//! It exits non-zero on any failed call or timeout, on a step whose p99 is over its
//! bound, and when it could not keep its own schedule (more than 5% behind).
//!
//! Users are made before the clock starts, through the e-mail code as people do (the
//! code read from an SMTP sink this program runs, or from the auth log of a stack
//! without SMTP). See bench/smoke.md for the bounds, the default rate and a run.
#![forbid(unsafe_code)]

#[path = "../smoke/mod.rs"]
mod smoke;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use clap::Parser;

use smoke::api::Api;
use smoke::journeys::{Kind, Mix, World};
use smoke::{mail, report, schedule, setup};

#[derive(Parser, Debug)]
#[command(
    name = "smoke",
    about = "Quire's smoke load test: the main journeys at a fixed arrival rate against a running stack"
)]
struct Args {
    /// The gateway (what `make run` serves on; the e2e stack sets QUIRE_BASE_URL).
    #[arg(long, env = "QUIRE_BASE_URL", default_value = "http://127.0.0.1:8080")]
    base_url: String,
    /// Seconds of arrivals (the run then waits for the last journeys to end).
    #[arg(long, env = "QUIRE_SMOKE_DURATION", default_value_t = 60.0)]
    duration: f64,
    /// Journeys started per second, whatever the stack's speed.
    #[arg(long, env = "QUIRE_SMOKE_RATE", default_value_t = 5.0)]
    rate: f64,
    /// Per-step p99 bounds in ms replacing the defaults, e.g. "search=300,chat: turn=1500".
    #[arg(long, env = "QUIRE_SMOKE_P99")]
    p99: Option<String>,
    /// Journey weights.
    #[arg(
        long,
        env = "QUIRE_SMOKE_MIX",
        default_value = "browse=40,search=20,chat=15,buy=20,upload=5"
    )]
    mix: String,
    /// Where verification codes come from: smtp://HOST:PORT (a sink listening there, the
    /// stack's QUIRE_SMTP_URL), or the path of the auth log of a stack without SMTP.
    /// Default: $QUIRE_SMTP_URL when set, else $QUIRE_DATA_DIR/logs/auth.log, else
    /// .quire-data/logs/auth.log.
    #[arg(long, env = "QUIRE_SMOKE_MAIL")]
    mail: Option<String>,
    /// Readers to make (default: enough that each makes at most 15 chat calls a minute,
    /// half the gateway's limit per user, and at least 2).
    #[arg(long, env = "QUIRE_SMOKE_READERS")]
    readers: Option<usize>,
    /// Writers to make.
    #[arg(long, env = "QUIRE_SMOKE_WRITERS", default_value_t = 1)]
    writers: usize,
    /// Seconds a call may take before it counts as a timeout (an error).
    #[arg(long, env = "QUIRE_SMOKE_TIMEOUT", default_value_t = 60.0)]
    timeout: f64,
    /// Write the report (markdown) here too.
    #[arg(long, env = "QUIRE_SMOKE_REPORT")]
    report: Option<PathBuf>,
}

fn default_mail() -> String {
    if let Ok(url) = std::env::var("QUIRE_SMTP_URL")
        && url.starts_with("smtp://")
    {
        return url;
    }
    match std::env::var("QUIRE_DATA_DIR") {
        Ok(dir) if !dir.is_empty() => format!("{dir}/logs/auth.log"),
        _ => ".quire-data/logs/auth.log".into(),
    }
}

#[tokio::main]
async fn main() -> std::process::ExitCode {
    match run(Args::parse()).await {
        Ok(true) => std::process::ExitCode::SUCCESS,
        Ok(false) => std::process::ExitCode::FAILURE,
        Err(e) => {
            eprintln!("[smoke] error: {e:#}");
            std::process::ExitCode::from(2)
        }
    }
}

async fn run(args: Args) -> anyhow::Result<bool> {
    anyhow::ensure!(
        args.rate.is_finite() && args.rate > 0.0,
        "--rate must be above 0"
    );
    anyhow::ensure!(
        args.duration.is_finite() && args.duration > 0.0,
        "--duration must be above 0"
    );
    anyhow::ensure!(
        args.timeout.is_finite() && args.timeout > 0.0,
        "--timeout must be above 0"
    );
    anyhow::ensure!(args.writers > 0, "--writers must be at least 1");
    let mix = Mix::parse(&args.mix)?;
    let bounds = report::bounds(args.p99.as_deref())?;
    let api = Api::new(&args.base_url, Duration::from_secs_f64(args.timeout))?;
    let mailbox = mail::Mailbox::open(&args.mail.clone().unwrap_or_else(default_mail)).await?;
    // A chat journey makes two chat calls (the turn and the recommendation).
    let chat_calls_per_min = args.rate * mix.share(Kind::Chat) * 2.0 * 60.0;
    let readers = args
        .readers
        .unwrap_or_else(|| ((chat_calls_per_min / 15.0).ceil() as usize).max(2))
        .max(1);

    // Set-up, not timed.
    eprintln!(
        "[smoke] set-up against {}: {readers} reader(s), {} writer(s); codes from the {}",
        api.base(),
        args.writers,
        mailbox.describe()
    );
    let books = setup::books(&api)
        .await
        .with_context(|| format!("listing the shop of {} (is the stack up?)", api.base()))?;
    let mut world = World {
        api: api.clone(),
        stats: Default::default(),
        readers: Vec::new(),
        writers: Vec::new(),
        priced: books.iter().filter(|b| b.price > 0.0).cloned().collect(),
        words: title_words(&books),
        books,
        bought: Default::default(),
        next_chatter: Default::default(),
    };
    for _ in 0..readers {
        world.readers.push(setup::reader(&api, &mailbox).await?);
    }
    if mix.share(Kind::Upload) > 0.0 {
        for _ in 0..args.writers {
            world.writers.push(setup::writer(&api, &mailbox).await?);
        }
    }
    eprintln!(
        "[smoke] {} books ({} priced); running {:.0} s at {}/s ({})",
        world.books.len(),
        world.priced.len(),
        args.duration,
        args.rate,
        args.mix
    );

    // The run: journeys on schedule, each in its own task.
    let world = Arc::new(world);
    let cpu_before = cpu_ticks();
    let dispatch = schedule::run(
        args.rate,
        Duration::from_secs_f64(args.duration),
        |_, due| {
            let world = world.clone();
            let kind = mix.pick(&mut rand::thread_rng());
            async move { smoke::journeys::run(&world, kind, due).await }
        },
    )
    .await;

    let busy = cpu_busy(cpu_before, cpu_ticks());
    let steps = world.stats.take();
    let verdict = report::judge(&steps, &bounds, &dispatch);
    let cores = std::thread::available_parallelism().map_or(0, usize::from);
    let mut md = format!(
        "Smoke run against {}: {:.0} s at {}/s, mix {}; {readers} readers, {} writer(s).\n\n{}",
        api.base(),
        args.duration,
        args.rate,
        args.mix,
        world.writers.len(),
        verdict.table
    );
    if let Some(busy) = busy {
        md.push_str(&format!(
            "Machine: {cores} cores, {:.0}% busy over the run (every process: the stack and this generator).\n",
            busy * 100.0
        ));
    }
    if verdict.failures.is_empty() {
        md.push_str("\nPASS: no error, every step's p99 within its bound.\n");
    } else {
        md.push_str("\nFAIL:\n");
        for f in &verdict.failures {
            md.push_str(&format!("- {f}\n"));
        }
    }
    let samples: Vec<String> = steps
        .iter()
        .filter(|(name, s)| !name.starts_with("journey: ") && s.samples.len() > 1)
        .flat_map(|(name, s)| {
            s.samples
                .iter()
                .skip(1)
                .map(move |e| format!("- {name}: {e}\n"))
        })
        .collect();
    if !samples.is_empty() {
        md.push_str("\nMore errors:\n");
        md.extend(samples);
    }
    println!("{md}");
    if let Some(path) = &args.report {
        std::fs::write(path, &md)
            .with_context(|| format!("writing the report to {}", path.display()))?;
        eprintln!("[smoke] report written to {}", path.display());
    }
    Ok(verdict.failures.is_empty())
}

/// The words of the shop's titles worth searching for (four letters or more).
fn title_words(books: &[setup::Book]) -> Vec<String> {
    let mut words: Vec<String> = books
        .iter()
        .flat_map(|b| b.title.split(|c: char| !c.is_alphanumeric()))
        .filter(|w| w.chars().count() >= 4)
        .map(str::to_lowercase)
        .collect();
    words.sort();
    words.dedup();
    words
}

/// The machine's (busy, total) CPU ticks so far, from /proc/stat's first line.
fn cpu_ticks() -> Option<(u64, u64)> {
    let stat = std::fs::read_to_string("/proc/stat").ok()?;
    let ticks: Vec<u64> = stat
        .lines()
        .next()?
        .split_whitespace()
        .skip(1)
        .filter_map(|t| t.parse().ok())
        .collect();
    // user nice system idle iowait irq softirq steal: idle and iowait are not busy.
    let total: u64 = ticks.iter().take(8).sum();
    let idle = ticks.get(3)? + ticks.get(4).copied().unwrap_or(0);
    Some((total - idle, total))
}

/// The share of the machine's CPU time that was busy between two readings.
fn cpu_busy(before: Option<(u64, u64)>, after: Option<(u64, u64)>) -> Option<f64> {
    let ((b0, t0), (b1, t1)) = (before?, after?);
    (t1 > t0).then(|| (b1 - b0) as f64 / (t1 - t0) as f64)
}
