//! Buying books: `GET /api/trade` through the gateway (gateway -> wallet -> catalog for the
//! price and seller -> one Postgres transaction) against the same transfer written as a
//! raw SQL transaction (tokio-postgres) in the same Postgres, at 1, 8 and 32 clients;
//! uncontended (each client is its own buyer, buying books of sellers no other client
//! touches) and contended (every buyer buys the same hot seller's book at once); then the
//! time from a trade's commit to a Kafka consumer on `quire.trade.v1` receiving its
//! `trade.completed`. Writes `bench/trades.md`. Run with `make bench` (Postgres, Redis and
//! the broker up); `QUIRE_BENCH_TRADE_SECS` (seconds per point, default 8),
//! `QUIRE_BENCH_CLIENTS` (default `1,8,32`) and `QUIRE_BENCH_LATENCY_TRADES` (default 300)
//! shrink it for a quick try.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test or bench stops at the first surprise

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

use quire_kit::config::CommonConfig;
use quire_kit::events::topics;
use quire_proto::catalog::v1 as catalog_pb;
use quire_proto::catalog::v1::catalog_service_client::CatalogServiceClient;
use quire_proto::wallet::v1 as wallet_pb;
use quire_proto::wallet::v1::wallet_service_client::WalletServiceClient;
use serde_json::{Value, json};
use support::{Cpu, Stats, load_for, percentile, pg};
use uuid::Uuid;

use events::Inbox;
use report::{Delivery, Point, Reference, Report, Side};

// The bench's own parts, beside it (a bench's root file looks for modules in benches/).
#[path = "trades/events.rs"]
mod events;
#[path = "trades/raw.rs"]
mod raw;
#[path = "trades/report.rs"]
mod report;
mod support;

const DATABASE: &str = "quire_bench";
const AUTH: &str = "auth_bench_trades";
const CATALOG: &str = "catalog_bench_trades";
const WALLET: &str = "wallet_bench_trades";
/// The raw SQL side's copy of the wallet schema (the wallet's own migrations).
const RAW: &str = "wallet_bench_sql";
const PRICE_CENTS: i64 = 499;
/// The wallet's default writer share.
const SHARE_PERCENT: u8 = 90;
/// Sellers of the uncontended books: book j is sold by seller j % SELLERS. A multiple of
/// every client count, so that clients (client c buys the books j = c (mod clients)) never
/// share a seller.
const SELLERS: usize = 256;
const BOOKS: usize = 32_768;
/// The hot seller's books: at step k every buyer of the contended run buys hot book k.
const HOT_BOOKS: usize = 16_384;
const PASSWORD: &str = "bench-buyer-pass";
/// The client count at which the floor (what any trade through Quire must cost beyond the
/// raw transaction) is measured: one where both sides are bound by the 2 cores.
const FLOOR_CLIENTS: usize = 8;

fn env(key: &str, default: &str) -> String {
    std::env::var(key).unwrap_or_else(|_| default.to_owned())
}

fn wall_us() -> i64 {
    SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .unwrap()
        .as_micros() as i64
}

