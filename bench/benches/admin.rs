//! The admin's dashboard with a year of data: `GET /api/admin/dashboard?days=365` through
//! the gateway, as the web app asks it, at 1 and 4 concurrent admins, and `days=30` at 1.
//! The year (100,000 accounts, 20,000 books, 1,000,000 trades, 200,000 top-ups, 200
//! campaigns, 50,000 conversations of 500,000 messages) is written into the services' own
//! tables by SQL (see `admin/seed.rs`); every answer of the run must be a 200 with no part
//! unavailable, and the figures of answers taken before and after each point must be the
//! seed's. Each part is also timed on its own over gRPC, and every statement behind the
//! figures is run under EXPLAIN ANALYZE, to tell what the time goes to. Auth, catalog,
//! the wallet, the manuscript service, the chat service (lexical: ChatStats needs no
//! model) and the gateway run in this process. Writes `bench/admin.md`. Run with
//! `make bench` (Postgres, Redis and the broker up).
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test or bench stops at the first surprise

use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use quire_kit::config::CommonConfig;
use quire_proto::auth::v1::auth_service_client::AuthServiceClient;
use quire_proto::catalog::v1::catalog_service_client::CatalogServiceClient;
use quire_proto::chat::v1::chat_service_client::ChatServiceClient;
use quire_proto::ops::v1::ops_service_client::OpsServiceClient;
use quire_proto::ops::v1::{GetOpsStatusRequest, StatsRequest};
use quire_proto::wallet::v1::wallet_service_client::WalletServiceClient;
use quire_test_stack::{TestEnv, User, req};
use seed::{Figures, Schemas};
use serde_json::Value;
use support::{Cpu, Stats, load_for, percentile, pg};

#[path = "admin/seed.rs"]
mod seed;
mod support;

const DATABASE: &str = "quire_bench";
const AUTH: &str = "auth_bench_admin";
const CATALOG: &str = "catalog_bench_admin";
const WALLET: &str = "wallet_bench_admin";
const MANUSCRIPT: &str = "manuscript_bench_admin";
const CHAT: &str = "chat_bench_admin";
const SCHEMAS: Schemas<'static> = Schemas {
    auth: AUTH,
    catalog: CATALOG,
    wallet: WALLET,
    chat: CHAT,
};
/// The services the dashboard asks for their outbox and consumers, in its order.
const SERVICES: [&str; 5] = ["auth", "catalog", "wallet", "manuscript", "chat"];
/// Calls of each part on its own, after three to warm up.
const PART_CALLS: usize = 30;

fn env(key: &str, default: &str) -> String {
    std::env::var(key).unwrap_or_else(|_| default.to_owned())
}

/// The services and the gateway of the run.
struct Stand {
    auth: String,
    catalog: String,
    wallet: String,
    manuscript: String,
    chat: String,
    base: String,
}

/// Starts every service on fresh schemas (their consumer groups at the topics' end) and
/// the gateway in front of them.
async fn stand(common: &CommonConfig, run_id: &str) -> anyhow::Result<Stand> {
    let in_schema = |schema: &str| CommonConfig {
        db_schema: Some(schema.into()),
        ..common.clone()
    };
    let test_env = TestEnv {
        database_url: common.database_url.clone(),
        brokers: common.kafka_brokers.clone(),
        redis_url: common.redis_url.clone(),
        id: run_id.to_owned(),
    };
    let tag = "bench-admin";
    let catalog_group = format!("catalog-{tag}-{run_id}");
    let search_group = format!("catalog-search-{tag}-{run_id}");
    let wallet_group = format!("wallet-{tag}-{run_id}");
    // The names TestEnv gives the manuscript service's and the chat service's groups.
    let manuscript_group = format!("manuscript-{tag}-{run_id}");
    let analytics_group = format!("{manuscript_group}-analytics");
    let chat_group = format!("chat-{tag}-{run_id}");
    for group in [
        &catalog_group,
        &search_group,
        &wallet_group,
        &manuscript_group,
        &analytics_group,
        &chat_group,
    ] {
        support::start_at_end(
            &common.kafka_brokers,
            group,
            &quire_kit::events::topics::ALL,
        )
        .await?;
    }

    let auth = support::spawn_auth(&in_schema(AUTH)).await?;
    let catalog =
        support::spawn_catalog(&in_schema(CATALOG), &auth, &catalog_group, &search_group).await?;
    let wallet = support::spawn_wallet(&in_schema(WALLET), &auth, &catalog, &wallet_group).await?;
    let manuscript = quire_test_stack::start_manuscript(
        in_schema(MANUSCRIPT),
        test_env.manuscript_config(tag, &auth, &catalog),
    )
    .await
    .url;
    let chat =
        quire_test_stack::start_chat(in_schema(CHAT), test_env.chat_config(tag, &auth, &catalog))
            .await
            .url;
    let base = support::spawn_gateway_with(quire_gateway::GatewayConfig {
        auth_url: auth.clone(),
        catalog_url: catalog.clone(),
        wallet_url: wallet.clone(),
        manuscript_url: manuscript.clone(),
        chat_url: chat.clone(),
        redis_url: common.redis_url.clone(),
        ..support::gateway_config()
    })
    .await?;
    Ok(Stand {
        auth,
        catalog,
        wallet,
        manuscript,
        chat,
        base,
    })
}

