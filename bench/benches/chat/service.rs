//! The chat service under test: its release binary (`quire-chat`), run as `make run` runs
//! it (`migrate`, then the service, configured by `QUIRE_*` variables), in a process of its
//! own so that its CPU time is its own. The bench reads its `/metrics` to tell how much of
//! the shop it has indexed and embedded, and stops it at the end.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

/// Where and how one chat service runs.
pub struct Settings {
    pub bin: PathBuf,
    pub database_url: String,
    pub schema: String,
    pub brokers: String,
    /// Its consumer group (`QUIRE_CHAT_EVENTS_GROUP`).
    pub group: String,
    pub auth_url: String,
    pub catalog_url: String,
    /// The sentence-embedding model's folder; `None`: the service's default (the folder
    /// fetch-model.sh fills), lexical only when that is missing too.
    pub model_dir: Option<PathBuf>,
    /// Its log (stdout and stderr).
    pub log: PathBuf,
}

/// A running chat service.
pub struct ChatProcess {
    child: tokio::process::Child,
    pid: u32,
    pub admin_url: String,
    log: PathBuf,
}

/// The binary: `QUIRE_BENCH_CHAT_BIN`, else `quire-chat` in the release folder of the
/// target directory (bench.sh builds it first).
pub fn binary() -> anyhow::Result<PathBuf> {
    let bin = match std::env::var_os("QUIRE_BENCH_CHAT_BIN") {
        Some(b) => PathBuf::from(b),
        None => {
            let target = std::env::var_os("CARGO_TARGET_DIR")
                .map(PathBuf::from)
                .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../target"));
            target.join("release/quire-chat")
        }
    };
    anyhow::ensure!(
        bin.is_file(),
        "{} is missing: build it first (cargo build --release -p quire-chat --bin quire-chat; \
         deploy/local/bench.sh does) or set QUIRE_BENCH_CHAT_BIN",
        bin.display()
    );
    Ok(bin)
}

fn free_port() -> anyhow::Result<u16> {
    Ok(std::net::TcpListener::bind("127.0.0.1:0")?
        .local_addr()?
        .port())
}

/// The ports a chat service will listen on, chosen before it starts (the gateway in front
/// of it is built first).
#[derive(Clone, Copy)]
pub struct Ports {
    pub grpc: u16,
    pub admin: u16,
}

impl Ports {
    pub fn pick() -> anyhow::Result<Self> {
        Ok(Self {
            grpc: free_port()?,
            admin: free_port()?,
        })
    }

    pub fn grpc_url(&self) -> String {
        format!("http://127.0.0.1:{}", self.grpc)
    }
}

fn tail(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(30)..].join("\n")
}

impl Settings {
    fn command(&self, grpc: u16, admin: u16) -> anyhow::Result<tokio::process::Command> {
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.log)?;
        let mut cmd = tokio::process::Command::new(&self.bin);
        cmd.env("QUIRE_DATABASE_URL", &self.database_url)
            .env("QUIRE_DB_SCHEMA", &self.schema)
            .env("QUIRE_KAFKA_BROKERS", &self.brokers)
            .env("QUIRE_CHAT_EVENTS_GROUP", &self.group)
            .env("QUIRE_AUTH_URL", &self.auth_url)
            .env("QUIRE_CATALOG_URL", &self.catalog_url)
            .env("QUIRE_GRPC_ADDR", format!("127.0.0.1:{grpc}"))
            .env("QUIRE_ADMIN_ADDR", format!("127.0.0.1:{admin}"))
            .env("QUIRE_LOG_FORMAT", "json")
            .env("OTEL_SERVICE_NAME", "quire-chat-bench")
            .env_remove("OTEL_EXPORTER_OTLP_ENDPOINT")
            .stdin(Stdio::null())
            .stdout(log.try_clone()?)
            .stderr(log)
            .kill_on_drop(true);
        if let Some(dir) = &self.model_dir {
            cmd.env("QUIRE_EMBED_MODEL_DIR", dir);
        }
        Ok(cmd)
    }
}

