//! What every benchmark of the gateway shares: the load generator, its statistics, the
//! real services and gateway it starts, direct Postgres connections, and the report's
//! machine line. Each bench uses a part of it.
#![allow(dead_code)]

use std::future::Future;
use std::time::{Duration, Instant};

use quire_kit::config::CommonConfig;

/// Every point is measured for this long, after a warm-up of connections and caches.
pub const RUN: Duration = Duration::from_secs(8);
pub const WARMUP: Duration = Duration::from_secs(2);

pub struct Stats {
    /// Requests completed in the measured run.
    pub count: usize,
    /// Requests completed in the warm-up and the run.
    pub all: usize,
    /// Requests per second over the measured run.
    pub per_sec: f64,
    pub p50_us: f64,
    pub p99_us: f64,
}

fn stats(mut lat: Vec<Duration>, elapsed: Duration, all: usize) -> Stats {
    lat.sort();
    let pick =
        |q: f64| lat[((lat.len() as f64 * q) as usize).min(lat.len() - 1)].as_secs_f64() * 1e6;
    Stats {
        count: lat.len(),
        all,
        per_sec: lat.len() as f64 / elapsed.as_secs_f64(),
        p50_us: pick(0.50),
        p99_us: pick(0.99),
    }
}

/// The `q` quantile of sorted durations.
pub fn percentile(sorted: &[Duration], q: f64) -> Duration {
    sorted[((sorted.len() as f64 * q) as usize).min(sorted.len() - 1)]
}

/// Runs `clients` concurrent loops of `make(client, n)` (the n-th request of that client),
/// a warm-up first, then the measured run.
pub async fn load<F, Fut>(clients: usize, make: F) -> Stats
where
    F: Fn(usize, usize) -> Fut + Clone + Send + 'static,
    Fut: Future<Output = ()> + Send,
{
    load_for(clients, WARMUP, RUN, make).await
}

/// [`load`] with other lengths of warm-up and run (quick trial runs). `n` starts again
/// at 0 in the measured run.
pub async fn load_for<F, Fut>(clients: usize, warmup: Duration, run: Duration, make: F) -> Stats
where
    F: Fn(usize, usize) -> Fut + Clone + Send + 'static,
    Fut: Future<Output = ()> + Send,
{
    load_passes(clients, warmup, run, 0, make).await
}

/// [`load_for`], where each client's measured run also goes on until it made at least
/// `min_each` requests, however long that takes: with client `c` asking item
/// `c + n * clients` of a list of `clients * min_each` items, every item is measured at
/// least once, so a slow side is measured on the same list as a fast one.
pub async fn load_passes<F, Fut>(
    clients: usize,
    warmup: Duration,
    run: Duration,
    min_each: usize,
    make: F,
) -> Stats
where
    F: Fn(usize, usize) -> Fut + Clone + Send + 'static,
    Fut: Future<Output = ()> + Send,
{
    let mut measured = Vec::new();
    let mut elapsed = Duration::ZERO;
    let mut all = 0;
    for (phase, min_each) in [(warmup, 0), (run, min_each)] {
        let started = Instant::now();
        let tasks: Vec<_> = (0..clients)
            .map(|client| {
                let make = make.clone();
                tokio::spawn(async move {
                    let mut lat = Vec::new();
                    let mut n = 0;
                    while started.elapsed() < phase || n < min_each {
                        let t = Instant::now();
                        make(client, n).await;
                        lat.push(t.elapsed());
                        n += 1;
                    }
                    lat
                })
            })
            .collect();
        measured.clear();
        for t in tasks {
            measured.extend(t.await.unwrap());
        }
        all += measured.len();
        elapsed = started.elapsed();
    }
    stats(measured, elapsed, all)
}

/// The benches' database (`QUIRE_BENCH_DATABASE_URL`, else `quire_bench` on the local
/// Postgres).
pub fn database_url() -> String {
    std::env::var("QUIRE_BENCH_DATABASE_URL")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/quire_bench".to_owned())
}

/// A name of this run (process and second), for its consumer groups and folders.
pub fn run_id() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    format!("{}_{secs}", std::process::id())
}