fn int(v: &Value, what: &str) -> anyhow::Result<i64> {
    v.as_i64()
        .ok_or_else(|| anyhow::anyhow!("the dashboard's {what} is not a whole number: {v}"))
}

/// An amount of the REST API (a decimal) in cents.
fn cents(v: &Value, what: &str) -> anyhow::Result<i64> {
    let amount = v
        .as_f64()
        .ok_or_else(|| anyhow::anyhow!("the dashboard's {what} is not an amount: {v}"))?;
    Ok((amount * 100.0).round() as i64)
}

/// A daily series: checks it has one point per day of the range; answers the sums of its
/// counts and of its amounts in cents (0 for a series without amounts).
fn series(v: &Value, what: &str, days: usize) -> anyhow::Result<(i64, i64)> {
    let points = v
        .as_array()
        .ok_or_else(|| anyhow::anyhow!("the dashboard's {what} is not a list"))?;
    anyhow::ensure!(
        points.len() == days,
        "the dashboard's {what} has {} points for {days} days",
        points.len()
    );
    let mut sums = (0, 0);
    for p in points {
        sums.0 += int(&p["count"], what)?;
        if !p["amount"].is_null() {
            sums.1 += cents(&p["amount"], what)?;
        }
    }
    Ok(sums)
}

/// The figures of a dashboard's answer, checking its shape: every part present, nothing
/// unavailable, one point per day in every series, every service listed, and the series
/// of trades adding up to its totals.
fn figures_of(body: &Value, days: usize) -> anyhow::Result<Figures> {
    let d = &body["data"];
    anyhow::ensure!(
        d["unavailable"].as_array().is_some_and(Vec::is_empty),
        "parts of the dashboard are unavailable: {}",
        d["unavailable"]
    );
    anyhow::ensure!(
        d["days"].as_u64() == Some(days as u64),
        "asked {days} days, answered {}",
        d["days"]
    );
    let services: Vec<&str> = d["services"]
        .as_array()
        .map(|s| s.iter().filter_map(|s| s["service"].as_str()).collect())
        .unwrap_or_default();
    anyhow::ensure!(services == SERVICES, "services answered: {services:?}");
    let (u, b, s, c) = (&d["users"], &d["books"], &d["sales"], &d["chat"]);
    let (trades, revenue) = series(&s["trades_per_day"], "sales.trades_per_day", days)?;
    let (top_ups, top_up_cents) = series(&s["top_ups_per_day"], "sales.top_ups_per_day", days)?;
    let f = Figures {
        users: int(&u["total"], "users.total")?,
        disabled: int(&u["disabled"], "users.disabled")?,
        readers: int(&u["by_role"]["reader"], "users.by_role.reader")?,
        writers: int(&u["by_role"]["writer"], "users.by_role.writer")?,
        publishers: int(&u["by_role"]["publisher"], "users.by_role.publisher")?,
        admins: int(&u["by_role"]["admin"], "users.by_role.admin")?,
        signups: series(&u["signups"], "users.signups", days)?.0,
        books: int(&b["total"], "books.total")?,
        listed: int(&b["listed"], "books.listed")?,
        taken_down: int(&b["taken_down"], "books.taken_down")?,
        books_created: series(&b["created"], "books.created", days)?.0,
        trades: int(&s["trades"], "sales.trades")?,
        revenue_cents: cents(&s["revenue"], "sales.revenue")?,
        platform_cents: cents(&s["platform_revenue"], "sales.platform_revenue")?,
        top_ups,
        top_up_cents,
        campaigns_open: int(&s["campaigns"]["open"], "sales.campaigns.open")?,
        campaigns_funded: int(&s["campaigns"]["funded"], "sales.campaigns.funded")?,
        campaigns_failed: int(&s["campaigns"]["failed"], "sales.campaigns.failed")?,
        escrow_cents: cents(&s["escrow"], "sales.escrow")?,
        conversations: int(&c["conversations"], "chat.conversations")?,
        turns: series(&c["turns_per_day"], "chat.turns_per_day", days)?.0,
    };
    anyhow::ensure!(
        (trades, revenue) == (f.trades, f.revenue_cents),
        "the trades per day add up to {trades} trades of {revenue} cents, the totals say {} of {}",
        f.trades,
        f.revenue_cents
    );
    Ok(f)
}

