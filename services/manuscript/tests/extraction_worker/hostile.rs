//! Hostile pdfs through the service: a pdf of a million objects and a compression bomb
//! (zlib of zlib of 300 MiB of zeros behind two FlateDecode filters, 2 KB to upload) are
//! refused with a message for the writer, while an ordinary upload sent at the same time
//! is read. The ignored test measures the same against the service's release binary
//! (`bench/hostile-uploads.sh` runs it and writes `bench/hostile-uploads.md`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use bytes::Bytes;
use quire_fixtures::hostile::{double_flate_bomb, many_objects};
use quire_manuscript::ManuscriptConfig;
use quire_manuscript::uploads::request::{File, Split};
use quire_manuscript::uploads::worker;
use quire_proto::manuscript::v1 as pb;
use quire_test_stack::TestEnv;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::support::{ONE_AT_A_TIME, Peers, Stack, no_worker_within, text, workers_of};

/// Objects in the many-objects pdf (45 MB: within the upload limit of 50 MiB).
const OBJECTS: usize = 1_000_000;
/// What the bomb's stream inflates to, in MiB, once both of its filters are undone.
const BOMB_MIB: usize = 300;

/// The message of a refused upload, which must say `what`; never a 503.
fn refused(result: Result<pb::ManuscriptReport, tonic::Status>, what: &str) -> String {
    let err = result.expect_err("refused");
    assert_ne!(err.code(), tonic::Code::Unavailable, "{err:?}");
    assert!(err.message().contains(what), "{err:?}");
    err.message().to_owned()
}

#[tokio::test(flavor = "multi_thread")]
async fn hostile_pdfs_are_refused_while_an_ordinary_upload_is_read() {
    let _one = ONE_AT_A_TIME.lock().await;
    let stack = Stack::start(|_| {}).await;
    let (objects, bomb) = (many_objects(OBJECTS, 0), double_flate_bomb(BOMB_MIB));
    assert!(objects.len() < 50 << 20 && bomb.len() < 20_000);
    let (objects, bomb, ordinary) = tokio::join!(
        stack.upload_bytes("objects.pdf", objects),
        stack.upload_bytes("bomb.pdf", bomb),
        async {
            // Sent while both are under way: it waits for a core, it is not turned away.
            tokio::time::sleep(Duration::from_millis(100)).await;
            stack.upload("ordinary.txt", text(40, 30_000)).await
        },
    );
    refused(objects, "too many objects");
    refused(bomb, "too large once unpacked");
    let ordinary = ordinary.expect("the ordinary upload is read");
    assert!(!ordinary.chapters.is_empty());
    assert!(no_worker_within(Duration::from_secs(10)).await);
}

// ---- the measurement (bench/hostile-uploads.md) ----

/// The manuscript service's release binary: `QUIRE_BENCH_MANUSCRIPT_BIN`, else
/// `release/quire-manuscript` in this test binary's target folder.
fn release_binary() -> PathBuf {
    if let Some(path) = std::env::var_os("QUIRE_BENCH_MANUSCRIPT_BIN") {
        return path.into();
    }
    let exe = std::env::current_exe().unwrap();
    let target = exe
        .parent()
        .and_then(Path::parent)
        .and_then(Path::parent)
        .expect("the test binary stands in target/<profile>/deps");
    let bin = target.join("release/quire-manuscript");
    assert!(
        bin.is_file(),
        "{} is missing: cargo build --release -p quire-manuscript (same CARGO_TARGET_DIR), \
         or set QUIRE_BENCH_MANUSCRIPT_BIN",
        bin.display()
    );
    bin
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// A field of `/proc/<pid>/status` in KiB (`VmRSS`, `VmHWM`).
fn status_kib(pid: u32, field: &str) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with(field))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn mib(kib: u64) -> String {
    format!("{:.1} MiB", kib as f64 / 1024.0)
}

fn size(bytes: usize) -> String {
    if bytes < 1_000_000 {
        format!("{:.1} KB", bytes as f64 / 1e3)
    } else {
        format!("{:.1} MB", bytes as f64 / 1e6)
    }
}

