//! The revenue curve a writer prices a book with: `POST /api/revenue_curve` through the
//! gateway, as the web app asks it (multipart, k 0.9, n 120, the book's id), at 1 and 8
//! concurrent writers (`QUIRE_BENCH_CLIENTS`), and the shop-wide curve (no book) at the
//! highest level. The shop: 24 books in 4 genres made through catalog, with 600 sales of
//! them sent as `trade.completed` events (as the wallet sends them), so every curve is
//! calibrated on real rows; the point starts once the manuscript service counts them all.
//! Auth, catalog and the gateway run in this process; the manuscript service, which holds
//! the demand model, is its release binary in a process of its own (`quire-manuscript`,
//! or `QUIRE_BENCH_MANUSCRIPT_BIN`). Target: p99 under 5 ms at 8 clients. Writes
//! `bench/pricing.md`. Run with `make bench` (Postgres, Redis and the broker up).
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test or bench stops at the first surprise

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use prost::Message as _;
use quire_kit::config::CommonConfig;
use quire_kit::events::{Event, topics, types};
use quire_proto::catalog::v1 as catalog_pb;
use quire_proto::catalog::v1::catalog_service_client::CatalogServiceClient;
use quire_proto::events::v1::TradeCompleted;
use rdkafka::producer::{FutureProducer, FutureRecord};
use serde_json::{Value, json};
use support::{Stats, load_for, pg};
use uuid::Uuid;

mod support;

const DATABASE: &str = "quire_bench";
const AUTH: &str = "auth_bench_pricing";
const CATALOG: &str = "catalog_bench_pricing";
const MANUSCRIPT: &str = "manuscript_bench_pricing";
const GENRES: [&str; 4] = ["Romance", "Mystery", "Fantasy", "Science Fiction"];
const BOOKS: usize = 24;
const SALES: usize = 600;
/// What the web app sends (`frontend/src/features/pricing/api.ts`).
const K: &str = "0.9";
const N: &str = "120";
/// The target: p99 at [`TARGET_CLIENTS`] under this many milliseconds.
const TARGET_MS: f64 = 5.0;
const TARGET_CLIENTS: usize = 8;
const PASSWORD: &str = "bench-writer-pass";

fn env(key: &str, default: &str) -> String {
    std::env::var(key).unwrap_or_else(|_| default.to_owned())
}

fn free_port() -> anyhow::Result<u16> {
    Ok(std::net::TcpListener::bind("127.0.0.1:0")?
        .local_addr()?
        .port())
}

/// The manuscript service's release binary in a process of its own.
struct ManuscriptProcess {
    child: tokio::process::Child,
    pid: u32,
    log: PathBuf,
}

fn tail(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(30)..].join("\n")
}

impl ManuscriptProcess {
    /// `QUIRE_BENCH_MANUSCRIPT_BIN`, else `quire-manuscript` in the release folder of the
    /// target directory (bench.sh builds it first).
    fn binary() -> anyhow::Result<PathBuf> {
        let bin = match std::env::var_os("QUIRE_BENCH_MANUSCRIPT_BIN") {
            Some(b) => PathBuf::from(b),
            None => std::env::var_os("CARGO_TARGET_DIR")
                .map(PathBuf::from)
                .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../target"))
                .join("release/quire-manuscript"),
        };
        anyhow::ensure!(
            bin.is_file(),
            "{} is missing: build it first (cargo build --release -p quire-manuscript --bin \
             quire-manuscript) or set QUIRE_BENCH_MANUSCRIPT_BIN",
            bin.display()
        );
        Ok(bin)
    }