/// The services' shared settings for a bench in `schema` of `database_url`: the local
/// Redis and broker (or `QUIRE_REDIS_URL`, `QUIRE_KAFKA_BROKERS`), migrations on start,
/// ephemeral ports, and the outbox polled every 50 ms (the default of .env.example).
pub fn common(database_url: &str, schema: &str, pool_size: usize) -> CommonConfig {
    let env = |k: &str, d: &str| std::env::var(k).unwrap_or_else(|_| d.to_owned());
    CommonConfig {
        database_url: database_url.to_owned(),
        db_schema: Some(schema.into()),
        db_pool_size: pool_size,
        redis_url: env("QUIRE_REDIS_URL", "redis://127.0.0.1:6379"),
        kafka_brokers: env("QUIRE_KAFKA_BROKERS", "127.0.0.1:9092"),
        outbox_poll_ms: 50,
        migrate_on_start: true,
        migrate_database_url: None,
        kafka_create_topics: true,
        grpc_addr: Some("127.0.0.1:0".into()),
        admin_addr: Some("127.0.0.1:0".into()),
    }
}

/// Starts auth in this process (creating the database when missing), with the admin
/// `bench@quire.local` / `bench-password`; returns its gRPC URL.
pub async fn spawn_auth(common: &CommonConfig) -> anyhow::Result<String> {
    let auth = quire_test_stack::start_auth(
        common.clone(),
        quire_auth::AuthConfig {
            jwt_key_file: None,
            access_token_ttl_secs: 3600,
            refresh_token_ttl_secs: 3600,
            smtp_url: None,
            mail_from: "Quire <bench@quire.local>".into(),
            admin_email: Some("bench@quire.local".into()),
            admin_password: Some("bench-password".to_owned().into()),
            siwe_domain: "localhost".into(),
            verify_resend_secs: 60,
            login_attempts_per_address: 10,
            login_free_attempts: 10,
            login_max_delay_secs: 60,
            oidc: Default::default(),
        },
    )
    .await;
    Ok(auth.url)
}

/// The gateway in this process in front of the given services, with rate limits out of the
/// way (every request of a bench comes from one address); returns its base URL.
pub async fn spawn_gateway(
    auth_url: &str,
    catalog_url: &str,
    wallet_url: &str,
    redis_url: &str,
) -> anyhow::Result<String> {
    spawn_gateway_with(quire_gateway::GatewayConfig {
        auth_url: auth_url.into(),
        catalog_url: catalog_url.into(),
        wallet_url: wallet_url.into(),
        redis_url: redis_url.into(),
        ..gateway_config()
    })
    .await
}

/// A gateway's settings for a bench: an ephemeral port, the built web app and rate limits
/// out of the way. The service URLs are the caller's to fill in.
pub fn gateway_config() -> quire_gateway::GatewayConfig {
    quire_gateway::GatewayConfig {
        http_host: "127.0.0.1".into(),
        http_port: 0,
        frontend_dir: "frontend/dist".into(),
        rate_login_per_min: u32::MAX,
        rate_verify_per_min: 1000,
        rate_api_per_min: u32::MAX,
        rate_upload_per_min: 1000,
        rate_anonymous_per_min: u32::MAX,
        admin_addr: "127.0.0.1:0".into(),
        http_workers: 2,
        ..Default::default()
    }
}

/// Starts the gateway of `config` in this process; returns its base URL.
pub async fn spawn_gateway_with(config: quire_gateway::GatewayConfig) -> anyhow::Result<String> {
    let gateway = quire_gateway::Application::build(config).await?;
    let base = format!("http://127.0.0.1:{}", gateway.port());
    tokio::spawn(gateway.run_until_stopped());
    Ok(base)
}

