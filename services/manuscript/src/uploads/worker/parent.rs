//! One extraction in a worker process, from the service's side: the worker is started
//! (`quire-manuscript extract`, no environment but the allocator's settings), its limits
//! set, the upload written to its stdin and its reply read from its stdout, all within
//! the wall-clock deadline. Past the deadline the worker is killed and reaped; when the
//! caller gives up (this future dropped) it is killed too (`kill_on_drop`, reaped by
//! tokio). A worker a limit stopped, or one that answered nonsense, refuses the upload
//! with a message for the writer, never a 500 and never a hang.

use std::ffi::OsStr;
use std::path::PathBuf;
use std::process::{ExitStatus, Stdio};
use std::time::Instant;

use quire_kit::error::CommonErrors;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};
use tokio::process::{Child, ChildStdin, Command};

use crate::config::ManuscriptConfig;
use crate::error::{ManuscriptError, Result};
use crate::uploads::extraction::Extracted;
use crate::uploads::request::{File, Split};
use crate::uploads::worker::limits::{self, Exhausted, Limits};
use crate::uploads::worker::wire::{self, SUBCOMMAND};

/// Room in a reply beyond the text's own bytes (titles, authors, names, framing).
const REPLY_SLACK: usize = 4 * 1024 * 1024;
/// How much of a worker's stderr reaches the log (a panic's message; the rest is dropped).
const STDERR_KEPT: u64 = 4096;

/// The worker's program: the configured one, else this process' own executable. Refused
/// unless it is the service binary, which alone knows `extract` (a test binary would run
/// its own tests instead).
pub fn program(config: &ManuscriptConfig) -> anyhow::Result<PathBuf> {
    let path = match &config.manuscript_extract_worker {
        Some(path) => path.clone(),
        None => std::env::current_exe()?,
    };
    if path.file_name() != Some(OsStr::new(crate::SOURCE)) {
        anyhow::bail!(
            "the extraction worker {} is not the {} binary: set \
             QUIRE_MANUSCRIPT_EXTRACT_WORKER to it",
            path.display(),
            crate::SOURCE
        );
    }
    if !path.is_file() {
        anyhow::bail!("the extraction worker {} is missing", path.display());
    }
    Ok(path)
}

/// Extracts `files` in a worker process under the configured limits.
pub async fn extract(config: &ManuscriptConfig, files: &[File], split: Split) -> Result<Extracted> {
    let program = program(config).map_err(|e| ManuscriptError::internal(e.to_string()))?;
    let max_text_chars = config.manuscript_max_text_chars;
    let head = wire::request_head(files, split, max_text_chars)?;
    let started = Instant::now();
    let mut child = spawn(&program)?;
    // Never 0: the limits of pid 0 are this process' own.
    let Some(pid) = child.id().filter(|pid| *pid != 0) else {
        reap(&mut child, 0).await;
        return Err(ManuscriptError::internal("extraction worker ended at once"));
    };
    if let Err(e) = Limits::of(config).apply(pid) {
        reap(&mut child, pid).await;
        return Err(ManuscriptError::internal(format!(
            "extraction worker limits not set: {e}"
        )));
    }
    let bound = max_text_chars.saturating_mul(4).saturating_add(REPLY_SLACK);
    let exchange = exchange(&mut child, &head, files, bound);
    let done = match tokio::time::timeout(config.extract_wall(), exchange).await {
        Ok(Ok(done)) => done,
        Ok(Err(e)) => {
            reap(&mut child, pid).await;
            return Err(ManuscriptError::internal(format!(
                "extraction worker not reached: {e}"
            )));
        }
        Err(_) => {
            reap(&mut child, pid).await;
            tracing::warn!(
                pid,
                wall_ms = config.manuscript_extract_wall_ms,
                "extraction worker past its deadline, killed"
            );
            return Err(stopped(Exhausted::Time, files.len()));
        }
    };
    let ms = started.elapsed().as_millis();
    tracing::debug!(pid, ms, status = %done.status, "extraction worker done");
    judge(done, bound, files.len(), pid)
}

/// What a worker left when it ended by itself (or by a limit).
struct Done {
    reply: Vec<u8>,
    told: Vec<u8>,
    status: ExitStatus,
}