    /// Migrates its schema (`quire-manuscript migrate`), starts it on `grpc` and waits
    /// until its `/readyz` answers 200.
    async fn start(
        common: &CommonConfig,
        auth_url: &str,
        catalog_url: &str,
        group: &str,
        grpc: u16,
        http: &reqwest::Client,
    ) -> anyhow::Result<Self> {
        let bin = Self::binary()?;
        let admin = free_port()?;
        let log = std::env::temp_dir().join(format!("quire-bench-manuscript-{group}.log"));
        let objects = std::env::temp_dir().join(format!("quire-bench-manuscripts-{group}"));
        std::fs::create_dir_all(&objects)?;
        let command = || -> anyhow::Result<tokio::process::Command> {
            let out = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(&log)?;
            let mut cmd = tokio::process::Command::new(&bin);
            cmd.env("QUIRE_DATABASE_URL", &common.database_url)
                .env("QUIRE_DB_SCHEMA", MANUSCRIPT)
                .env("QUIRE_KAFKA_BROKERS", &common.kafka_brokers)
                .env("QUIRE_REDIS_URL", &common.redis_url)
                .env("QUIRE_OUTBOX_POLL_MS", common.outbox_poll_ms.to_string())
                .env("QUIRE_AUTH_URL", auth_url)
                .env("QUIRE_CATALOG_URL", catalog_url)
                .env("QUIRE_EVENTS_GROUP", group)
                .env(
                    "QUIRE_OBJECT_STORE_URL",
                    format!("file://{}", objects.display()),
                )
                .env("QUIRE_GRPC_ADDR", format!("127.0.0.1:{grpc}"))
                .env("QUIRE_ADMIN_ADDR", format!("127.0.0.1:{admin}"))
                .env("QUIRE_LOG_FORMAT", "json")
                .env("OTEL_SERVICE_NAME", "quire-manuscript-bench")
                .env_remove("OTEL_EXPORTER_OTLP_ENDPOINT")
                .stdin(Stdio::null())
                .stdout(out.try_clone()?)
                .stderr(out)
                .kill_on_drop(true);
            Ok(cmd)
        };
        let migrated = command()?.arg("migrate").status().await?;
        anyhow::ensure!(
            migrated.success(),
            "quire-manuscript migrate failed ({migrated}); log {}:\n{}",
            log.display(),
            tail(&log)
        );
        let mut child = command()?.spawn()?;
        let pid = child
            .id()
            .ok_or_else(|| anyhow::anyhow!("quire-manuscript exited at once"))?;
        let started = Instant::now();
        loop {
            if let Some(status) = child.try_wait()? {
                anyhow::bail!(
                    "quire-manuscript exited while starting ({status}); log {}:\n{}",
                    log.display(),
                    tail(&log)
                );
            }
            if let Ok(r) = http
                .get(format!("http://127.0.0.1:{admin}/readyz"))
                .send()
                .await
                && r.status().is_success()
            {
                break;
            }
            anyhow::ensure!(
                started.elapsed() < Duration::from_secs(60),
                "quire-manuscript: /readyz did not answer 200 within 60 s; log {}:\n{}",
                log.display(),
                tail(&log)
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        Ok(Self { child, pid, log })
    }

    /// Asks it to stop (SIGTERM), as a supervisor does, then kills it after 10 s.
    async fn stop(mut self) -> anyhow::Result<()> {
        let _ = std::process::Command::new("kill")
            .args(["-TERM", &self.pid.to_string()])
            .status();
        if tokio::time::timeout(Duration::from_secs(10), self.child.wait())
            .await
            .is_err()
        {
            eprintln!(
                "pricing bench: quire-manuscript did not stop in 10 s; killing it (log {})",
                self.log.display()
            );
            self.child.kill().await?;
        }
        Ok(())
    }
}

/// The gateway in this process in front of auth, catalog and the manuscript service, with
/// rate limits out of the way (every request comes from one address).
async fn spawn_gateway(
    auth_url: &str,
    catalog_url: &str,
    manuscript_url: &str,
    redis_url: &str,
) -> anyhow::Result<String> {
    // The wallet and chat are not asked by any call of this bench.
    let nowhere = format!("http://127.0.0.1:{}", free_port()?);
    support::spawn_gateway_with(quire_gateway::GatewayConfig {
        auth_url: auth_url.into(),
        catalog_url: catalog_url.into(),
        wallet_url: nowhere.clone(),
        manuscript_url: manuscript_url.into(),
        chat_url: nowhere,
        redis_url: redis_url.into(),
        ..support::gateway_config()
    })
    .await
}

/// A writer made by the bench's admin through the gateway, logged in: (token, id).
async fn writer(http: &reqwest::Client, base: &str) -> anyhow::Result<(String, Uuid)> {
    let (admin, _) = support::login(http, base, "bench@quire.local", "bench-password").await?;
    let email = format!(
        "writer-{}@bench.quire.local",
        &Uuid::new_v4().simple().to_string()[..8]
    );
    let r = http
        .post(format!("{base}/api/users/"))
        .bearer_auth(&admin)
        .json(
            &json!({"email": email, "username": "Bench Writer", "password": PASSWORD,
            "roles": ["reader", "writer"]}),
        )
        .send()
        .await?;
    anyhow::ensure!(
        r.status().is_success(),
        "create writer: {}",
        r.text().await?
    );
    support::login(http, base, &email, PASSWORD).await
}

/// The shop's books, made through catalog's gRPC API as the writer: (id, price in cents).
async fn books(catalog_url: &str, token: &str, writer: Uuid) -> anyhow::Result<Vec<(Uuid, i64)>> {
    let mut catalog = CatalogServiceClient::connect(catalog_url.to_owned())
        .await?
        .max_encoding_message_size(64 << 20);
    let mut made = Vec::new();
    for i in 0..BOOKS {
        let title = format!("Bench Lantern {i}");
        let meta = quire_fixtures::build::BookMeta::new(&title, &["Bench Writer"]);
        let chapters: Vec<_> = (1..=3 + i % 5)
            .map(|c| {
                quire_fixtures::build::ChapterText::new(
                    format!("Chapter {c}"),
                    (0..8)
                        .map(|p| format!("Paragraph {p} of chapter {c}: the keeper counted the steps of the lighthouse while the storm pressed on the glass."))
                        .collect(),
                )
            })
            .collect();
        let data =
            quire_fixtures::build::file(quire_fixtures::build::BookFormat::Epub, &meta, &chapters)?;
        let price_cents = 199 + (i as i64 % 8) * 100;
        let mut req = tonic::Request::new(catalog_pb::CreateBookRequest {
            upload_writer_id: writer.to_string(),
            title,
            authors: vec!["Bench Writer".into()],
            short_summary: "A keeper and a storm.".into(),
            long_summary: String::new(),
            tags: vec!["sea".into()],
            genre: GENRES[i % GENRES.len()].into(),
            price_cents,
            assessment_score: 7.0,
            publish_date: "2020-01-01".into(),
            language: "en".into(),
            publisher_id: String::new(),
            files: vec![catalog_pb::UploadedFile {
                file_name: "book.epub".into(),
                data,
            }],
            cover: None,
            publish: true,
            book_id: String::new(),
        });
        req.metadata_mut()
            .insert("authorization", format!("Bearer {token}").parse()?);
        let book = catalog.create_book(req).await?.into_inner();
        made.push((book.book_id.parse()?, price_cents));
    }
    Ok(made)
}

/// `SALES` purchases of the books, as the wallet announces them, spread over 60 days;
/// book i sells in proportion to i + 1, so the books are not alike.
async fn sell(brokers: &str, books: &[(Uuid, i64)], writer: Uuid) -> anyhow::Result<Vec<u64>> {
    let producer: FutureProducer = quire_kit::events::producer_config(brokers).create()?;
    let weights: usize = (1..=books.len()).sum();
    let mut sold = vec![0u64; books.len()];
    for s in 0..SALES {
        // The s-th sale goes to the book whose cumulative weight passes s (mod the total).
        let mut at = s % weights;
        let mut i = 0;
        while at > i {
            at -= i + 1;
            i += 1;
        }
        let (book, price) = books[i];
        sold[i] += 1;
        let when = chrono::Utc::now() - chrono::Duration::days((s % 60) as i64);
        let seller = price * 9 / 10;
        let trade_id = Uuid::new_v4().to_string();
        let data = TradeCompleted {
            trade_id: trade_id.clone(),
            buyer_uid: Uuid::new_v4().to_string(),
            book_id: book.to_string(),
            seller_uid: writer.to_string(),
            price_cents: price,
            seller_cents: seller,
            platform_cents: price - seller,
            completed_at: when.to_rfc3339(),
            campaign_id: String::new(),
        }
        .encode_to_vec();
        let event = Event {
            id: Uuid::new_v4(),
            event_type: types::TRADE_COMPLETED.into(),
            source: "quire-bench".into(),
            time: when.to_rfc3339(),
            key: trade_id,
            data,
            traceparent: None,
        };
        producer
            .send(
                FutureRecord::to(topics::TRADE)
                    .key(&event.key)
                    .payload(&event.data)
                    .headers(event.headers()),
                Duration::from_secs(10),
            )
            .await
            .map_err(|(e, _)| e)?;
    }
    Ok(sold)
}

/// A multipart body of text fields, as a browser's `FormData` sends it: (content type,
/// bytes).
fn multipart(fields: &[(&str, &str)]) -> (String, Vec<u8>) {
    let boundary = format!("quire-bench-{}", Uuid::new_v4().simple());
    let mut body = Vec::new();
    for (name, value) in fields {
        body.extend_from_slice(
            format!(
                "--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n"
            )
            .as_bytes(),
        );
    }
    body.extend_from_slice(format!("--{boundary}--\r\n").as_bytes());
    (format!("multipart/form-data; boundary={boundary}"), body)
}

/// One curve through the gateway: the status and the body.
async fn curve(
    http: &reqwest::Client,
    base: &str,
    token: &str,
    form: &(String, Vec<u8>),
) -> anyhow::Result<(u16, Value)> {
    let r = http
        .post(format!("{base}/api/revenue_curve"))
        .bearer_auth(token)
        .header("content-type", &form.0)
        .body(form.1.clone())
        .send()
        .await?;
    let status = r.status().as_u16();
    Ok((status, r.json().await?))
}

/// Waits until every book's curve counts its sales; answers how long that took.
async fn wait_calibrated(
    http: &reqwest::Client,
    base: &str,
    token: &str,
    books: &[(Uuid, i64)],
    sold: &[u64],
) -> anyhow::Result<Duration> {
    let started = Instant::now();
    let limit = Duration::from_secs(env("QUIRE_BENCH_PRICING_WAIT_SECS", "300").parse()?);
    let mut pending: Vec<usize> = (0..books.len()).collect();
    while !pending.is_empty() {
        let mut still = Vec::new();
        for i in pending {
            let form = multipart(&[("k", K), ("n", "2"), ("book_id", &books[i].0.to_string())]);
            let (status, body) = curve(http, base, token, &form).await?;
            let counted = body["data"]["calibration"]["book_sales"].as_u64();
            if status != 200 || counted != Some(sold[i]) {
                still.push(i);
            }
        }
        pending = still;
        anyhow::ensure!(
            started.elapsed() < limit,
            "the manuscript service did not count every sale within {limit:?} ({} books behind)",
            pending.len()
        );
        if !pending.is_empty() {
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }
    Ok(started.elapsed())
}

/// One measured point: `clients` writers asking the curves of `forms` in turn.
async fn point(
    http: &reqwest::Client,
    base: &str,
    token: &str,
    forms: Arc<Vec<(String, Vec<u8>)>>,
    clients: usize,
    (warmup, run): (Duration, Duration),
) -> anyhow::Result<Stats> {
    let failures = Arc::new(AtomicUsize::new(0));
    let (http, base, token) = (
        http.clone(),
        Arc::new(base.to_owned()),
        Arc::new(token.to_owned()),
    );
    let counted = failures.clone();
    let stats = load_for(clients, warmup, run, move |client, n| {
        let (http, base, token, forms, failures) = (
            http.clone(),
            base.clone(),
            token.clone(),
            forms.clone(),
            counted.clone(),
        );
        async move {
            let form = &forms[(client + n * clients) % forms.len()];
            let ok = http
                .post(format!("{base}/api/revenue_curve"))
                .bearer_auth(token.as_str())
                .header("content-type", &form.0)
                .body(form.1.clone())
                .send()
                .await
                .is_ok_and(|r| r.status().is_success());
            if !ok {
                failures.fetch_add(1, Ordering::Relaxed);
            }
        }
    })
    .await;
    let failed = failures.load(Ordering::Relaxed);
    anyhow::ensure!(failed == 0, "{failed} curves failed at {clients} clients");
    Ok(stats)
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let _telemetry = quire_kit::telemetry::init("quire-bench");
    let secs: u64 = env("QUIRE_BENCH_PRICING_SECS", "8").parse()?;
    let times = (
        Duration::from_secs(secs.div_ceil(4).min(2)),
        Duration::from_secs(secs),
    );
    let levels: Vec<usize> = env("QUIRE_BENCH_CLIENTS", "1,8")
        .split(',')
        .map(|c| c.trim().parse())
        .collect::<Result<_, _>>()?;
    let database_url = env(
        "QUIRE_BENCH_DATABASE_URL",
        &format!("postgres://postgres@127.0.0.1:5432/{DATABASE}"),
    );
    let run_id = format!("{}-{}", std::process::id(), chrono::Utc::now().timestamp());
    let common = support::common(&database_url, AUTH, 16);
    let brokers = common.kafka_brokers.clone();
    let load_before = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();

    // Fresh schemas; every consumer group of the run starts at the topics' end.
    quire_kit::db::ensure_database(&database_url).await?;
    let db = pg(&database_url).await?;
    for schema in [AUTH, CATALOG, MANUSCRIPT] {
        db.batch_execute(&format!("DROP SCHEMA IF EXISTS \"{schema}\" CASCADE"))
            .await?;
    }
    quire_kit::events::ensure_topics(&brokers, &topics::ALL).await?;
    let catalog_group = format!("catalog-bench-pricing-{run_id}");
    let search_group = format!("catalog-search-bench-pricing-{run_id}");
    let manuscript_group = format!("manuscript-bench-pricing-{run_id}");
    let analytics_group = format!("{manuscript_group}-analytics");
    let every = [topics::USER, topics::BOOK, topics::TRADE, topics::CAMPAIGN];
    for group in [
        &catalog_group,
        &search_group,
        &manuscript_group,
        &analytics_group,
    ] {
        if let Err(e) = support::start_at_end(&brokers, group, &every).await {
            eprintln!("{group} starts at the topics' beginning: {e}");
        }
    }

    let auth_url = support::spawn_auth(&common).await?;
    let catalog_url = support::spawn_catalog(
        &CommonConfig {
            db_schema: Some(CATALOG.into()),
            ..common.clone()
        },
        &auth_url,
        &catalog_group,
        &search_group,
    )
    .await?;
    let http = reqwest::Client::builder()
        .pool_max_idle_per_host(64)
        .timeout(Duration::from_secs(30))
        .build()?;
    let manuscript_port = free_port()?;
    let manuscript = ManuscriptProcess::start(
        &common,
        &auth_url,
        &catalog_url,
        &manuscript_group,
        manuscript_port,
        &http,
    )
    .await?;
    let base = spawn_gateway(
        &auth_url,
        &catalog_url,
        &format!("http://127.0.0.1:{manuscript_port}"),
        &common.redis_url,
    )
    .await?;

    let setup = Instant::now();
    let (token, writer_id) = writer(&http, &base).await?;
    let shop = books(&catalog_url, &token, writer_id).await?;
    let no_sales = vec![0; shop.len()];
    wait_calibrated(&http, &base, &token, &shop, &no_sales).await?;
    let sold = sell(&brokers, &shop, writer_id).await?;
    let calibrated = wait_calibrated(&http, &base, &token, &shop, &sold).await?;
    let setup = setup.elapsed();

    // The forms of the run: each book with no cost and with one, as the web app sends
    // them; the shop-wide curve likewise.
    let book_forms: Vec<(String, Vec<u8>)> = shop
        .iter()
        .flat_map(|(id, _)| {
            let id = id.to_string();
            [
                multipart(&[("k", K), ("n", N), ("book_id", &id)]),
                multipart(&[("k", K), ("n", N), ("book_id", &id), ("cost", "50.00")]),
            ]
        })
        .collect();
    let shop_forms = vec![
        multipart(&[("k", K), ("n", N)]),
        multipart(&[("k", K), ("n", N), ("cost", "50.00")]),
    ];
    let (status, sample) = curve(&http, &base, &token, &book_forms[0]).await?;
    anyhow::ensure!(status == 200, "a curve failed: {sample}");

    let book_forms = Arc::new(book_forms);
    let mut rows = Vec::new();
    for &clients in &levels {
        let stats = point(&http, &base, &token, book_forms.clone(), clients, times).await?;
        rows.push(("a book's curve", clients, stats));
    }
    let top = levels.iter().copied().max().unwrap_or(TARGET_CLIENTS);
    let stats = point(&http, &base, &token, Arc::new(shop_forms), top, times).await?;
    rows.push(("the shop-wide curve (no book)", top, stats));
    let load_after = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    manuscript.stop().await?;

    let mut md = format!(
        "# Pricing: POST /api/revenue_curve through the gateway\n\n\
         Command: `make bench` (`RUST_LOG=error cargo bench -p quire-bench --bench pricing`), \
         {secs}s per point after {}s warm-up (`QUIRE_BENCH_PRICING_SECS`), clients {} \
         (`QUIRE_BENCH_CLIENTS`).\n\
         Machine: {}; Postgres, Redis, the broker, auth, catalog and the gateway (in the bench \
         process) and the manuscript service (its release binary) all share it. Load average \
         before the run {}, after {}.\n\
         Setup: {BOOKS} books in {} genres made through catalog, {SALES} sales of them sent as \
         `trade.completed` (book i sells in proportion to i + 1, over 60 days), counted by the \
         manuscript service {:.1} s after the last was sent; {:.1} s in all.\n\
         Each request is the web app's: multipart, k {K}, n {N}, the book's id, with no cost \
         and with a cost of 50.00 in turn, the books taken in turn; every answer was a 200 \
         (a sample holds {} prices, suggests {} and says: \"{}\").\n\n\
         | curve | clients | curves/s | p50 (ms) | p99 (ms) |\n|---|---|---|---|---|\n",
        times.0.as_secs(),
        levels
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(", "),
        support::machine(),
        load_before.trim(),
        load_after.trim(),
        GENRES.len(),
        calibrated.as_secs_f64(),
        setup.as_secs_f64(),
        sample["data"]["T_values"].as_array().map_or(0, Vec::len),
        sample["data"]["suggestion"]["price"],
        sample["data"]["suggestion"]["reason"]
            .as_str()
            .unwrap_or_default(),
    );
    for (what, clients, s) in &rows {
        md.push_str(&format!(
            "| {what} | {clients} | {:.0} | {:.2} | {:.2} |\n",
            s.per_sec,
            s.p50_us / 1000.0,
            s.p99_us / 1000.0
        ));
    }
    md.push_str("\n## Target\n\n");
    match rows
        .iter()
        .find(|(what, c, _)| *c == TARGET_CLIENTS && what.starts_with("a book"))
    {
        Some((_, _, s)) => {
            let p99 = s.p99_us / 1000.0;
            md.push_str(&format!(
                "- A book's curve at {TARGET_CLIENTS} clients: p50 {:.2} ms, p99 {p99:.2} ms \
                 (target p99 < {TARGET_MS} ms: {})\n",
                s.p50_us / 1000.0,
                if p99 < TARGET_MS { "met" } else { "NOT met" }
            ));
        }
        None => md.push_str(&format!(
            "- Not measured: {TARGET_CLIENTS} clients is not among QUIRE_BENCH_CLIENTS\n"
        )),
    }
    support::write_report("pricing.md", &md)
}