/// Logs in through the gateway; returns the access token and the user's id.
pub async fn login(
    http: &reqwest::Client,
    base: &str,
    email: &str,
    password: &str,
) -> anyhow::Result<(String, uuid::Uuid)> {
    let body: serde_json::Value = http
        .post(format!("{base}/api/login/"))
        .json(&serde_json::json!({"email": email, "password": password}))
        .send()
        .await?
        .json()
        .await?;
    let data = &body["data"];
    let token = data["access_token"]
        .as_str()
        .ok_or_else(|| anyhow::anyhow!("login of {email} failed: {body}"))?;
    let id = data["user"]["user_id"]
        .as_str()
        .ok_or_else(|| anyhow::anyhow!("login of {email} names no user: {body}"))?;
    Ok((token.to_owned(), id.parse()?))
}

/// A direct Postgres connection (tokio-postgres, no pool: one connection per client).
pub async fn pg(url: &str) -> anyhow::Result<tokio_postgres::Client> {
    let (client, conn) = tokio_postgres::connect(url, tokio_postgres::NoTls).await?;
    tokio::spawn(async move {
        if let Err(e) = conn.await {
            eprintln!("postgres connection: {e}");
        }
    });
    Ok(client)
}

/// "N cores, <CPU model>" for a report's machine line.
pub fn machine() -> String {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|c| {
            c.lines()
                .find(|l| l.starts_with("model name"))
                .map(|l| l.split(':').nth(1).unwrap_or("").trim().to_owned())
        })
        .unwrap_or_default();
    let cores = std::thread::available_parallelism()
        .map(usize::from)
        .unwrap_or(0);
    format!("{cores} cores, {cpu}")
}

/// Writes report `name` under `bench/` and prints it.
pub fn write_report(name: &str, md: &str) -> anyhow::Result<()> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    std::fs::create_dir_all(dir)?;
    std::fs::write(dir.join(name), md)?;
    println!("{md}");
    Ok(())
}

/// Starts catalog in this process in `common`'s schema, with the object store under the
/// temporary directory and the given consumer groups; returns its gRPC URL.
pub async fn spawn_catalog(
    common: &CommonConfig,
    auth_url: &str,
    events_group: &str,
    search_group: &str,
) -> anyhow::Result<String> {
    let objects = std::env::temp_dir().join(format!("quire-bench-objects-{events_group}"));
    std::fs::create_dir_all(&objects)?;
    let catalog = quire_test_stack::start_catalog(
        common.clone(),
        quire_catalog::CatalogConfig {
            auth_url: auth_url.into(),
            object_store_url: Some(format!("file://{}", objects.display())),
            search_index_dir: None,
            search_group: Some(search_group.into()),
            events_group: events_group.into(),
            ..quire_catalog::CatalogConfig::default()
        },
    )
    .await;
    Ok(catalog.url)
}

/// Starts the wallet in this process in `common`'s schema, with its production defaults
/// (seller share 90%) and consumer group `events_group`; returns its gRPC URL.
pub async fn spawn_wallet(
    common: &CommonConfig,
    auth_url: &str,
    catalog_url: &str,
    events_group: &str,
) -> anyhow::Result<String> {
    let wallet = quire_test_stack::start_wallet(
        common.clone(),
        quire_wallet::WalletConfig {
            auth_url: auth_url.into(),
            catalog_url: catalog_url.into(),
            events_group: events_group.into(),
            allow_instant_payments: true,
            ..quire_wallet::WalletConfig::default()
        },
    )
    .await;
    Ok(wallet.url)
}

/// CPU time used so far by the parts of the stack, read from `/proc`, to tell where a
/// point's cycles went: this process (the services, the gateway and the load generator),
/// Postgres (every backend and helper process such as the WAL writer, plus the backends
/// that have ended, whose time the postmaster collects when it reaps them: summing only the
/// live backends lost the time of connections closed during a point, down to nothing), the
/// broker on `broker_port` and Redis. The benchmarks are Postgres' only load meanwhile.
#[derive(Clone, Copy, Debug, Default)]
pub struct Cpu {
    pub this_process: Duration,
    pub postgres: Duration,
    pub broker: Duration,
    pub redis: Duration,
}

