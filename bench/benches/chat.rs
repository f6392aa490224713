//! Quinn, the book assistant, against plain catalog search: a shop of 10,000 generated
//! books (`QUIRE_BENCH_CHAT_BOOKS` to change) in the catalog's table (its search index is
//! built from it) and told to the chat service as `quire.book.published.v1` events on
//! Kafka, as catalog tells it in production. Measured through the gateway, at 1 and 8
//! concurrent readers: a reader's turn as the web app makes it (`POST /api/chat`, then
//! `POST /api/recbooks` with the query Quinn gave) against `POST /api/search` of the same
//! words; how long the chat service takes to index and embed the shop; and precision@5 of
//! both over the labelled demo-shop requests (`services/chat/data/requests.jsonl`) in a
//! shop of the demo books. Writes `bench/chat.md`. Run with `make bench` (Postgres, Redis
//! and the broker up; bench.sh builds the release `quire-chat` and fetches the model).
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test or bench stops at the first surprise

use quire_kit::app::Serve as _;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use quire_catalog::CatalogConfig;
use quire_kit::config::CommonConfig;
use quire_kit::events::topics;

use requests::{Precision, Reader, Request};
use service::{ChatProcess, IndexState};
use shop::ShopBook;
use support::{RUN, Stats, WARMUP, load_passes, pg, spawn_auth};

// The bench's own parts, beside it (a bench's root file looks for modules in benches/).
#[path = "chat/requests.rs"]
mod requests;
#[path = "chat/service.rs"]
mod service;
#[path = "chat/shop.rs"]
mod shop;
mod support;

const SEED: u64 = 20_261_125;
const DEMO_SEED: u64 = 20_261_126;
const AUTH: &str = "auth_bench_chat";
/// Books shown per answer, on both sides.
const LIMIT: u32 = 5;

fn env(key: &str, default: &str) -> String {
    std::env::var(key).unwrap_or_else(|_| default.to_owned())
}

/// One shop under test: its catalog (in this process), its chat service (a process of its
/// own) and a gateway in front of both, with a reader signed in.
struct Stand {
    reader: Reader,
    chat: ChatProcess,
    stop_catalog: tokio::sync::oneshot::Sender<()>,
    /// From starting the catalog to a search through the gateway seeing every book.
    catalog_start: Duration,
    /// From the first event sent to the chat service holding every book, then every vector.
    chat_books: Duration,
    chat_vectors: Option<Duration>,
    /// Sending the events (acknowledged by the broker).
    publish: Duration,
    /// CPU the chat service used from its start to the index being complete.
    chat_index_cpu: Duration,
    index: Option<IndexState>,
}

struct Env {
    common: CommonConfig,
    auth_url: String,
    run_id: String,
    chat_bin: std::path::PathBuf,
    model_dir: Option<std::path::PathBuf>,
    http: reqwest::Client,
    log_dir: std::path::PathBuf,
}