/// The manuscript service's release binary in a process of its own, as deployed: the
/// allocator settings of k8s/base/manuscript.yaml, the default limits of its workers.
struct Service {
    child: tokio::process::Child,
    pid: u32,
    url: String,
}

impl Service {
    async fn start(env: &TestEnv, peers: &Peers) -> Self {
        let bin = release_binary();
        let id = &env.id;
        let (grpc, admin) = (free_port(), free_port());
        let log = std::env::temp_dir().join(format!("quire-hostile-manuscript-{id}.log"));
        let objects = std::env::temp_dir().join(format!("quire-hostile-manuscripts-{id}"));
        let command = || {
            let out = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(&log)
                .unwrap();
            let mut cmd = tokio::process::Command::new(&bin);
            cmd.env_clear()
                .env("QUIRE_DATABASE_URL", &env.database_url)
                .env("QUIRE_DB_SCHEMA", format!("manuscript_hostile_{id}"))
                .env("QUIRE_REDIS_URL", &env.redis_url)
                .env("QUIRE_KAFKA_BROKERS", &env.brokers)
                .env("QUIRE_OUTBOX_POLL_MS", "20")
                .env("QUIRE_AUTH_URL", &peers.auth_url)
                .env("QUIRE_CATALOG_URL", &peers.catalog_url)
                .env("QUIRE_EVENTS_GROUP", format!("manuscript-hostile-{id}"))
                .env(
                    "QUIRE_OBJECT_STORE_URL",
                    format!("file://{}", objects.display()),
                )
                .env("QUIRE_GRPC_ADDR", format!("127.0.0.1:{grpc}"))
                .env("QUIRE_ADMIN_ADDR", format!("127.0.0.1:{admin}"))
                .env("QUIRE_LOG_FORMAT", "json")
                .env("RUST_LOG", "warn")
                .env("MIMALLOC_ARENA_EAGER_COMMIT", "0")
                .env("MIMALLOC_PURGE_DELAY", "0")
                .stdin(Stdio::null())
                .stdout(out.try_clone().unwrap())
                .stderr(out)
                .kill_on_drop(true);
            cmd
        };
        let migrated = command().arg("migrate").status().await.unwrap();
        assert!(migrated.success(), "migrate failed; log {}", log.display());
        let mut child = command().spawn().unwrap();
        let pid = child.id().unwrap();
        let started = Instant::now();
        while !ready(admin).await {
            assert!(
                child.try_wait().unwrap().is_none(),
                "quire-manuscript exited; log {}",
                log.display()
            );
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "not ready in 60 s; log {}",
                log.display()
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        Self {
            child,
            pid,
            url: format!("http://127.0.0.1:{grpc}"),
        }
    }

    /// Starts its peak RSS afresh (`clear_refs` 5) and returns its RSS now, in KiB.
    fn reset_peak(&self) -> u64 {
        std::fs::write(format!("/proc/{}/clear_refs", self.pid), "5").unwrap();
        status_kib(self.pid, "VmRSS").unwrap()
    }

    fn peak(&self) -> u64 {
        status_kib(self.pid, "VmHWM").unwrap()
    }
}

/// Whether `/readyz` on the admin port answers 200.
async fn ready(admin: u16) -> bool {
    let Ok(mut tcp) = tokio::net::TcpStream::connect(("127.0.0.1", admin)).await else {
        return false;
    };
    let asked = tcp
        .write_all(b"GET /readyz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        .await;
    let mut answer = Vec::new();
    asked.is_ok()
        && tcp.read_to_end(&mut answer).await.is_ok()
        && answer.starts_with(b"HTTP/1.1 200")
}

/// Samples the peak RSS (`VmHWM`) of every worker of `parent` every millisecond, on a
/// thread of its own, until stopped.
struct Sampler {
    stop: Arc<AtomicBool>,
    thread: std::thread::JoinHandle<BTreeMap<u32, u64>>,
}

impl Sampler {
    fn start(parent: u32) -> Self {
        let stop = Arc::new(AtomicBool::new(false));
        let stopped = Arc::clone(&stop);
        let thread = std::thread::spawn(move || {
            let mut peaks = BTreeMap::<u32, u64>::new();
            while !stopped.load(Ordering::Relaxed) {
                for pid in workers_of(parent) {
                    if let Some(kib) = status_kib(pid, "VmHWM") {
                        let peak = peaks.entry(pid).or_default();
                        *peak = (*peak).max(kib);
                    }
                }
                std::thread::sleep(Duration::from_millis(1));
            }
            peaks
        });
        Self { stop, thread }
    }

    /// The highest worker peak seen, in KiB, and how many workers were seen.
    fn stop(self) -> (u64, usize) {
        self.stop.store(true, Ordering::Relaxed);
        let peaks = self.thread.join().unwrap();
        (peaks.values().copied().max().unwrap_or(0), peaks.len())
    }
}

/// The release worker alone on one file, as the parent runs it (the request on its stdin,
/// the default limits, the allocator setting; the limits set at its start by `prlimit`
/// rather than by pid a moment later), under `/usr/bin/time`: its wall time, its exact
/// peak RSS in KiB (`%M`), and its exit status.
async fn worker_alone(name: &str, data: &[u8]) -> (Duration, u64, String) {
    let config = ManuscriptConfig::default();
    let files = [File {
        name: name.into(),
        data: Bytes::copy_from_slice(data),
    }];
    let mut request = worker::request_head(&files, Split::Manuscript, 5_000_000).unwrap();
    request.extend_from_slice(data);
    let peak = tempfile_path(&format!("worker-peak-{name}"));
    let started = Instant::now();
    let mut child = tokio::process::Command::new("/usr/bin/time")
        .arg("-f")
        .arg("%M")
        .arg("-o")
        .arg(&peak)
        .arg("/usr/bin/prlimit")
        .arg(format!("--data={}", config.extract_memory_bytes()))
        .arg(format!(
            "--cpu={}:{}",
            config.manuscript_extract_cpu_secs,
            config.manuscript_extract_cpu_secs + 1
        ))
        .arg("--core=0")
        .arg(release_binary())
        .arg(worker::SUBCOMMAND)
        .env_clear()
        .env("MIMALLOC_ARENA_EAGER_COMMIT", "0")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("/usr/bin/time and /usr/bin/prlimit (Debian: time, util-linux)");
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let (written, reply) = tokio::join!(
        async move {
            let written = stdin.write_all(&request).await;
            drop(stdin);
            written
        },
        async move {
            let mut reply = Vec::new();
            stdout.read_to_end(&mut reply).await.map(|_| reply)
        },
    );
    written.unwrap();
    reply.unwrap();
    let status = child.wait().await.unwrap();
    let wall = started.elapsed();
    let kib = std::fs::read_to_string(&peak)
        .unwrap()
        .lines()
        .last()
        .and_then(|l| l.trim().parse().ok())
        .expect("a peak in /usr/bin/time's output");
    let _ = std::fs::remove_file(&peak);
    (wall, kib, status.to_string())
}

fn tempfile_path(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("quire-hostile-{}-{name}", std::process::id()))
}

/// One upload as the writer saw it, and what it cost.
struct Run {
    wall: Duration,
    answer: String,
    service_before: u64,
    service_peak: u64,
    worker_peak: u64,
}

fn answer(result: &Result<pb::ManuscriptReport, tonic::Status>) -> String {
    match result {
        Ok(report) => format!("read: {} chapters", report.chapters.len()),
        Err(status) => format!("{:?}: {}", status.code(), status.message()),
    }
}

async fn alone(stack: &Stack, service: &Service, name: &str, data: Vec<u8>) -> Run {
    let service_before = service.reset_peak();
    let sampler = Sampler::start(service.pid);
    let started = Instant::now();
    let result = stack.upload_bytes(name, data).await;
    let wall = started.elapsed();
    let (worker_peak, _) = sampler.stop();
    Run {
        wall,
        answer: answer(&result),
        service_before,
        service_peak: service.peak(),
        worker_peak,
    }
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "a measurement of the release binary: bench/hostile-uploads.sh"]
async fn measure_hostile_uploads_against_the_release_binary() {
    const ROUNDS: usize = 3;
    let _one = ONE_AT_A_TIME.lock().await;
    let load = || std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    let load_before = load();
    let env = TestEnv::new("quire-manuscript-tests");
    let peers = Peers::start(&env).await;
    let service = Service::start(&env, &peers).await;
    let stack = Stack::at(service.url.clone(), peers.writer.clone());
    let objects = many_objects(OBJECTS, 0);
    let bomb = double_flate_bomb(BOMB_MIB);
    let ordinary = text(50, 300_000).into_bytes();

    // Warm up the paths (connections, the service's pools) with an ordinary upload.
    stack
        .upload("warm-up.txt", text(49, 30_000))
        .await
        .expect("read");

    let files: [(&str, String, &[u8], &str); 3] = [
        (
            "objects.pdf",
            format!("{OBJECTS} objects (`null`), xref table"),
            &objects,
            "too many objects",
        ),
        (
            "bomb.pdf",
            format!("zlib of zlib of {BOMB_MIB} MiB of zeros, `/FlateDecode /FlateDecode`"),
            &bomb,
            "too large once unpacked",
        ),
        (
            "ordinary.txt",
            "an ordinary manuscript (txt)".to_owned(),
            &ordinary,
            "",
        ),
    ];
    let mut rows = String::new();
    let mut worst_refusal = Duration::ZERO;
    let mut growths = Vec::new();
    for (i, (name, what, data, refusal)) in files.iter().enumerate() {
        let mut runs = Vec::new();
        for round in 0..ROUNDS {
            // Each round a text of its own: a duplicate would be refused as one.
            let data = if refusal.is_empty() {
                text(60 + (i * ROUNDS + round) as u64, data.len()).into_bytes()
            } else {
                data.to_vec()
            };
            runs.push(alone(&stack, &service, name, data).await);
        }
        for run in &runs {
            assert!(run.answer.contains(refusal), "{name}: {}", run.answer);
        }
        let worst = |f: fn(&Run) -> u64| runs.iter().map(f).max().unwrap();
        let wall = runs.iter().map(|r| r.wall).max().unwrap();
        if !refusal.is_empty() {
            worst_refusal = worst_refusal.max(wall);
        }
        let before = runs.iter().map(|r| r.service_before).min().unwrap();
        let growth = runs
            .iter()
            .map(|r| r.service_peak.saturating_sub(r.service_before))
            .max()
            .unwrap();
        growths.push(growth);
        let (alone_wall, alone_peak, alone_exit) = worker_alone(name, data).await;
        rows.push_str(&format!(
            "| `{name}`: {what} | {} | {} | {:.2} s | {} (from {}) | {} | {:.2} s, {} ({alone_exit}) |\n",
            size(data.len()),
            runs[0].answer,
            wall.as_secs_f64(),
            mib(growth),
            mib(before),
            mib(worst(|r| r.worker_peak)),
            alone_wall.as_secs_f64(),
            mib(alone_peak),
        ));
    }

    let (objects_growth, bomb_growth) = (growths[0], growths[1]);

    // All at once: both hostile files, and an ordinary upload 100 ms later (two cores,
    // two extraction slots: it waits for one).
    let service_before = service.reset_peak();
    let sampler = Sampler::start(service.pid);
    let timed = |name: &'static str, data: Vec<u8>, delay: u64| {
        let stack = &stack;
        async move {
            tokio::time::sleep(Duration::from_millis(delay)).await;
            let started = Instant::now();
            let result = stack.upload_bytes(name, data).await;
            (started.elapsed(), result)
        }
    };
    let (o, b, n) = tokio::join!(
        timed("objects.pdf", objects.clone(), 0),
        timed("bomb.pdf", bomb.clone(), 0),
        timed("ordinary.txt", text(90, ordinary.len()).into_bytes(), 100),
    );
    let (worker_peak, workers) = sampler.stop();
    let together_growth = service.peak().saturating_sub(service_before);
    refused(o.1, "too many objects");
    refused(b.1, "too large once unpacked");
    let ordinary_answer = answer(&n.1);
    assert!(n.1.is_ok(), "the ordinary upload: {ordinary_answer}");
    worst_refusal = worst_refusal.max(o.0).max(b.0);