fn spawn(program: &std::path::Path) -> Result<Child> {
    Command::new(program)
        .arg(SUBCOMMAND)
        .env_clear()
        .envs(std::env::vars_os().filter(|(key, _)| allocator_setting(key)))
        // Else mimalloc commits its first arena (1 GiB) at start, before the memory limit
        // is set, and the limit never sees what the worker uses inside it (`limits`).
        .env("MIMALLOC_ARENA_EAGER_COMMIT", "0")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .map_err(|e| ManuscriptError::internal(format!("extraction worker not started: {e}")))
}

/// The worker allocates as the service does (`MIMALLOC_*`, e.g. pages given back at once);
/// nothing else of the service's environment (its secrets) reaches it.
fn allocator_setting(key: &OsStr) -> bool {
    key.to_str().is_some_and(|k| k.starts_with("MIMALLOC_"))
}

/// Writes the request, reads at most `bound` bytes of reply (and a little of stderr), and
/// waits for the worker to end.
async fn exchange(
    child: &mut Child,
    head: &[u8],
    files: &[File],
    bound: usize,
) -> std::io::Result<Done> {
    let missing = || std::io::Error::other("a pipe of the worker is missing");
    let stdin = child.stdin.take().ok_or_else(missing)?;
    let mut stdout = child.stdout.take().ok_or_else(missing)?;
    let stderr = child.stderr.take().ok_or_else(missing)?;
    let read = async move {
        let mut reply = Vec::new();
        let limit = u64::try_from(bound).unwrap_or(u64::MAX).saturating_add(1);
        (&mut stdout).take(limit).read_to_end(&mut reply).await?;
        // Closed here: a worker writing past the bound gets EPIPE and ends.
        drop(stdout);
        Ok::<_, std::io::Error>(reply)
    };
    let (written, reply, told) = tokio::join!(send(stdin, head, files), read, keep_some(stderr));
    if let Err(error) = written {
        // A worker that a limit stopped while it read closes its stdin: its status says why.
        tracing::debug!(%error, "extraction request not written whole");
    }
    let reply = reply?;
    let status = child.wait().await?;
    Ok(Done {
        reply,
        told,
        status,
    })
}

async fn send(mut stdin: ChildStdin, head: &[u8], files: &[File]) -> std::io::Result<()> {
    stdin.write_all(head).await?;
    for file in files {
        stdin.write_all(&file.data).await?;
    }
    stdin.shutdown().await
}

/// The first bytes of `stream`; the rest is read and dropped, so the worker never waits
/// on a full pipe.
async fn keep_some(mut stream: impl AsyncRead + Unpin) -> Vec<u8> {
    let mut kept = Vec::new();
    let _ = (&mut stream).take(STDERR_KEPT).read_to_end(&mut kept).await;
    let _ = tokio::io::copy(&mut stream, &mut tokio::io::sink()).await;
    kept
}

/// The extraction's result from what the worker left.
fn judge(done: Done, bound: usize, files: usize, pid: u32) -> Result<Extracted> {
    let told = String::from_utf8_lossy(&done.told);
    let told = told.trim();
    if done.reply.len() > bound {
        tracing::warn!(pid, bound, "extraction worker replied past its bound");
        return Err(not_read(files));
    }
    if done.status.success() {
        return wire::read_reply(&done.reply).unwrap_or_else(|| {
            tracing::error!(pid, stderr = told, "extraction worker replied nonsense");
            Err(not_read(files))
        });
    }
    match limits::exhausted(done.status) {
        Some(cause) => {
            tracing::warn!(pid, ?cause, status = %done.status, stderr = told, "extraction worker stopped by its limit");
            Err(stopped(cause, files))
        }
        None => {
            tracing::warn!(pid, status = %done.status, stderr = told, "extraction worker failed");
            Err(not_read(files))
        }
    }
}

/// Kills the worker and waits for its end, so that no process is left.
async fn reap(child: &mut Child, pid: u32) {
    if let Err(error) = child.kill().await {
        tracing::warn!(pid, %error, "extraction worker not killed");
    }
}

fn subject(files: usize) -> &'static str {
    if files > 1 { "The files" } else { "The file" }
}

fn stopped(cause: Exhausted, files: usize) -> ManuscriptError {
    let what = match cause {
        Exhausted::Memory => "too much memory",
        Exhausted::Time => "too long",
    };
    ManuscriptError::Unreadable(format!("{} took {what} to read", subject(files)))
}

fn not_read(files: usize) -> ManuscriptError {
    ManuscriptError::Unreadable(format!("{} could not be read", subject(files)))
}
