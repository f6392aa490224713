//! A server the test runs as a child process so that it can die the way a crash or an OOM
//! kill makes it die: SIGKILL, no shutdown code, sockets reset by the kernel. It is started
//! again with the same command, its output appended to one log file, and it never outlives
//! the test (killed on drop, also when a panic unwinds).

use std::fs::OpenOptions;
use std::path::PathBuf;
use std::process::Stdio;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use tokio::process::{Child, Command};

type MakeCommand = Box<dyn Fn() -> Command + Send + Sync>;

pub struct Supervised {
    pub name: &'static str,
    pub log: PathBuf,
    command: MakeCommand,
    child: Mutex<Option<Child>>,
    starts: AtomicU32,
}

impl Supervised {
    /// Not started yet: `command` makes the command of each start.
    pub fn new(
        name: &'static str,
        log: PathBuf,
        command: impl Fn() -> Command + Send + Sync + 'static,
    ) -> Self {
        Self {
            name,
            log,
            command: Box::new(command),
            child: Mutex::new(None),
            starts: AtomicU32::new(0),
        }
    }

    pub fn start(&self) {
        let n = self.starts.fetch_add(1, Ordering::SeqCst) + 1;
        let mut log = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.log)
            .unwrap();
        std::io::Write::write_all(&mut log, format!("\n=== start {n}\n").as_bytes()).unwrap();
        let child = (self.command)()
            .stdin(Stdio::null())
            .stdout(log.try_clone().unwrap())
            .stderr(log)
            .kill_on_drop(true)
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", self.name));
        let old = self.child.lock().unwrap().replace(child);
        assert!(old.is_none(), "{} started twice", self.name);
    }

    /// SIGKILL, then waits until the process is gone (its ports free again).
    pub async fn kill(&self) {
        let child = self.child.lock().unwrap().take();
        if let Some(mut child) = child {
            let _ = child.start_kill();
            let gone = tokio::time::timeout(Duration::from_secs(10), child.wait()).await;
            assert!(gone.is_ok(), "{} survived SIGKILL for 10 s", self.name);
        }
    }

    /// SIGTERM, as a deploy stops it, then waits until it exited (SIGKILL after 20 s).
    pub async fn stop(&self) {
        let child = self.child.lock().unwrap().take();
        let Some(mut child) = child else { return };
        if let Some(pid) = child.id() {
            let _ = Command::new("kill")
                .args(["-TERM", &pid.to_string()])
                .status()
                .await;
        }
        if tokio::time::timeout(Duration::from_secs(20), child.wait())
            .await
            .is_err()
        {
            let _ = child.start_kill();
            let _ = child.wait().await;
            panic!("{} ignored SIGTERM for 20 s", self.name);
        }
    }

    /// Whether it ran and ended by itself (it is then forgotten, ready to start again).
    pub fn exited(&self) -> Option<std::process::ExitStatus> {
        let mut slot = self.child.lock().unwrap();
        let status = slot.as_mut()?.try_wait().ok()??;
        *slot = None;
        Some(status)
    }

    pub fn starts(&self) -> u32 {
        self.starts.load(Ordering::SeqCst)
    }

    /// The last lines of its log, for a failure message.
    pub fn log_tail(&self) -> String {
        let text = std::fs::read_to_string(&self.log).unwrap_or_default();
        let lines: Vec<&str> = text.lines().collect();
        lines[lines.len().saturating_sub(30)..].join("\n")
    }
}

impl Drop for Supervised {
    fn drop(&mut self) {
        let slot = self.child.get_mut().unwrap_or_else(|e| e.into_inner());
        if let Some(child) = slot {
            let _ = child.start_kill();
        }
    }
}

/// Ports handed out by [`free_port`] lie here: below Linux's ephemeral range (32768 and
/// up), from which the kernel picks the local ports of outgoing connections and of
/// `bind(0)`. A port chosen from that range before its server starts could meanwhile be
/// taken by one of the stack's own connections to Postgres or Redis (it happened: "Address
/// already in use" for a chat replica).
const PORTS: std::ops::Range<u16> = 20_000..32_000;

/// A port nothing listens on now, never handed out before by this process, to give a
/// server that must keep its address across restarts. The search starts at a place that
/// depends on the process id, so two test processes seldom probe the same ports.
pub fn free_port() -> u16 {
    use std::sync::atomic::{AtomicU16, Ordering};
    static NEXT: AtomicU16 = AtomicU16::new(0);
    let span = PORTS.end - PORTS.start;
    let base = (std::process::id() % u32::from(span)) as u16;
    for _ in 0..span {
        let offset = NEXT.fetch_add(1, Ordering::Relaxed) % span;
        let port = PORTS.start + (base + offset) % span;
        if std::net::TcpListener::bind(("127.0.0.1", port)).is_ok() {
            return port;
        }
    }
    panic!("no free port in {PORTS:?}");
}