impl Cpu {
    pub fn now(broker_port: u16) -> Self {
        let mut cpu = Self::default();
        let Ok(dir) = std::fs::read_dir("/proc") else {
            return cpu;
        };
        let me = std::process::id().to_string();
        let broker = format!(":{broker_port}");
        for entry in dir.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if !name.bytes().all(|b| b.is_ascii_digit()) {
                continue;
            }
            let path = entry.path();
            let cmdline = std::fs::read(path.join("cmdline"))
                .map(|c| String::from_utf8_lossy(&c).replace('\0', " "))
                .unwrap_or_default();
            let stat = path.join("stat");
            let slot = if name == me {
                &mut cpu.this_process
            } else if cmdline.starts_with("postgres:") {
                &mut cpu.postgres
            } else if cmdline.contains("bin/postgres") {
                cpu.postgres += reaped(&stat);
                &mut cpu.postgres
            } else if cmdline.contains("tansu") && cmdline.contains(&broker) {
                &mut cpu.broker
            } else if cmdline.starts_with("redis-server") {
                &mut cpu.redis
            } else {
                continue;
            };
            *slot += used(&stat);
        }
        cpu
    }

    /// What each part used between `earlier` and `self`, per `n` requests.
    pub fn per(&self, earlier: &Self, n: usize) -> Self {
        let each = |a: Duration, b: Duration| a.saturating_sub(b) / n.max(1) as u32;
        Self {
            this_process: each(self.this_process, earlier.this_process),
            postgres: each(self.postgres, earlier.postgres),
            broker: each(self.broker, earlier.broker),
            redis: each(self.redis, earlier.redis),
        }
    }
}

/// CPU time (user + system) process `pid` has used so far; zero when it is gone.
pub fn cpu_of(pid: u32) -> Duration {
    used(std::path::Path::new(&format!("/proc/{pid}/stat")))
}

/// utime + stime of `/proc/<pid>/stat`, in clock ticks of 10 ms (USER_HZ is 100 on Linux).
fn used(stat: &std::path::Path) -> Duration {
    stat_ticks(stat, 11)
}

/// cutime + cstime of `/proc/<pid>/stat`: the time of the children it has reaped.
fn reaped(stat: &std::path::Path) -> Duration {
    stat_ticks(stat, 13)
}

/// The sum of two adjacent tick fields of `/proc/<pid>/stat`, counted from the first field
/// after the command name (0: the state).
fn stat_ticks(stat: &std::path::Path, first: usize) -> Duration {
    let Ok(text) = std::fs::read_to_string(stat) else {
        return Duration::ZERO;
    };
    // The fields after the command name, which may hold spaces, in parentheses.
    let fields: Vec<&str> = text
        .rsplit_once(')')
        .map_or("", |(_, rest)| rest)
        .split_whitespace()
        .collect();
    let tick = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<u64>().ok())
            .unwrap_or(0)
    };
    // utime and stime are fields 14 and 15 of the line, 11 and 12 (from 0) after the name;
    // cutime and cstime follow them.
    Duration::from_millis((tick(first) + tick(first + 1)) * 10)
}

/// Commits `group`'s offsets at the current end of `topics`, so that services of that
/// group start with what this run publishes next, not with the backlog earlier benches and
/// tests left on the broker (which they would otherwise read meanwhile).
pub async fn start_at_end(brokers: &str, group: &str, topics: &[&str]) -> anyhow::Result<()> {
    use rdkafka::consumer::{BaseConsumer, CommitMode, Consumer};
    use rdkafka::{ClientConfig, Offset, TopicPartitionList};

    quire_kit::events::ensure_topics(brokers, topics).await?;
    let consumer: BaseConsumer = ClientConfig::new()
        .set("bootstrap.servers", brokers)
        .set("group.id", group)
        .set("enable.auto.commit", "false")
        .create()?;
    let mut tpl = TopicPartitionList::new();
    for topic in topics {
        let meta = consumer.fetch_metadata(Some(topic), Duration::from_secs(10))?;
        let partitions = meta.topics().first().map_or(0, |t| t.partitions().len());
        for p in 0..partitions as i32 {
            let (_, high) = consumer.fetch_watermarks(topic, p, Duration::from_secs(10))?;
            tpl.add_partition_offset(topic, p, Offset::Offset(high))?;
        }
    }
    consumer.commit(&tpl, CommitMode::Sync)?;
    Ok(())
}