/// One dashboard through the gateway: its figures (checked against `expected`) and its
/// size in bytes.
async fn check(
    http: &reqwest::Client,
    base: &str,
    token: &str,
    days: usize,
    expected: &Figures,
) -> anyhow::Result<usize> {
    let r = http
        .get(format!("{base}/api/admin/dashboard?days={days}"))
        .bearer_auth(token)
        .send()
        .await?;
    let status = r.status();
    let bytes = r.bytes().await?;
    anyhow::ensure!(
        status == 200,
        "dashboard: {status} {}",
        String::from_utf8_lossy(&bytes)
    );
    let got = figures_of(&serde_json::from_slice(&bytes)?, days)?;
    anyhow::ensure!(
        got == *expected,
        "the dashboard of {days} days shows\n{got:#?}\nthe tables hold\n{expected:#?}"
    );
    Ok(bytes.len())
}

/// The end of a full answer: its last field, `unavailable`, empty.
const ALL_THERE: &[u8] = br#""unavailable":[]"#;

/// One measured point: `clients` admins asking the dashboard of `days` days in a loop.
/// Each answer must be a 200 whose `unavailable` is empty (the figures are checked in full
/// before and after, not in the loop, where parsing would load the bench process).
async fn point(
    http: &reqwest::Client,
    base: &str,
    token: &str,
    (days, clients): (usize, usize),
    (warmup, run): (Duration, Duration),
    broker_port: u16,
) -> anyhow::Result<(Stats, Cpu)> {
    let url = Arc::new(format!("{base}/api/admin/dashboard?days={days}"));
    let token = Arc::new(token.to_owned());
    let failures = Arc::new(AtomicUsize::new(0));
    let (http, counted) = (http.clone(), failures.clone());
    let cpu = Cpu::now(broker_port);
    let stats = load_for(clients, warmup, run, move |_, _| {
        let (http, url, token, failures) =
            (http.clone(), url.clone(), token.clone(), counted.clone());
        async move {
            let whole = match http
                .get(url.as_str())
                .bearer_auth(token.as_str())
                .send()
                .await
            {
                Ok(r) if r.status() == 200 => r.bytes().await.is_ok_and(|b| {
                    let tail = &b[b.len().saturating_sub(256)..];
                    tail.windows(ALL_THERE.len()).any(|w| w == ALL_THERE)
                }),
                _ => false,
            };
            if !whole {
                failures.fetch_add(1, Ordering::Relaxed);
            }
        }
    })
    .await;
    let cpu = Cpu::now(broker_port).per(&cpu, stats.all);
    let failed = failures.load(Ordering::Relaxed);
    anyhow::ensure!(
        failed == 0,
        "{failed} of {} dashboards of {days} days at {clients} clients were not a 200 with \
         every part",
        stats.all
    );
    Ok((stats, cpu))
}

/// p50 and p99 of [`PART_CALLS`] calls of `call`, one at a time.
async fn timed<F, Fut, T>(mut call: F) -> anyhow::Result<(Duration, Duration)>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<tonic::Response<T>, tonic::Status>>,
{
    for _ in 0..3 {
        call().await?;
    }
    let mut lat = Vec::with_capacity(PART_CALLS);
    for _ in 0..PART_CALLS {
        let t = Instant::now();
        call().await?;
        lat.push(t.elapsed());
    }
    lat.sort();
    Ok((percentile(&lat, 0.50), percentile(&lat, 0.99)))
}