/// What is for sale: the books of many sellers and the hot seller's books.
struct Shop {
    sellers: Vec<Uuid>,
    books: Vec<Uuid>,
    hot_seller: Uuid,
    hot_books: Vec<Uuid>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Market {
    /// Client c of n buys books j = c + n*k: its own sellers, nobody else's.
    Spread,
    /// Every client buys hot book k at its step k.
    Hot,
}

impl Shop {
    /// (book, seller, title) of the k-th purchase of client `client` of `clients`.
    fn pick(
        &self,
        market: Market,
        clients: usize,
        client: usize,
        k: usize,
    ) -> (Uuid, Uuid, String) {
        match market {
            Market::Spread => {
                let j = client + clients * k;
                assert!(j < self.books.len(), "out of books: raise BOOKS");
                (self.books[j], self.sellers[j % SELLERS], title(j))
            }
            Market::Hot => {
                assert!(
                    k < self.hot_books.len(),
                    "out of hot books: raise HOT_BOOKS"
                );
                (self.hot_books[k], self.hot_seller, title(BOOKS + k))
            }
        }
    }
}

fn title(j: usize) -> String {
    format!("The Lighthouse Keeper's Ledger, volume {j}")
}

/// A logged-in buyer with a funded wallet, and how many books it bought.
struct Buyer {
    id: Uuid,
    token: String,
    bought: AtomicUsize,
}

/// (trade id, when its REST answer arrived, wall clock then).
type Answers = Arc<Mutex<Vec<(String, Instant, i64)>>>;

/// `message` with `token` as its bearer, as the gateway sends it.
fn authorized<T>(message: T, token: &str) -> tonic::Request<T> {
    let mut request = tonic::Request::new(message);
    request.metadata_mut().insert(
        "authorization",
        format!("Bearer {token}").parse().expect("header"),
    );
    request
}

/// Buys `book` for `buyer` through the gateway with a fresh `Idempotency-Key`; notes the
/// trade id and when the answer came in `answers`.
async fn buy(http: &reqwest::Client, base: &str, buyer: &Buyer, book: Uuid, answers: &Answers) {
    let r = http
        .get(format!("{base}/api/trade"))
        .query(&[
            ("buyer_uid", buyer.id.to_string()),
            ("book_id", book.to_string()),
        ])
        .bearer_auth(&buyer.token)
        .header("Idempotency-Key", Uuid::new_v4().to_string())
        .send()
        .await
        .expect("gateway answers");
    let status = r.status();
    let body: Value = r.json().await.expect("JSON answer");
    let (at, wall) = (Instant::now(), wall_us());
    assert!(status.is_success(), "trade: {status} {body}");
    assert_eq!(
        body["data"]["replayed"], false,
        "a book bought twice: {body}"
    );
    let trade = body["data"]["trade_id"].as_str().unwrap().to_owned();
    answers.lock().unwrap().push((trade, at, wall));
}

/// What every measured point needs.
struct Bench {
    http: reqwest::Client,
    base: String,
    database_url: String,
    db: tokio_postgres::Client,
    shop: Arc<Shop>,
    warmup: Duration,
    run: Duration,
    inbox: Inbox,
    broker_port: u16,
}

impl Bench {
    /// `buyers.len()` clients, each its own buyer, buying through the gateway; then waits
    /// for their events to reach the consumer.
    async fn gateway(&self, market: Market, buyers: &[Arc<Buyer>]) -> Point {
        let clients = buyers.len();
        let answers: Answers = Arc::default();
        let (http, base, shop, buyers, log) = (
            self.http.clone(),
            self.base.clone(),
            self.shop.clone(),
            Arc::new(buyers.to_vec()),
            answers.clone(),
        );
        let cpu = Cpu::now(self.broker_port);
        let stats = load_for(clients, self.warmup, self.run, move |client, _| {
            let (http, base, shop, buyers, log) = (
                http.clone(),
                base.clone(),
                shop.clone(),
                buyers.clone(),
                log.clone(),
            );
            async move {
                let buyer = &buyers[client];
                let k = buyer.bought.fetch_add(1, Ordering::Relaxed);
                let (book, _, _) = shop.pick(market, clients, client, k);
                buy(&http, &base, buyer, book, &log).await;
            }
        })
        .await;
        // The relay, the broker and the consumers finish this point's events before the
        // next point starts; their cycles count toward this point's trades.
        let delivery = self.delivery(&answers).await;
        let cpu = Cpu::now(self.broker_port).per(&cpu, stats.all);
        Point {
            clients,
            side: Side::Gateway,
            stats,
            cpu,
            delivery: Some(delivery),
        }
    }

    /// The same trades as raw SQL transactions, one connection per client, each client its
    /// own buyer (`buyers`, whose wallets exist in the raw schema).
    async fn raw(&self, market: Market, buyers: &[Uuid]) -> Point {
        let clients = buyers.len();
        let mut conns = Vec::new();
        for _ in 0..clients {
            conns.push(raw::RawClient::connect(&self.database_url).await);
        }
        let conns = Arc::new(conns);
        // Held until the CPU is read: a backend whose connection closed is missing from the
        // sum until the postmaster has reaped it.
        let open = conns.clone();
        let counters: Arc<Vec<AtomicUsize>> =
            Arc::new((0..clients).map(|_| AtomicUsize::new(0)).collect());
        let (shop, buyers) = (self.shop.clone(), Arc::new(buyers.to_vec()));
        let cpu = Cpu::now(self.broker_port);
        let stats = load_for(clients, self.warmup, self.run, move |client, _| {
            let (conns, counters, shop, buyers) = (
                conns.clone(),
                counters.clone(),
                shop.clone(),
                buyers.clone(),
            );
            async move {
                let k = counters[client].fetch_add(1, Ordering::Relaxed);
                let (_, seller, title) = shop.pick(market, clients, client, k);
                // A fresh book id: the raw side has no catalog, only the trade row.
                conns[client]
                    .trade(buyers[client], Uuid::new_v4(), seller, &title)
                    .await;
            }
        })
        .await;
        let cpu = Cpu::now(self.broker_port).per(&cpu, stats.all);
        drop(open);
        Point {
            clients,
            side: Side::Raw,
            stats,
            cpu,
            delivery: None,
        }
    }