/// Waits until the catalog's search through the gateway counts `n` books.
async fn wait_search(reader: &Reader, n: u64) -> anyhow::Result<()> {
    let started = Instant::now();
    loop {
        let r = reader
            .http
            .post(format!("{}/api/search", reader.base))
            .json(&serde_json::json!({"query": "", "page": 1, "page_size": 1}))
            .send()
            .await;
        if let Ok(r) = r
            && r.status().is_success()
        {
            let body: serde_json::Value = r.json().await?;
            if body["data"]["total"].as_u64().unwrap_or(0) >= n {
                return Ok(());
            }
        }
        anyhow::ensure!(
            started.elapsed() < Duration::from_secs(600),
            "the catalog never served {n} books"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Waits until the chat service holds every book and every vector, as its `/metrics`
/// tell; without the model (no vectors, no counts after the start), until a
/// recommendation for the title of each of 20 books spread over the shop names that book.
/// Answers the times from `since` to every book and to every vector, and the last counts.
async fn wait_chat(
    stand_chat: &ChatProcess,
    reader: &Reader,
    books: &[ShopBook],
    since: Instant,
    run: &str,
) -> anyhow::Result<(Duration, Option<Duration>, Option<IndexState>)> {
    let n = books.len() as u64;
    let limit = Duration::from_secs(env("QUIRE_BENCH_CHAT_INDEX_SECS", "1800").parse()?);
    let mut books_at = None;
    let mut last = None;
    let mut probe = 0usize;
    loop {
        match stand_chat.index_state(&reader.http).await? {
            // Not set yet: the embedder sets them after its first batch.
            None => {}
            Some(s) if s.semantic => {
                last = Some(s);
                if s.books >= n && books_at.is_none() {
                    books_at = Some(since.elapsed());
                }
                if let Some(at) = books_at
                    && s.vectors >= n
                {
                    return Ok((at, Some(since.elapsed()), last));
                }
            }
            Some(_) => {
                // No model, no counts: every sampled title must come back first.
                let step = (books.len() / 20).max(1);
                let mut all = true;
                for b in books.iter().step_by(step) {
                    probe += 1;
                    let conversation = format!("w{run}-{probe}");
                    let shown = reader.recommend(&conversation, &b.title, 20).await?;
                    if !shown.contains(&b.title) {
                        all = false;
                        break;
                    }
                }
                if all {
                    return Ok((since.elapsed(), None, None));
                }
            }
        }
        anyhow::ensure!(
            since.elapsed() < limit,
            "the chat service did not index {n} books within {limit:?} (last counts: {last:?}; \
             QUIRE_BENCH_CHAT_INDEX_SECS raises the limit)"
        );
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
}

/// Builds a stand for `books` in schemas named after `name`.
async fn stand(e: &Env, name: &str, books: &[ShopBook]) -> anyhow::Result<Stand> {
    let catalog_schema = format!("catalog_bench_{name}");
    let chat_schema = format!("chat_bench_{name}");
    let db = pg(&e.common.database_url).await?;
    db.batch_execute(&format!(
        "DROP SCHEMA IF EXISTS {catalog_schema} CASCADE; DROP SCHEMA IF EXISTS {chat_schema} CASCADE"
    ))
    .await?;
    let brokers = e.common.kafka_brokers.clone();
    // This run's groups, moved to the topics' end: each side sees this stand's books only.
    let search_group = format!("catalog-search-bench-{name}-{}", e.run_id);
    let events_group = format!("catalog-bench-{name}-{}", e.run_id);
    let chat_group = format!("chat-bench-{name}-{}", e.run_id);
    support::start_at_end(&brokers, &search_group, &[topics::BOOK]).await?;
    support::start_at_end(&brokers, &events_group, &[topics::TRADE, topics::USER]).await?;
    support::start_at_end(&brokers, &chat_group, &[topics::BOOK, topics::TRADE]).await?;

    let objects = std::env::temp_dir().join(format!("quire-bench-objects-{name}-{}", e.run_id));
    std::fs::create_dir_all(&objects)?;
    let catalog = quire_catalog::Application::build(
        CommonConfig {
            db_schema: Some(catalog_schema.clone()),
            ..e.common.clone()
        },
        CatalogConfig {
            auth_url: e.auth_url.clone(),
            object_store_url: Some(format!("file://{}", objects.display())),
            search_index_dir: None,
            search_group: Some(search_group),
            events_group,
            ..CatalogConfig::default()
        },
    )
    .await?;
    let catalog_url = format!("http://127.0.0.1:{}", catalog.grpc_port());
    let ports = service::Ports::pick()?;

    let gateway = quire_gateway::Application::build(quire_gateway::GatewayConfig {
        http_host: "127.0.0.1".into(),
        http_port: 0,
        auth_url: e.auth_url.clone(),
        catalog_url: catalog_url.clone(),
        chat_url: ports.grpc_url(),
        // Neither side needs the wallet or manuscript.
        wallet_url: "http://127.0.0.1:1".into(),
        manuscript_url: "http://127.0.0.1:1".into(),
        redis_url: e.common.redis_url.clone(),
        frontend_dir: "frontend/dist".into(),
        // Every request of the bench comes from one address and one user.
        rate_login_per_min: u32::MAX,
        rate_api_per_min: u32::MAX,
        rate_chat_per_min: u32::MAX,
        rate_anonymous_per_min: u32::MAX,
        admin_addr: "127.0.0.1:0".into(),
        http_workers: 2,
        ..Default::default()
    })
    .await?;
    let base = format!("http://127.0.0.1:{}", gateway.port());
    tokio::spawn(gateway.run_until_stopped());
    let (token, writer) =
        support::login(&e.http, &base, "bench@quire.local", "bench-password").await?;
    let reader = Reader {
        http: e.http.clone(),
        base,
        token,
        uid: writer.to_string(),
    };

    // The books: rows first (the catalog builds its index from them when it starts), then
    // the chat service, then the events it indexes.
    shop::insert(&db, &catalog_schema, books, writer).await?;
    let (stop_catalog, stopped) = tokio::sync::oneshot::channel::<()>();
    let started = Instant::now();
    tokio::spawn(catalog.run_until(async move {
        let _ = stopped.await;
    }));
    wait_search(&reader, books.len() as u64).await?;
    let catalog_start = started.elapsed();

    let chat = ChatProcess::start(
        &service::Settings {
            bin: e.chat_bin.clone(),
            database_url: e.common.database_url.clone(),
            schema: chat_schema,
            brokers: brokers.clone(),
            group: chat_group,
            auth_url: e.auth_url.clone(),
            catalog_url,
            model_dir: e.model_dir.clone(),
            log: e.log_dir.join(format!("chat-{name}.log")),
        },
        ports,
        &e.http,
        Duration::from_secs(180),
    )
    .await?;

    let cpu_before = chat.cpu();
    let since = Instant::now();
    shop::publish(&brokers, books, writer).await?;
    let publish = since.elapsed();
    let (chat_books, chat_vectors, index) = wait_chat(
        &chat,
        &reader,
        books,
        since,
        &format!("{name}-{}", e.run_id),
    )
    .await?;
    let chat_index_cpu = chat.cpu().saturating_sub(cpu_before);
    Ok(Stand {
        reader,
        chat,
        stop_catalog,
        catalog_start,
        chat_books,
        chat_vectors,
        publish,
        chat_index_cpu,
        index,
    })
}

/// One point of the load: `clients` readers going through the labelled turns, each from
/// its own starting request, as the web app makes them (Quinn) or as searches (plain).
async fn point(reader: &Reader, set: &[Request], clients: usize, quinn: bool, run: &str) -> Stats {
    let flat = Arc::new(requests::flattened(set));
    // Where each client starts: the first turn of request c * len / clients.
    let starts: Arc<Vec<usize>> = Arc::new(
        (0..clients)
            .map(|c| {
                let r = c * set.len() / clients;
                flat.iter().position(|(req, _, _)| *req == r).unwrap_or(0)
            })
            .collect(),
    );
    let conversations: Arc<Vec<Mutex<String>>> =
        Arc::new((0..clients).map(|_| Mutex::new(String::new())).collect());
    let counter = Arc::new(AtomicUsize::new(0));
    let each = flat.len().div_ceil(clients);
    let (reader, run) = (reader.clone(), run.to_owned());
    load_passes(clients, WARMUP, RUN, each, move |client, n| {
        let (reader, flat, starts) = (reader.clone(), flat.clone(), starts.clone());
        let (conversations, counter, run) = (conversations.clone(), counter.clone(), run.clone());
        async move {
            let (_, turn, words) = &flat[(starts[client] + n) % flat.len()];
            if quinn {
                let conversation = {
                    let mut c = conversations[client].lock().unwrap();
                    if *turn == 0 || c.is_empty() {
                        *c = format!("l{run}-{}", counter.fetch_add(1, Ordering::Relaxed));
                    }
                    c.clone()
                };
                reader.turn(&conversation, words, LIMIT).await.unwrap();
            } else {
                reader.search(words, LIMIT).await.unwrap();
            }
        }
    })
    .await
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let _telemetry = quire_kit::telemetry::init("quire-bench");
    let n_books: u64 = env("QUIRE_BENCH_CHAT_BOOKS", "10000").parse()?;
    let database_url = env(
        "QUIRE_BENCH_DATABASE_URL",
        "postgres://postgres@127.0.0.1:5432/quire_bench",
    );
    let run_id = format!(
        "{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)?
            .as_secs()
    );
    let common = support::common(&database_url, AUTH, 16);
    let model_dir = std::env::var_os("QUIRE_EMBED_MODEL_DIR")
        .filter(|d| !d.is_empty())
        .map(std::path::PathBuf::from);
    let log_dir = std::env::temp_dir().join(format!("quire-bench-chat-{run_id}"));
    std::fs::create_dir_all(&log_dir)?;
    let e = Env {
        auth_url: spawn_auth(&common).await?,
        common,
        run_id: run_id.clone(),
        chat_bin: service::binary()?,
        model_dir,
        http: reqwest::Client::builder()
            .pool_max_idle_per_host(64)
            .timeout(Duration::from_secs(60))
            .build()?,
        log_dir,
    };
    let set = requests::labelled()?;

    // Precision@5 in a shop of the demo books, whose titles the labels name.
    eprintln!("chat bench: the demo shop, precision@5");
    let demo_books = shop::demo(DEMO_SEED)?;
    let demo = stand(&e, "chat_demo", &demo_books).await?;
    let p_chat = requests::precision_chat(&demo.reader, &set, &run_id).await?;
    let p_search = requests::precision_search(&demo.reader, &set).await?;
    let demo_index = (demo.chat_books, demo.chat_vectors);
    demo.chat.stop().await?;
    let _ = demo.stop_catalog.send(());

    // Latency and throughput in a shop of generated books.
    eprintln!("chat bench: {n_books} generated books");
    let started = Instant::now();
    let books = shop::synthetic(SEED, n_books);
    let generated = started.elapsed();
    let big = stand(&e, "chat", &books).await?;
    let mut rows = Vec::new();
    for clients in [1usize, 8] {
        eprintln!("chat bench: Quinn, {clients} reader(s)");
        let cpu = big.chat.cpu();
        let quinn = point(
            &big.reader,
            &set,
            clients,
            true,
            &format!("{run_id}-{clients}"),
        )
        .await;
        let chat_cpu = big.chat.cpu().saturating_sub(cpu);
        eprintln!("chat bench: plain search, {clients} reader(s)");
        let search = point(&big.reader, &set, clients, false, &run_id).await;
        rows.push((clients, quinn, chat_cpu, search));
    }

    let md = report(&Report {
        n_books,
        generated,
        set: &set,
        big: &big,
        demo_books: demo_books.len(),
        demo_index,
        rows: &rows,
        p_chat: &p_chat,
        p_search: &p_search,
        model: big.chat_vectors.is_some(),
        chat_bin: &e.chat_bin,
    });
    support::write_report("chat.md", &md)?;
    big.chat.stop().await?;
    let _ = big.stop_catalog.send(());
    std::process::exit(0);
}

struct Report<'a> {
    n_books: u64,
    generated: Duration,
    set: &'a [Request],
    big: &'a Stand,
    demo_books: usize,
    demo_index: (Duration, Option<Duration>),
    rows: &'a [(usize, Stats, Duration, Stats)],
    p_chat: &'a Precision,
    p_search: &'a Precision,
    model: bool,
    chat_bin: &'a std::path::Path,
}

fn report(r: &Report) -> String {
    let machine = support::machine();
    let turns: usize = r.set.iter().map(|q| q.turns.len()).sum();
    let ms = |us: f64| us / 1e3;
    let secs = |d: Duration| d.as_secs_f64();
    let mut md = format!(
        "# Quinn (POST /api/chat + /api/recbooks) vs plain search (POST /api/search)\n\n\
         Command: `make bench` (`RUST_LOG=error cargo bench -p quire-bench --bench chat`, the \
         release `quire-chat` run as its own process), {} generated books \
         (`QUIRE_BENCH_CHAT_BOOKS`), {}s per point after {}s warm-up. Each reader goes through \
         the {} turns of the {} labelled requests of `services/chat/data/requests.jsonl` in \
         order, from its own starting request; a Quinn turn is what the web app does for it \
         (`POST /api/chat`, then `POST /api/recbooks` with the query Quinn gave, 5 books; a new \
         conversation at each request's first turn), a search turn is `POST /api/search` of the \
         same words (5 hits). Model: {}. Built: {}; the chat service: `{}`.\n\
         Machine: {machine}; Postgres, Redis, the broker, auth, catalog, chat, the gateway and \
         the load generator all share it.\n\n\
         | readers | side | turns/s | p50 (ms) | p99 (ms) | chat CPU per turn (ms) |\n\
         |---|---|---|---|---|---|\n",
        r.n_books,
        RUN.as_secs(),
        WARMUP.as_secs(),
        turns,
        r.set.len(),
        if r.model {
            "all-minilm-l6-v2 (`deploy/local/fetch-model.sh`), every book's vector computed before the points"
        } else {
            "NONE: the service found no model (QUIRE_EMBED_MODEL_DIR) and ranked by words alone"
        },
        if cfg!(debug_assertions) {
            "this bench in the dev profile (unoptimised; `make bench` builds it in release)"
        } else {
            "release (`cargo bench`)"
        },
        r.chat_bin.display(),
    );
    let mut verdicts = String::new();
    for (clients, quinn, chat_cpu, search) in r.rows {
        md.push_str(&format!(
            "| {clients} | Quinn: chat turn + recbooks | {:.0} | {:.1} | {:.1} | {:.2} |\n\
             | {clients} | plain search | {:.0} | {:.1} | {:.1} | |\n",
            quinn.per_sec,
            ms(quinn.p50_us),
            ms(quinn.p99_us),
            chat_cpu.as_secs_f64() * 1e3 / quinn.all.max(1) as f64,
            search.per_sec,
            ms(search.p50_us),
            ms(search.p99_us),
        ));
        if *clients == 8 {
            verdicts.push_str(&format!(
                "- 8 readers: Quinn p99 {:.1} ms (target < 100 ms: {}).\n",
                ms(quinn.p99_us),
                if quinn.p99_us < 100_000.0 {
                    "met"
                } else {
                    "NOT met"
                }
            ));
        }
    }
    let ratio = if r.p_search.mean > 0.0 {
        r.p_chat.mean / r.p_search.mean
    } else {
        f64::INFINITY
    };
    verdicts.push_str(&format!(
        "- precision@5: Quinn {:.3}, plain search {:.3}: {:.2}x (target >= 1.5x: {}).\n",
        r.p_chat.mean,
        r.p_search.mean,
        ratio,
        if ratio >= 1.5 { "met" } else { "NOT met" }
    ));
    md.push('\n');
    md.push_str(&verdicts);

    md.push_str(&format!(
        "\n## Precision@5 over the labelled requests\n\n\
         A shop of the {} demo books (`deploy/demo`: their titles, authors, summaries, genres, \
         tags and prices, in catalog's table and as events to chat; no book files). Quinn: each \
         request in a conversation of its own, every turn as the web app makes it; the answer is \
         the last turn's books (a later turn never repeats a book the conversation showed). \
         Plain search: all the request's turns as one query. Precision@5 = relevant titles \
         among the first five / 5, averaged over the {} requests.\n\n\
         | side | precision@5 | requests with a relevant book in the top 5 | requests answered with no book |\n\
         |---|---|---|---|\n\
         | Quinn | {:.3} | {} | {} |\n\
         | plain search | {:.3} | {} | {} |\n\n\
         The chat service held the demo shop {:.1} s after the first event{}.\n",
        r.demo_books,
        r.p_chat.requests,
        r.p_chat.mean,
        r.p_chat.hit,
        r.p_chat.empty,
        r.p_search.mean,
        r.p_search.hit,
        r.p_search.empty,
        secs(r.demo_index.0),
        r.demo_index
            .1
            .map(|v| format!(", every vector {:.1} s after it", secs(v)))
            .unwrap_or_default(),
    ));
    let worst: Vec<String> = r
        .p_chat
        .each
        .iter()
        .zip(&r.p_search.each)
        .filter(|(c, s)| c.1 < s.1 || c.1 == 0.0)
        .map(|(c, s)| format!("`{}` (Quinn {:.1}, search {:.1})", c.0, c.1, s.1))
        .collect();
    if !worst.is_empty() {
        md.push_str(&format!(
            "Requests where Quinn found nothing relevant or did worse than search: {}.\n",
            worst.join(", ")
        ));
    }

    let b = r.big;
    let n = r.n_books as f64;
    md.push_str(&format!(
        "\n## Indexing {} books\n\n\
         - Generating them (quire-demo's synthetic records: one-sentence summaries) {:.1} s; \
           catalog cold start (rows to its search index, first search seeing them all) {:.1} s.\n\
         - Sending the {} `quire.book.published.v1` events (acknowledged): {:.1} s.\n\
         - The chat service holding every book: {:.1} s after the first event{}; its CPU \
           meanwhile {:.1} s ({:.2} ms per book).\n\
         - The service's last `/metrics` counts (`quire_chat_books`, `quire_chat_book_vectors`): {}.\n",
        r.n_books,
        secs(r.generated),
        secs(b.catalog_start),
        r.n_books,
        secs(b.publish),
        secs(b.chat_books),
        b.chat_vectors
            .map(|v| format!(", every summary embedded {:.1} s after it ({:.0} books/s)", secs(v), n / secs(v)))
            .unwrap_or_else(|| ", vectors not reported".into()),
        secs(b.chat_index_cpu),
        b.chat_index_cpu.as_secs_f64() * 1e3 / n,
        b.index
            .map(|s| format!("{} books, {} vectors", s.books, s.vectors))
            .unwrap_or_else(|| "none without the model (waited for 20 sampled titles instead)".into()),
    ));
    md.push_str(
        "\n## What bounds it\n\n\
         - A Quinn turn is two REST calls, two gRPC calls and the chat service's work: \
           understanding the words, embedding the query (one MiniLM pass over a few words), \
           ranking the shop (words and vectors), storing both messages of the turn in Postgres \
           and reading the books' rows through catalog. Plain search is one call to catalog's \
           tantivy index and a read of the hits' rows.\n\
         - Everything shares the machine's cores: at 8 readers the turn's CPU (the chat \
           process's share is in the table) is what limits turns/s.\n",
    );
    md
}