impl ChatProcess {
    /// Migrates the schema (`quire-chat migrate`), starts the service and waits (at most
    /// `timeout`) until its `/readyz` answers 200.
    pub async fn start(
        s: &Settings,
        ports: Ports,
        http: &reqwest::Client,
        timeout: Duration,
    ) -> anyhow::Result<Self> {
        let Ports { grpc, admin } = ports;
        let migrated = s.command(grpc, admin)?.arg("migrate").status().await?;
        anyhow::ensure!(
            migrated.success(),
            "quire-chat migrate failed ({migrated}); log {}:\n{}",
            s.log.display(),
            tail(&s.log)
        );
        let mut child = s.command(grpc, admin)?.spawn()?;
        let pid = child
            .id()
            .ok_or_else(|| anyhow::anyhow!("quire-chat exited at once"))?;
        let admin_url = format!("http://127.0.0.1:{admin}");
        let started = Instant::now();
        loop {
            if let Some(status) = child.try_wait()? {
                anyhow::bail!(
                    "quire-chat exited while starting ({status}); log {}:\n{}",
                    s.log.display(),
                    tail(&s.log)
                );
            }
            if let Ok(r) = http.get(format!("{admin_url}/readyz")).send().await
                && r.status().is_success()
            {
                break;
            }
            anyhow::ensure!(
                started.elapsed() < timeout,
                "quire-chat: /readyz did not answer 200 within {timeout:?}; log {}:\n{}",
                s.log.display(),
                tail(&s.log)
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        Ok(Self {
            child,
            pid,
            admin_url,
            log: s.log.clone(),
        })
    }

    /// Its index counts, from `/metrics`.
    pub async fn index_state(&self, http: &reqwest::Client) -> anyhow::Result<Option<IndexState>> {
        let text = http
            .get(format!("{}/metrics", self.admin_url))
            .send()
            .await?
            .text()
            .await?;
        Ok(IndexState::from_metrics(&text))
    }

    /// CPU time the service has used so far (user + system).
    pub fn cpu(&self) -> Duration {
        super::support::cpu_of(self.pid)
    }

    /// Asks it to stop (SIGTERM), as a supervisor does, then kills it after 10 s.
    pub async fn stop(mut self) -> anyhow::Result<()> {
        let _ = std::process::Command::new("kill")
            .args(["-TERM", &self.pid.to_string()])
            .status();
        if tokio::time::timeout(Duration::from_secs(10), self.child.wait())
            .await
            .is_err()
        {
            eprintln!(
                "chat bench: quire-chat did not stop in 10 s; killing it (log {})",
                self.log.display()
            );
            self.child.kill().await?;
        }
        Ok(())
    }
}

/// How far the service's own index is, as its `/metrics` gauges tell.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct IndexState {
    /// Whether it runs with the model (`quire_chat_semantic`).
    pub semantic: bool,
    /// Books it can recommend (`quire_chat_books`).
    pub books: u64,
    /// Of those, books whose vector is computed (`quire_chat_book_vectors`).
    pub vectors: u64,
}

impl IndexState {
    /// The gauges (`None` until the service first sets them). With the model they are set
    /// after every batch the embedder computes; without it once, at start, and the counts
    /// tell nothing of the events since.
    pub fn from_metrics(text: &str) -> Option<Self> {
        // `name value` or `name{labels} value`.
        let gauge = |name: &str| {
            text.lines().find_map(|l| {
                let rest = l.strip_prefix(name)?;
                let value = match rest.strip_prefix('{') {
                    Some(labelled) => labelled.split_once("} ")?.1,
                    None => rest.strip_prefix(' ')?,
                };
                value.trim().parse::<f64>().ok()
            })
        };
        Some(Self {
            semantic: gauge("quire_chat_semantic")? >= 1.0,
            books: gauge("quire_chat_books")? as u64,
            vectors: gauge("quire_chat_book_vectors")? as u64,
        })
    }
}