    let machine = {
        let cpu = std::fs::read_to_string("/proc/cpuinfo")
            .ok()
            .and_then(|c| {
                c.lines()
                    .find(|l| l.starts_with("model name"))
                    .and_then(|l| l.split(':').nth(1))
                    .map(|m| m.trim().to_owned())
            })
            .unwrap_or_default();
        let cores = std::thread::available_parallelism().map_or(0, usize::from);
        format!("{cores} cores, {cpu}")
    };
    let load_after = load();
    let met = |ok: bool| if ok { "met" } else { "NOT met" };
    let report = format!(
        "# Hostile pdf uploads: refused in seconds, the service unharmed\n\n\
         Command: `bench/hostile-uploads.sh` (also run by `make bench`): `cargo test -p \
         quire-manuscript --test extraction_worker -- --ignored \
         hostile::measure_hostile_uploads_against_the_release_binary`, with \
         `QUIRE_BENCH_MANUSCRIPT_BIN` the release build of `quire-manuscript`.\n\
         Machine: {machine}; Postgres, Redis, the broker, auth and catalog (debug, in the \
         test's process) and the manuscript service all share it. Load average before \
         the run {}, after {}.\n\
         The manuscript service is its release binary in a process of its own, with the \
         allocator settings it is deployed with (`MIMALLOC_ARENA_EAGER_COMMIT=0 \
         MIMALLOC_PURGE_DELAY=0`) and the default worker limits (512 MiB `RLIMIT_DATA`, \
         30 CPU seconds, a 60 s deadline); each upload is a `PublishEntry` call over gRPC \
         from the test, signed in as a writer, as the gateway sends it. Peak RSS: the \
         service's `VmHWM` (reset through `/proc/<pid>/clear_refs` before each upload) \
         against its RSS before; each worker's `VmHWM`, read every millisecond while it \
         runs (a lower bound: what it reaches in its last moment is missed). Each file \
         alone {ROUNDS} times, the worst figures shown; then the release worker once more \
         on its own, fed the same request on its stdin under the same limits (set by \
         `prlimit` at its start), its exact peak RSS from `/usr/bin/time`. The answers are \
         gRPC codes (the gateway answers `OutOfRange` with 413). The wall times are the \
         writer's, sending the file included.\n\n\
         | upload | size | answer | wall (worst) | service peak growth | worker peak RSS (sampled) | worker alone: wall, peak RSS (exit) |\n\
         |---|---|---|---|---|---|---|\n\
         {rows}\n\
         All three at once (the ordinary one sent 100 ms after the two hostile ones; two \
         cores, so two extraction slots): the million objects refused in {:.2} s, the bomb \
         in {:.2} s, the ordinary upload answered in {:.2} s ({ordinary_answer}); {workers} \
         workers, the largest peaking at {}; the service grew by {} at most.\n\n\
         - Each hostile upload refused in under 5 s: {} (worst {:.2} s).\n\
         - An ordinary upload made at the same time answered, not turned away (503): {}.\n\n\
         What the service holds follows the size of the upload (the million objects: {:.1} \
         times its {}), never what a file would unpack to (the bomb grows it by {}); what \
         reading costs stays in the worker, whose limit ({} MiB) none of them came near.\n",
        load_before.trim(),
        load_after.trim(),
        o.0.as_secs_f64(),
        b.0.as_secs_f64(),
        n.0.as_secs_f64(),
        mib(worker_peak),
        mib(together_growth),
        met(worst_refusal < Duration::from_secs(5)),
        worst_refusal.as_secs_f64(),
        met(n.1.is_ok()),
        objects_growth as f64 * 1024.0 / objects.len() as f64,
        size(objects.len()),
        mib(bomb_growth),
        ManuscriptConfig::default().manuscript_extract_memory_mb,
    );
    println!("{report}");
    if let Some(path) = std::env::var_os("QUIRE_BENCH_REPORT") {
        std::fs::write(path, &report).unwrap();
    }
    let mut child = service.child;
    child.kill().await.unwrap();
}