    /// A reference path (no trade, so no event) at `clients` clients: its figures and the
    /// CPU each call cost.
    async fn reference<F, Fut>(&self, clients: usize, call: F) -> Reference
    where
        F: Fn(usize, usize) -> Fut + Clone + Send + 'static,
        Fut: std::future::Future<Output = ()> + Send,
    {
        let cpu = Cpu::now(self.broker_port);
        let stats = load_for(clients, self.warmup, self.run, call).await;
        let cpu = Cpu::now(self.broker_port).per(&cpu, stats.all);
        Reference { stats, cpu }
    }

    /// Waits until the wallet's outbox is sent and the consumer has every event of
    /// `answers` (at most 2 minutes), then their latencies, REST answer -> consumer.
    async fn delivery(&self, answers: &Answers) -> Delivery {
        let answers = answers.lock().unwrap().clone();
        let started = Instant::now();
        let deadline = started + Duration::from_secs(120);
        loop {
            let unsent: i64 = self
                .db
                .query_one(
                    &format!("SELECT count(*) FROM {WALLET}.outbox WHERE published_at IS NULL"),
                    &[],
                )
                .await
                .unwrap()
                .get(0);
            let got = {
                let inbox = self.inbox.lock().unwrap();
                answers
                    .iter()
                    .filter(|(id, _, _)| inbox.contains_key(id))
                    .count()
            };
            if (unsent == 0 && got == answers.len()) || Instant::now() > deadline {
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        let inbox = self.inbox.lock().unwrap();
        let mut lat: Vec<Duration> = answers
            .iter()
            .filter_map(|(id, at, _)| inbox.get(id).map(|r| r.at.saturating_duration_since(*at)))
            .collect();
        lat.sort();
        Delivery {
            answered: answers.len(),
            received: lat.len(),
            drained: started.elapsed(),
            latencies: lat,
        }
    }
}

/// Creates, logs in and funds `n` buyers through the gateway, four at a time (password
/// hashing is slow on purpose).
async fn buyers(
    http: &reqwest::Client,
    base: &str,
    admin: &str,
    n: usize,
) -> anyhow::Result<Vec<Arc<Buyer>>> {
    let run = Uuid::new_v4().simple().to_string();
    let mut out = Vec::new();
    for chunk in (0..n).collect::<Vec<_>>().chunks(4) {
        let made = futures::future::join_all(chunk.iter().map(|i| {
            let email = format!("buyer-{i}-{}@bench.quire.local", &run[..8]);
            async move {
                let r = http
                    .post(format!("{base}/api/users/"))
                    .bearer_auth(admin)
                    .json(&json!({"email": email, "username": format!("Buyer {i}"),
                        "password": PASSWORD, "roles": ["reader"]}))
                    .send()
                    .await?;
                anyhow::ensure!(r.status().is_success(), "create buyer: {}", r.text().await?);
                let (token, id) = support::login(http, base, &email, PASSWORD).await?;
                for (path, body) in [
                    ("/api/wallet/open", json!({})),
                    // The gateway's largest amount: enough for every book of the run.
                    ("/api/wallet/recharge", json!({"amount": 1_000_000})),
                ] {
                    let r = http
                        .post(format!("{base}{path}"))
                        .bearer_auth(&token)
                        .json(&body)
                        .send()
                        .await?;
                    anyhow::ensure!(r.status().is_success(), "{path}: {}", r.text().await?);
                }
                Ok(Arc::new(Buyer {
                    id,
                    token,
                    bought: AtomicUsize::new(0),
                }))
            }
        }))
        .await;
        for b in made {
            out.push(b?);
        }
    }
    Ok(out)
}

/// Lists the books in catalog's table (as the demo loader's rows would be, minus files:
/// a sale needs only the row).
async fn stock(db: &tokio_postgres::Client, shop: &Shop) -> anyhow::Result<()> {
    let mut ids = Vec::new();
    let mut sellers = Vec::new();
    let mut titles = Vec::new();
    for (j, id) in shop.books.iter().enumerate() {
        ids.push(id.to_string());
        sellers.push(shop.sellers[j % SELLERS].to_string());
        titles.push(title(j));
    }
    for (k, id) in shop.hot_books.iter().enumerate() {
        ids.push(id.to_string());
        sellers.push(shop.hot_seller.to_string());
        titles.push(title(BOOKS + k));
    }
    db.execute(
        &format!(
            "INSERT INTO {CATALOG}.books (id, title, authors, author, price_cents, \
               upload_writer_id, writer_on, published_at, genre, language) \
             SELECT u.id::uuid, u.title, ARRAY['Ada Writer'], 'Ada Writer', $4, u.seller::uuid, \
               true, now(), 'Fiction', 'en' \
             FROM unnest($1::text[], $2::text[], $3::text[]) AS u(id, seller, title)"
        ),
        &[&ids, &sellers, &titles, &PRICE_CENTS],
    )
    .await?;
    Ok(())
}

/// Opens wallets in `schema` for `users` holding `cents` each (sellers with 0, the raw
/// side's buyers funded), as the wallet's own first credit would.
async fn open_wallets(
    db: &tokio_postgres::Client,
    schema: &str,
    users: &[Uuid],
    cents: i64,
) -> anyhow::Result<()> {
    let ids: Vec<String> = users.iter().map(Uuid::to_string).collect();
    db.execute(
        &format!(
            "INSERT INTO {schema}.accounts (id, kind) SELECT u::uuid, 'user' FROM unnest($1::text[]) u"
        ),
        &[&ids],
    )
    .await?;
    db.execute(
        &format!(
            "INSERT INTO {schema}.wallets (user_id, balance_cents, recharged_cents) \
             SELECT u::uuid, $2, $2 FROM unnest($1::text[]) u"
        ),
        &[&ids, &cents],
    )
    .await?;
    Ok(())
}

/// The wallet's Trade over gRPC (no gateway) at 1 client, for `buyer`.
async fn wallet_direct(
    bench: &Bench,
    wallet_url: &str,
    buyer: Arc<Buyer>,
) -> anyhow::Result<Stats> {
    let (ch, shop) = (quire_kit::grpc::channel(wallet_url)?, bench.shop.clone());
    Ok(load_for(1, bench.warmup, bench.run, move |_, _| {
        let (ch, shop, b) = (ch.clone(), shop.clone(), buyer.clone());
        async move {
            let k = b.bought.fetch_add(1, Ordering::Relaxed);
            let (book, _, _) = shop.pick(Market::Spread, 1, 0, k);
            let request = wallet_pb::TradeRequest {
                buyer_uid: b.id.to_string(),
                book_id: book.to_string(),
                idempotency_key: Uuid::new_v4().to_string(),
            };
            let trade = WalletServiceClient::new(ch)
                .trade(authorized(request, &b.token))
                .await
                .expect("wallet trades")
                .into_inner();
            assert!(!trade.replayed);
        }
    })
    .await)
}

/// Catalog's GetBookForSale (what the wallet asks before a trade) at `clients` clients.
async fn catalog_direct(
    bench: &Bench,
    catalog_url: &str,
    token: String,
    clients: usize,
) -> anyhow::Result<Reference> {
    let (ch, shop) = (quire_kit::grpc::channel(catalog_url)?, bench.shop.clone());
    Ok(bench
        .reference(clients, move |client, n| {
            let (ch, shop, token) = (ch.clone(), shop.clone(), token.clone());
            async move {
                let request = catalog_pb::GetBookForSaleRequest {
                    book_id: shop.books[(n * clients + client) % BOOKS].to_string(),
                };
                CatalogServiceClient::new(ch)
                    .get_book_for_sale(authorized(request, &token))
                    .await
                    .expect("catalog answers");
            }
        })
        .await)
}

/// `POST /api/wallet/info` through the gateway, each client its own buyer: the gateway's
/// work for any call (HTTP, the token, the rate limit and revocation in Redis, the gRPC
/// call) on top of the wallet's.
async fn wallet_info_gateway(bench: &Bench, buyers: &[Arc<Buyer>]) -> Reference {
    let (http, base, buyers) = (
        bench.http.clone(),
        bench.base.clone(),
        Arc::new(buyers.to_vec()),
    );
    bench
        .reference(buyers.len(), move |client, _| {
            let (http, base, buyers) = (http.clone(), base.clone(), buyers.clone());
            async move {
                let r = http
                    .post(format!("{base}/api/wallet/info"))
                    .bearer_auth(&buyers[client].token)
                    .send()
                    .await
                    .expect("gateway answers");
                assert!(r.status().is_success(), "wallet/info: {}", r.status());
                r.bytes().await.expect("an answer");
            }
        })
        .await
}

/// The wallet's GetWallet over gRPC directly, for the same buyers.
async fn wallet_info_direct(
    bench: &Bench,
    wallet_url: &str,
    buyers: &[Arc<Buyer>],
) -> anyhow::Result<Reference> {
    let (ch, buyers) = (
        quire_kit::grpc::channel(wallet_url)?,
        Arc::new(buyers.to_vec()),
    );
    Ok(bench
        .reference(buyers.len(), move |client, _| {
            let (ch, buyers) = (ch.clone(), buyers.clone());
            async move {
                let b = &buyers[client];
                let request = wallet_pb::GetWalletRequest {
                    user_id: b.id.to_string(),
                };
                WalletServiceClient::new(ch)
                    .get_wallet(authorized(request, &b.token))
                    .await
                    .expect("wallet answers");
            }
        })
        .await)
}

/// One buyer buys `n` books one at a time with a random pause of 0-20 ms between trades,
/// so that commits fall anywhere in the relay's cycle; then where each event's time went.
async fn paced(bench: &Bench, buyer: &Buyer, n: usize) -> anyhow::Result<report::Paced> {
    let answers: Answers = Arc::default();
    for k in 0..n {
        let (book, _, _) = bench.shop.pick(Market::Spread, 1, 0, k);
        buy(&bench.http, &bench.base, buyer, book, &answers).await;
        tokio::time::sleep(Duration::from_micros(rand::random::<u64>() % 20_000)).await;
    }
    let delivery = bench.delivery(&answers).await;
    // The relay writes its transaction's start as published_at: when it picked the row up.
    let ids: Vec<String> = answers
        .lock()
        .unwrap()
        .iter()
        .map(|a| a.0.clone())
        .collect();
    let picked: std::collections::HashMap<String, i64> = bench
        .db
        .query(
            &format!(
                "SELECT event_key, (extract(epoch FROM published_at) * 1e6)::int8 \
                 FROM {WALLET}.outbox WHERE event_key = ANY($1) AND published_at IS NOT NULL"
            ),
            &[&ids],
        )
        .await?
        .iter()
        .map(|r| (r.get(0), r.get(1)))
        .collect();
    let us = |d: i64| Duration::from_micros(d.max(0) as u64);
    // The services' own consumers of the event write when they took it up: the
    // transaction start that processed_events records.
    let taken_up = |schema: &'static str| {
        let db = &bench.db;
        let ids = &ids;
        async move {
            let rows = db
                .query(
                    &format!(
                        "SELECT o.event_key, (extract(epoch FROM p.processed_at) * 1e6)::int8 \
                         FROM {WALLET}.outbox o JOIN {schema}.processed_events p \
                         ON p.event_id = o.event_id WHERE o.event_key = ANY($1)"
                    ),
                    &[ids],
                )
                .await?;
            anyhow::Ok(
                rows.iter()
                    .map(|r| (r.get::<_, String>(0), r.get::<_, i64>(1)))
                    .collect::<std::collections::HashMap<_, _>>(),
            )
        }
    };
    let (catalog_at, wallet_at) = (taken_up(CATALOG).await?, taken_up(WALLET).await?);
    let mut paced = report::Paced {
        delivery,
        ..report::Paced::default()
    };
    for (id, _, answered_wall) in answers.lock().unwrap().iter() {
        if let Some(at) = catalog_at.get(id) {
            paced.catalog_consumer.push(us(at - answered_wall));
        }
        if let Some(at) = wallet_at.get(id) {
            paced.wallet_consumer.push(us(at - answered_wall));
        }
    }
    let inbox = bench.inbox.lock().unwrap();
    for (id, _, answered_wall) in answers.lock().unwrap().iter() {
        let Some(got) = inbox.get(id) else { continue };
        paced.from_created.push(us(got.wall_us - got.completed_us));
        paced
            .in_transaction
            .push(us(answered_wall - got.completed_us));
        if let Some(p) = picked.get(id) {
            paced.to_relay.push(us(p - answered_wall));
            paced.relay_to_consumer.push(us(got.wall_us - p));
        }
    }
    for v in [
        &mut paced.from_created,
        &mut paced.in_transaction,
        &mut paced.to_relay,
        &mut paced.relay_to_consumer,
        &mut paced.catalog_consumer,
        &mut paced.wallet_consumer,
    ] {
        v.sort();
    }
    Ok(paced)
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    // As in production: the subscriber with its always-on tracer (logs quiet via RUST_LOG).
    let _telemetry = quire_kit::telemetry::init("quire-bench");
    let secs: u64 = env("QUIRE_BENCH_TRADE_SECS", "8").parse()?;
    let (run, warmup) = (
        Duration::from_secs(secs),
        Duration::from_secs(secs.div_ceil(4).min(2)),
    );
    let levels: Vec<usize> = env("QUIRE_BENCH_CLIENTS", "1,8,32")
        .split(',')
        .map(|c| c.trim().parse())
        .collect::<Result<_, _>>()?;
    for c in &levels {
        anyhow::ensure!(
            SELLERS.is_multiple_of(*c),
            "client counts must divide {SELLERS}"
        );
    }
    let latency_trades: usize = env("QUIRE_BENCH_LATENCY_TRADES", "300").parse()?;
    let database_url = env(
        "QUIRE_BENCH_DATABASE_URL",
        &format!("postgres://postgres@127.0.0.1:5432/{DATABASE}"),
    );
    let run_id = format!("{}-{}", std::process::id(), wall_us() / 1_000_000);
    let common = support::common(&database_url, AUTH, 16);
    let brokers = common.kafka_brokers.clone();
    let broker_port = brokers
        .rsplit(':')
        .next()
        .and_then(|p| p.parse().ok())
        .unwrap_or(9092);
    let load_before = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();

    // Fresh schemas; the services' consumer groups start at the topics' end.
    quire_kit::db::ensure_database(&database_url).await?;
    let db = pg(&database_url).await?;
    for schema in [AUTH, CATALOG, WALLET, RAW] {
        db.batch_execute(&format!("DROP SCHEMA IF EXISTS {schema} CASCADE"))
            .await?;
    }
    quire_kit::events::ensure_topics(&brokers, &topics::ALL).await?;
    let wallet_group = format!("wallet-bench-{run_id}");
    let catalog_group = format!("catalog-bench-{run_id}");
    let search_group = format!("catalog-search-bench-{run_id}");
    for (group, topics) in [
        (&wallet_group, &[topics::USER, topics::TRADE][..]),
        (&catalog_group, &[topics::USER, topics::TRADE][..]),
        (&search_group, &[topics::BOOK][..]),
    ] {
        if let Err(e) = support::start_at_end(&brokers, group, topics).await {
            eprintln!("{group} starts at the topics' beginning: {e}");
        }
    }

    let auth_url = support::spawn_auth(&common).await?;
    let in_schema = |schema: &str| CommonConfig {
        db_schema: Some(schema.into()),
        ..common.clone()
    };
    let catalog_url = support::spawn_catalog(
        &in_schema(CATALOG),
        &auth_url,
        &catalog_group,
        &search_group,
    )
    .await?;
    let wallet_url =
        support::spawn_wallet(&in_schema(WALLET), &auth_url, &catalog_url, &wallet_group).await?;
    let base =
        support::spawn_gateway(&auth_url, &catalog_url, &wallet_url, &common.redis_url).await?;
    let http = reqwest::Client::builder()
        .pool_max_idle_per_host(64)
        .timeout(Duration::from_secs(30))
        .build()?;

    // The shop, the sellers' wallets and the buyers: every point its own, plus one for the
    // direct gRPC reference and one for the event latency run.
    let setup = Instant::now();
    let shop = Arc::new(Shop {
        sellers: (0..SELLERS).map(|_| Uuid::new_v4()).collect(),
        books: (0..BOOKS).map(|_| Uuid::new_v4()).collect(),
        hot_seller: Uuid::new_v4(),
        hot_books: (0..HOT_BOOKS).map(|_| Uuid::new_v4()).collect(),
    });
    stock(&db, &shop).await?;
    let mut sellers = shop.sellers.clone();
    sellers.push(shop.hot_seller);
    open_wallets(&db, WALLET, &sellers, 0).await?;
    let (admin, _) = support::login(&http, &base, "bench@quire.local", "bench-password").await?;
    let contended: Vec<usize> = levels.iter().copied().filter(|&c| c > 1).collect();
    let n_buyers = levels.iter().sum::<usize>() + contended.iter().sum::<usize>() + 2;
    let mut all_buyers = buyers(&http, &base, &admin, n_buyers).await?.into_iter();
    quire_kit::db::run_migrations(&database_url, RAW, quire_wallet::db::MIGRATIONS).await?;
    open_wallets(&db, RAW, &sellers, 0).await?;
    let raw_ids: Vec<Uuid> = (0..n_buyers).map(|_| Uuid::now_v7()).collect();
    open_wallets(&db, RAW, &raw_ids, 1_000_000_000_000).await?;
    let mut raw_buyers = raw_ids.into_iter();
    let setup = setup.elapsed();

    let bench = Bench {
        http: http.clone(),
        base: base.clone(),
        database_url: database_url.clone(),
        db,
        shop: shop.clone(),
        warmup,
        run,
        inbox: events::listen(&brokers)?,
        broker_port,
    };
    let mut take = |n: usize| -> (Vec<Arc<Buyer>>, Vec<Uuid>) {
        (
            all_buyers.by_ref().take(n).collect(),
            raw_buyers.by_ref().take(n).collect(),
        )
    };
    let mut uncontended = Vec::new();
    let mut floor_buyers = Vec::new();
    for &clients in &levels {
        let (buyers, raw_buyers) = take(clients);
        if clients == FLOOR_CLIENTS {
            floor_buyers = buyers.clone();
        }
        uncontended.push(bench.gateway(Market::Spread, &buyers).await);
        uncontended.push(bench.raw(Market::Spread, &raw_buyers).await);
    }
    let mut hot = Vec::new();
    for &clients in &contended {
        let (buyers, raw_buyers) = take(clients);
        hot.push(bench.gateway(Market::Hot, &buyers).await);
        hot.push(bench.raw(Market::Hot, &raw_buyers).await);
    }
    let (direct_buyer, _) = take(1);
    let wallet_direct = wallet_direct(&bench, &wallet_url, direct_buyer[0].clone()).await?;
    let catalog_one = catalog_direct(&bench, &catalog_url, admin.clone(), 1)
        .await?
        .stats;
    // What any Quire trade needs beyond the raw transaction, at the floor's client count
    // (buyers of the uncontended point, whose wallets exist).
    let floor = if floor_buyers.is_empty() {
        None
    } else {
        Some(report::Floor {
            clients: FLOOR_CLIENTS,
            catalog: catalog_direct(&bench, &catalog_url, admin.clone(), FLOOR_CLIENTS).await?,
            info_gateway: wallet_info_gateway(&bench, &floor_buyers).await,
            info_direct: wallet_info_direct(&bench, &wallet_url, &floor_buyers).await?,
        })
    };
    let (latency_buyer, _) = take(1);
    // A quiet start: the earlier points' events are all delivered.
    bench.delivery(&Answers::default()).await;
    let paced = paced(&bench, &latency_buyer[0], latency_trades).await?;

    let md = report::render(&Report {
        run,
        warmup,
        levels,
        buyers: n_buyers,
        setup,
        load_before,
        load_after: std::fs::read_to_string("/proc/loadavg").unwrap_or_default(),
        uncontended,
        contended: hot,
        wallet_direct,
        catalog_direct: catalog_one,
        floor,
        paced,
    });
    support::write_report("trades.md", &md)?;
    std::process::exit(0);
}

/// The q quantile of sorted durations in ms (NaN when there are none).
fn ms_at(sorted: &[Duration], q: f64) -> f64 {
    if sorted.is_empty() {
        f64::NAN
    } else {
        percentile(sorted, q).as_secs_f64() * 1e3
    }
}