/// Each part of the dashboard of `days` days asked of its service on its own, over gRPC.
async fn parts(
    s: &Stand,
    admin: &User,
    days: u32,
) -> anyhow::Result<Vec<(String, (Duration, Duration))>> {
    let stats = || req(StatsRequest { days }, Some(admin));
    let auth = AuthServiceClient::connect(s.auth.clone()).await?;
    let catalog = CatalogServiceClient::connect(s.catalog.clone()).await?;
    let wallet = WalletServiceClient::connect(s.wallet.clone()).await?;
    let chat = ChatServiceClient::connect(s.chat.clone()).await?;
    let mut times = vec![
        (
            "users (auth UserStats)".to_owned(),
            timed(|| {
                let mut c = auth.clone();
                async move { c.user_stats(stats()).await }
            })
            .await?,
        ),
        (
            "books (catalog BookStats)".to_owned(),
            timed(|| {
                let mut c = catalog.clone();
                async move { c.book_stats(stats()).await }
            })
            .await?,
        ),
        (
            "sales (wallet SalesStats)".to_owned(),
            timed(|| {
                let mut c = wallet.clone();
                async move { c.sales_stats(stats()).await }
            })
            .await?,
        ),
        (
            "chat (chat ChatStats)".to_owned(),
            timed(|| {
                let mut c = chat.clone();
                async move { c.chat_stats(stats()).await }
            })
            .await?,
        ),
    ];
    let urls = [&s.auth, &s.catalog, &s.wallet, &s.manuscript, &s.chat];
    for (service, url) in SERVICES.iter().zip(urls) {
        let ops = OpsServiceClient::connect(url.clone()).await?;
        let t = timed(|| {
            let mut c = ops.clone();
            async move {
                c.get_ops_status(req(GetOpsStatusRequest {}, Some(admin)))
                    .await
            }
        })
        .await?;
        times.push((format!("services.{service} ({service} GetOpsStatus)"), t));
    }
    Ok(times)
}

/// One statement behind the figures, under EXPLAIN (ANALYZE, BUFFERS), warm: its plan and
/// execution time in milliseconds.
struct Explained {
    what: &'static str,
    plan: Vec<String>,
    ms: f64,
}

/// The statements the services run for a dashboard of the range starting at `since`, as
/// they write them (the range's start inlined for the bound parameter).
async fn explain(
    db: &tokio_postgres::Client,
    since: chrono::NaiveDate,
) -> anyhow::Result<Vec<Explained>> {
    let from = format!("timestamptz '{since} 00:00:00+00'");
    let today = format!(
        "timestamptz '{} 00:00:00+00'",
        chrono::Utc::now().date_naive()
    );
    let per_day_from = |from: &str, column: &str, table: &str, more: &str| {
        format!(
            "SELECT ({column} AT TIME ZONE 'UTC')::date AS day, count(*) AS count{more} \
             FROM {table} WHERE {column} >= {from}"
        )
    };
    let per_day = |column: &str, table: &str, more: &str| per_day_from(&from, column, table, more);
    // The sums the wallet and the chat keep per closed day (quire_kit::daily_totals), and
    // the one day they still sum from the rows.
    let per_day_today =
        |column: &str, table: &str, more: &str| per_day_from(&today, column, table, more);
    let kept = |series: &str| {
        format!(
            "SELECT day, count, amount, extra FROM daily_totals \
             WHERE series = '{series}' AND day >= date '{since}' AND day < {today}::date"
        )
    };
    let statements: Vec<(&'static str, &str, String)> = vec![
        (
            "auth: accounts and disabled",
            AUTH,
            "SELECT count(*), count(disabled_at) FROM users".into(),
        ),
        (
            "auth: accounts per role",
            AUTH,
            "SELECT role, count(*) FROM user_roles GROUP BY role".into(),
        ),
        (
            "auth: sign-ups per day",
            AUTH,
            format!("{} GROUP BY 1", per_day("created_at", "users", "")),
        ),
        (
            "catalog: books, listed, taken down",
            CATALOG,
            "SELECT count(*) AS total, count(*) FILTER (WHERE writer_on AND NOT taken_down) \
             AS listed, count(*) FILTER (WHERE taken_down) AS taken_down FROM books"
                .into(),
        ),
        (
            "catalog: books created per day",
            CATALOG,
            format!("{} GROUP BY 1", per_day("created_time", "books", "")),
        ),
        (
            "wallet: trades per day, closed days (kept)",
            WALLET,
            kept("trades"),
        ),
        (
            "wallet: trades per day, today",
            WALLET,
            format!(
                "{} GROUP BY 1",
                per_day_today(
                    "created_at",
                    "trades",
                    ", COALESCE(sum(price_cents), 0)::bigint AS amount, \
                     COALESCE(sum(platform_cents), 0)::bigint AS extra"
                )
            ),
        ),
        (
            "wallet: money in per day, closed days (kept)",
            WALLET,
            kept("money_in"),
        ),
        (
            "wallet: money in per day, today",
            WALLET,
            format!(
                "{} AND status = 'settled' GROUP BY 1",
                per_day_today(
                    "settled_at",
                    "top_ups",
                    ", COALESCE(sum(amount_cents), 0)::bigint AS amount, 0::bigint AS extra"
                )
            ),
        ),
        (
            "wallet: campaigns per status",
            WALLET,
            "SELECT status, count(*) AS count FROM campaigns GROUP BY status".into(),
        ),
        (
            "wallet: escrow of open campaigns",
            WALLET,
            "SELECT COALESCE(sum(p.amount_cents), 0)::bigint AS cents FROM campaigns c \
             JOIN pledges p ON p.campaign_id = c.id WHERE c.status = 'open'"
                .into(),
        ),
        (
            "chat: conversations",
            CHAT,
            "SELECT count(*) AS conversations FROM conversations".into(),
        ),
        (
            "chat: turns per day, closed days (kept)",
            CHAT,
            kept("turns"),
        ),
        (
            "chat: turns per day, today",
            CHAT,
            format!(
                "{} GROUP BY 1",
                per_day_today("created_at", "messages", "")
                    .replace(" WHERE ", " WHERE kind = 'user' AND ")
            ),
        ),
    ];
    let mut explained = Vec::new();
    for (what, schema, sql) in statements {
        db.batch_execute(&format!("SET search_path TO {schema}"))
            .await?;
        let sql = format!("EXPLAIN (ANALYZE, BUFFERS) {sql}");
        // The second run is measured: the first warms the cache as the run's dashboards did.
        db.query(&sql, &[]).await?;
        let plan: Vec<String> = db
            .query(&sql, &[])
            .await?
            .iter()
            .map(|r| r.get::<_, String>(0))
            .collect();
        let ms = plan
            .iter()
            .find_map(|l| l.trim().strip_prefix("Execution Time: "))
            .and_then(|t| t.trim_end_matches(" ms").parse().ok())
            .unwrap_or(f64::NAN);
        explained.push(Explained { what, plan, ms });
    }
    db.batch_execute("RESET search_path").await?;
    Ok(explained)
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let _telemetry = quire_kit::telemetry::init("quire-bench");
    let secs: u64 = env("QUIRE_BENCH_ADMIN_SECS", "10").parse()?;
    let times = (
        Duration::from_secs(secs.div_ceil(4).min(2)),
        Duration::from_secs(secs),
    );
    let database_url = env(
        "QUIRE_BENCH_DATABASE_URL",
        &format!("postgres://postgres@127.0.0.1:5432/{DATABASE}"),
    );
    let run_id = format!("{}-{}", std::process::id(), chrono::Utc::now().timestamp());
    let common = CommonConfig {
        db_schema: None,
        ..support::common(&database_url, "", 8)
    };
    let broker_port = common
        .kafka_brokers
        .rsplit(':')
        .next()
        .and_then(|p| p.parse().ok())
        .unwrap_or(9092);
    let load_before = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();

    quire_kit::db::ensure_database(&database_url).await?;
    let db = pg(&database_url).await?;
    for schema in [AUTH, CATALOG, WALLET, MANUSCRIPT, CHAT] {
        db.batch_execute(&format!("DROP SCHEMA IF EXISTS \"{schema}\" CASCADE"))
            .await?;
    }
    let stand = stand(&common, &run_id).await?;
    let http = reqwest::Client::builder()
        .pool_max_idle_per_host(16)
        .timeout(Duration::from_secs(30))
        .build()?;
    let (token, admin_id) =
        support::login(&http, &stand.base, "bench@quire.local", "bench-password").await?;
    let admin = User {
        id: admin_id.to_string(),
        name: "bench admin".into(),
        token: token.clone(),
    };

    // What the services made themselves (the admin), then the year.
    let year = quire_kit::stats::first_day(365);
    let month = quire_kit::stats::first_day(30);
    let before = Figures::counted(&db, SCHEMAS, year).await?;
    let seeding = seed::write(&db, SCHEMAS).await?;
    let expected_year = before.plus(&seed::seeded());
    let in_tables = Figures::counted(&db, SCHEMAS, year).await?;
    anyhow::ensure!(
        in_tables == expected_year,
        "the seed wrote\n{in_tables:#?}\nnot\n{expected_year:#?}"
    );
    let expected_month = Figures::counted(&db, SCHEMAS, month).await?;

    // The first dashboard of the year sums every closed day and keeps it (the wallet's and
    // the chat's daily totals); every later one reads what was kept.
    let started = Instant::now();
    check(&http, &stand.base, &token, 365, &expected_year).await?;
    let first_ask = started.elapsed();

    let mut rows = Vec::new();
    let mut sizes = Vec::new();
    for (days, clients) in [(365, 1), (365, 4), (30, 1)] {
        let expected = if days == 365 {
            &expected_year
        } else {
            &expected_month
        };
        sizes.push((
            days,
            check(&http, &stand.base, &token, days, expected).await?,
        ));
        let (stats, cpu) = point(
            &http,
            &stand.base,
            &token,
            (days, clients),
            times,
            broker_port,
        )
        .await?;
        check(&http, &stand.base, &token, days, expected).await?;
        rows.push((days, clients, stats, cpu));
    }
    let part_times = parts(&stand, &admin, 365).await?;
    let explained = explain(&db, year).await?;
    let load_after = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    let server = db
        .query_one(
            "SELECT current_setting('server_version'), current_setting('shared_buffers'), \
             current_setting('work_mem'), current_setting('jit')",
            &[],
        )
        .await?;
    let server: Vec<String> = (0..4).map(|i| server.get(i)).collect();

    let seeded = seed::seeded();
    let mut md = format!(
        "# Admin dashboard: GET /api/admin/dashboard with a year of data\n\n\
         Command: `make bench` (`RUST_LOG=error cargo bench -p quire-bench --bench admin`), \
         {secs}s per point after {}s warm-up (`QUIRE_BENCH_ADMIN_SECS`).\n\
         Machine: {}; Postgres ({}, shared_buffers {}, work_mem {}, jit {}), Redis, the \
         broker and every service (auth, catalog, wallet, manuscript, chat) with the gateway and \
         the load generator (in the bench process) share it. Load average before the run {}, \
         after {}.\n\n\
         ## The year\n\n\
         Written straight into the services' own tables by SQL `generate_series` (the only \
         practical way to write a year of history: the API dates everything now, and a year \
         of sales through it would take hours), each row dated `i % 364` days and \
         `i * 7919 % 86000` s before now, so every day of the year has rows:\n\n\
         - auth: {} accounts (`users`; {} disabled) with {} roles (`user_roles`: every one a \
         reader, {} writers, {} publishers), besides the bench's admin;\n\
         - catalog: {} books (`books`; {} listed, {} taken down);\n\
         - wallet: {} trades (`trades`, each with its `transfers` row), {} top-ups and \
         recharges (`top_ups`: {} settled with their transfer, the rest failed), {} campaigns \
         (`campaigns` with their escrow `accounts`: {} open, {} funded, {} failed) with {} \
         pledges each (`pledges`); ledger `entries` and wallet balances, which no figure of the \
         dashboard reads, are not written;\n\
         - chat: {} conversations (`conversations`) of {} messages each (`messages`, {} of \
         them readers' turns).\n\n\
         Then `VACUUM (ANALYZE)` of those tables, as autovacuum leaves tables a year old \
         (statistics, and the visibility map that lets a count read its index alone). Times: \
         {}.\n\n\
         Every answer of every point was a 200 with every part there (`unavailable` empty), and \
         an answer before and after each point showed exactly the seeded figures (totals, \
         roles, campaigns, escrow, and the sums of every daily series; `days=30`: the rows of \
         those 30 days as counted in the tables). The chat service runs without the \
         sentence-embedding model (ChatStats does not use it).\n\n\
         | days | clients | dashboards/s | p50 (ms) | p99 (ms) | answer (KB) | CPU ms per dashboard: bench process / Postgres |\n\
         |---|---|---|---|---|---|---|\n",
        times.0.as_secs(),
        support::machine(),
        server[0],
        server[1],
        server[2],
        server[3],
        load_before.trim(),
        load_after.trim(),
        seed::USERS,
        seeded.disabled,
        seeded.readers + seeded.writers + seeded.publishers,
        seeded.writers,
        seeded.publishers,
        seed::BOOKS,
        seeded.listed,
        seeded.taken_down,
        seed::TRADES,
        seed::TOP_UPS,
        seeded.top_ups,
        seed::CAMPAIGNS,
        seeded.campaigns_open,
        seeded.campaigns_funded,
        seeded.campaigns_failed,
        seed::PLEDGES_EACH,
        seed::CONVERSATIONS,
        seed::MESSAGES_EACH,
        seeded.turns,
        seeding
            .iter()
            .map(|(what, t)| format!("{what} {:.1} s", t.as_secs_f64()))
            .collect::<Vec<_>>()
            .join(", "),
    );
    for (days, clients, s, cpu) in &rows {
        let size = sizes.iter().find(|(d, _)| d == days).map_or(0, |(_, b)| *b);
        md.push_str(&format!(
            "| {days} | {clients} | {:.1} | {:.1} | {:.1} | {:.1} | {:.2} / {:.2} |\n",
            s.per_sec,
            s.p50_us / 1000.0,
            s.p99_us / 1000.0,
            size as f64 / 1024.0,
            ms(cpu.this_process),
            ms(cpu.postgres),
        ));
    }

    md.push_str(&format!(
        "\nThe first dashboard of the year, asked once before the points above, took {:.1} ms: \
         it summed every closed day of the year from the rows and kept the sums (the wallet's \
         trades and money in, the chat's turns: `quire_kit::daily_totals`); every dashboard \
         after it reads the kept days and sums only today's rows, as in the table.\n",
        ms(first_ask)
    ));
    md.push_str(&format!(
        "\n## Each part on its own (gRPC straight to its service, days=365, {PART_CALLS} calls \
         one at a time)\n\n| part | p50 (ms) | p99 (ms) |\n|---|---|---|\n"
    ));
    for (what, (p50, p99)) in &part_times {
        md.push_str(&format!("| {what} | {:.2} | {:.2} |\n", ms(*p50), ms(*p99)));
    }
    md.push_str(
        "\n## The statements behind the figures (EXPLAIN (ANALYZE, BUFFERS), days=365, warm)\n\n\
         | statement | execution (ms) |\n|---|---|\n",
    );
    for e in &explained {
        md.push_str(&format!("| {} | {:.2} |\n", e.what, e.ms));
    }
    let heaviest = explained
        .iter()
        .max_by(|a, b| a.ms.total_cmp(&b.ms))
        .ok_or_else(|| anyhow::anyhow!("no statement explained"))?;
    md.push_str(&format!(
        "\nThe heaviest, {}:\n\n```\n{}\n```\n",
        heaviest.what,
        heaviest.plan.join("\n")
    ));

    // What dominates, from the figures above.
    let one = rows
        .iter()
        .find(|(d, c, _, _)| *d == 365 && *c == 1)
        .map(|(_, _, s, _)| s.p50_us / 1000.0)
        .unwrap_or(f64::NAN);
    let (slowest, (slowest_p50, _)) = part_times
        .iter()
        .max_by_key(|(_, (p50, _))| *p50)
        .ok_or_else(|| anyhow::anyhow!("no part timed"))?;
    let statements_ms: f64 = explained.iter().map(|e| e.ms).sum();
    let jit = heaviest
        .plan
        .iter()
        .any(|l| l.trim_start().starts_with("JIT:"));
    md.push_str(&format!(
        "\n## What dominates\n\n\
         The parts are asked at the same time, so a dashboard takes about as long as its \
         slowest part plus the gateway's fan-out and JSON: at 1 client a year's dashboard takes \
         p50 {one:.1} ms, and its slowest part, {slowest}, takes p50 {:.1} ms on its own. \
         The statements behind every figure take {statements_ms:.1} ms together in Postgres \
         (each service runs its own, side by side); the heaviest is {} at {:.1} ms, whose plan \
         is above{}.\n",
        ms(*slowest_p50),
        heaviest.what,
        heaviest.ms,
        if jit {
            ", and Postgres compiled it with JIT: its JIT lines show what that costs"
        } else {
            ""
        },
    ));
    support::write_report("admin.md", &md)
}
