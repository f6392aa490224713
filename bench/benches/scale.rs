//! The catalog at scale (issue 35): the journeys a reader opens in the shop (the list, a
//! deep page, the genre filter, a tag filter, search, a book's page) through the gateway
//! at three catalog sizes (100k, 300k and 1M books by default: `QUIRE_SCALE_SIZES`), with
//! catalog's start-up (its search index rebuilt from the table) and the memory it takes.
//! Each size runs in a child process of its own (this binary again, `QUIRE_SCALE_ONE`), so
//! that one size's memory is not another's. The books are generated in SQL, in catalog's
//! own schema, as a bulk import would write them. Writes `bench/scale.md`.
//! Run with `make bench` (Postgres, Redis and the broker up).
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test or bench stops at the first surprise

use std::time::{Duration, Instant};

use quire_catalog::CatalogConfig;
use quire_kit::app::Serve as _;
use quire_kit::config::CommonConfig;
use serde_json::{Value, json};

use support::{load_for, pg, spawn_auth};

mod support;

const WARMUP: Duration = Duration::from_secs(2);
const RUN: Duration = Duration::from_secs(5);

/// What the books' titles, summaries and tags are made of.
const NOUNS: &[&str] = &[
    "lighthouse",
    "river",
    "garden",
    "winter",
    "harbour",
    "mountain",
    "letter",
    "island",
    "forest",
    "kingdom",
    "station",
    "bridge",
    "orchard",
    "library",
    "compass",
    "lantern",
    "meadow",
    "voyage",
    "castle",
    "mirror",
    "desert",
    "village",
    "storm",
    "engine",
    "border",
    "market",
    "signal",
    "shadow",
    "feather",
    "cathedral",
    "valley",
    "machine",
];
const ADJECTIVES: &[&str] = &[
    "silent", "last", "golden", "hidden", "northern", "broken", "quiet", "burning", "distant",
    "secret", "little", "endless", "frozen", "wild", "gentle", "lost",
];
const GENRES: &[&str] = quire_genres::GENRES;

/// One journey: its name and the request it makes (the n-th of a run).
#[derive(Clone, Copy)]
enum Journey {
    ShopFirst,
    ShopDeep,
    ShopKeyset,
    Genre,
    GenreCheapest,
    Tag,
    Search,
    BookPage,
}

impl Journey {
    const ALL: [Journey; 8] = [
        Journey::ShopFirst,
        Journey::ShopDeep,
        Journey::ShopKeyset,
        Journey::Genre,
        Journey::GenreCheapest,
        Journey::Tag,
        Journey::Search,
        Journey::BookPage,
    ];

    fn name(self) -> &'static str {
        match self {
            Journey::ShopFirst => "shop list, newest, page 1",
            Journey::ShopDeep => "shop list, newest, page 500 (offset)",
            Journey::ShopKeyset => "shop list, newest, page 500 (after page 499's cursor)",
            Journey::Genre => "genre filter, page 1",
            Journey::GenreCheapest => "genre filter, cheapest first",
            Journey::Tag => "tag filter (counted to 10 pages ahead)",
            Journey::Search => "search, one word",
            Journey::BookPage => "book page (get_books by id)",
        }
    }
}

/// The figures of one size, as the child prints them (one JSON line).
fn measure_line(size: u64, figures: &Value) -> String {
    format!("SCALE {}", json!({"size": size, "figures": figures}))
}

/// Inserts `n` listed books (one in ten switched off, one in a hundred taken down) into
/// `schema`'s books, in statements of 100,000 rows.
async fn generate(db: &tokio_postgres::Client, schema: &str, n: u64, writer: uuid::Uuid) {
    let nouns: Vec<String> = NOUNS.iter().map(|s| (*s).to_owned()).collect();
    let adjectives: Vec<String> = ADJECTIVES.iter().map(|s| (*s).to_owned()).collect();
    let genres: Vec<String> = GENRES.iter().map(|s| (*s).to_owned()).collect();
    // w.n: nouns, w.a: adjectives, w.gs: genres; book g picks from them by strides.
    let sql = format!(
        "INSERT INTO {schema}.books (id, title, authors, author, price_cents, publish_date, \
           created_time, published_at, updated_at, short_summary, long_summary, tags, genre, \
           assessment_score, upload_writer_id, language, writer_on, taken_down, version) \
         WITH w AS (SELECT $1::text[] AS n, $2::text[] AS a, $3::text[] AS gs) \
         SELECT gen_random_uuid(), \
           'The ' || initcap(w.a[1 + (g * 7) % cardinality(w.a)]) || ' ' \
             || initcap(w.n[1 + (g * 13) % cardinality(w.n)]) || ' ' || g, \
           ARRAY['Author ' || (g % 50000)], 'Author ' || (g % 50000), \
           (g * 37) % 3000, DATE '2000-01-01' + (g % 9000)::int, \
           now() - g * interval '17 seconds', now() - g * interval '17 seconds', now(), \
           'A ' || w.a[1 + (g * 3) % cardinality(w.a)] || ' story of a ' \
             || w.n[1 + (g * 11) % cardinality(w.n)] || ' and a ' \
             || w.n[1 + (g * 29) % cardinality(w.n)] || '.', \
           'Near the ' || w.n[1 + (g * 5) % cardinality(w.n)] || ', a ' \
             || w.a[1 + (g * 19) % cardinality(w.a)] || ' ' \
             || w.n[1 + (g * 23) % cardinality(w.n)] || ' changes everything.', \
           ARRAY[w.n[1 + (g * 31) % cardinality(w.n)], w.n[1 + (g * 37 + 5) % cardinality(w.n)]], \
           w.gs[1 + (g * 41) % cardinality(w.gs)], 50 + (g % 50), $4::text::uuid, 'en', \
           g % 10 <> 0, g % 100 = 7, g \
         FROM w, generate_series($5::int8, $6::int8) AS g"
    );
    let stmt = db.prepare(&sql).await.unwrap();
    let mut from = 1u64;
    while from <= n {
        let to = (from + 99_999).min(n);
        db.execute(
            &stmt,
            &[
                &nouns,
                &adjectives,
                &genres,
                &writer.to_string(),
                &(from as i64),
                &(to as i64),
            ],
        )
        .await
        .unwrap();
        from = to + 1;
    }
    db.batch_execute(&format!("ANALYZE {schema}.books"))
        .await
        .unwrap();
}

/// The process's resident memory, in bytes.
fn rss() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|kb| kb.parse::<u64>().ok())
        })
        .unwrap_or(0)
        * 1024
}

/// One size, in this (child) process: generate, start catalog, measure, print one line.
async fn one_size(n: u64) -> anyhow::Result<()> {
    let database_url = support::database_url();
    let run_id = support::run_id();
    let schema = format!("catalog_scale_{n}");
    let common = support::common(&database_url, "auth_bench_scale", 8);
    let auth_url = spawn_auth(&common).await?;
    let db = pg(&database_url).await?;
    db.batch_execute(&format!("DROP SCHEMA IF EXISTS {schema} CASCADE"))
        .await?;
    let objects = std::env::temp_dir().join(format!("quire-bench-scale-{run_id}"));
    std::fs::create_dir_all(&objects)?;
    let catalog = quire_catalog::Application::build(
        CommonConfig {
            db_schema: Some(schema.clone()),
            ..common.clone()
        },
        CatalogConfig {
            auth_url: auth_url.clone(),
            object_store_url: Some(format!("file://{}", objects.display())),
            search_index_dir: None,
            search_group: Some(format!("catalog-search-scale-{run_id}")),
            events_group: format!("catalog-scale-{run_id}"),
            ..CatalogConfig::default()
        },
    )
    .await?;
    let catalog_url = format!("http://127.0.0.1:{}", catalog.grpc_port());
    let base = support::spawn_gateway(
        &auth_url,
        &catalog_url,
        "http://127.0.0.1:1",
        &common.redis_url,
    )
    .await?;
    let http = reqwest::Client::builder()
        .pool_max_idle_per_host(16)
        .timeout(Duration::from_secs(60))
        .build()?;
    let (_, writer) = support::login(&http, &base, "bench@quire.local", "bench-password").await?;

    let started = Instant::now();
    generate(&db, &schema, n, writer).await;
    let generated = started.elapsed();
    let listed: i64 = db
        .query_one(
            &format!("SELECT count(*) FROM {schema}.books WHERE writer_on AND NOT taken_down"),
            &[],
        )
        .await?
        .get(0);
    // What each page counted before the kept totals: every listed book.
    let mut counts = Vec::new();
    for _ in 0..5 {
        let t = Instant::now();
        db.query_one(
            &format!("SELECT count(*) FROM {schema}.books WHERE writer_on AND NOT taken_down"),
            &[],
        )
        .await?;
        counts.push(t.elapsed());
    }
    counts.sort();
    let sample: Vec<String> = db
        .query(
            &format!(
                "SELECT id::text FROM {schema}.books WHERE writer_on AND NOT taken_down \
                 ORDER BY id LIMIT 500"
            ),
            &[],
        )
        .await?
        .iter()
        .map(|r| r.get(0))
        .collect();

    // Catalog's start: it rebuilds its search index from the table, then serves.
    let rss_before = rss();
    let started = Instant::now();
    tokio::spawn(catalog.run_until(std::future::pending()));
    let search_url = format!("{base}/api/search");
    loop {
        if let Ok(r) = http
            .post(&search_url)
            .json(&json!({"query": "", "page_size": 1}))
            .send()
            .await
            && r.status().is_success()
        {
            let body: Value = r.json().await?;
            if body["data"]["total"].as_i64().unwrap_or(0) >= listed {
                break;
            }
        }
        assert!(
            started.elapsed() < Duration::from_secs(1800),
            "catalog never served"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let start_up = started.elapsed();
    let rss_after = rss();

    let shop_url = format!("{base}/api/get_all_books/");
    let book_url = format!("{base}/api/get_books");
    // The cursor a reader paging on from page 499 holds.
    let page_499: Value = http
        .post(&shop_url)
        .form(&[("page", "499"), ("page_size", "20")])
        .send()
        .await?
        .json()
        .await?;
    let cursor = page_499["data"]["next_after"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    let mut figures = serde_json::Map::new();
    for journey in Journey::ALL {
        let (http, shop_url, search_url, book_url, sample, cursor) = (
            http.clone(),
            shop_url.clone(),
            search_url.clone(),
            book_url.clone(),
            sample.clone(),
            cursor.clone(),
        );
        let stats = load_for(1, WARMUP, RUN, move |_, i| {
            let (http, shop_url, search_url, book_url) = (
                http.clone(),
                shop_url.clone(),
                search_url.clone(),
                book_url.clone(),
            );
            let genre = GENRES[i % GENRES.len()];
            let noun = NOUNS[(i * 7) % NOUNS.len()];
            let id = sample[i % sample.len()].clone();
            let cursor = cursor.clone();
            async move {
                let r = match journey {
                    Journey::ShopFirst => http
                        .post(&shop_url)
                        .form(&[("page", "1"), ("page_size", "20")]),
                    Journey::ShopDeep => http
                        .post(&shop_url)
                        .form(&[("page", "500"), ("page_size", "20")]),
                    Journey::ShopKeyset => http.post(&shop_url).form(&[
                        ("page", "500"),
                        ("page_size", "20"),
                        ("after", cursor.as_str()),
                    ]),
                    Journey::Genre => http.post(&shop_url).form(&[
                        ("genre", genre),
                        ("page", "1"),
                        ("page_size", "20"),
                    ]),
                    Journey::GenreCheapest => http.post(&shop_url).form(&[
                        ("genre", genre),
                        ("sort", "price_asc"),
                        ("page", "1"),
                        ("page_size", "20"),
                    ]),
                    Journey::Tag => http.post(&shop_url).form(&[
                        ("tags", noun),
                        ("page", "1"),
                        ("page_size", "20"),
                    ]),
                    Journey::Search => http
                        .post(&search_url)
                        .json(&json!({"query": noun, "page": 1, "page_size": 10})),
                    Journey::BookPage => http.get(&book_url).query(&[("book_id", id)]),
                }
                .send()
                .await
                .unwrap();
                let status = r.status();
                let body: Value = r.json().await.unwrap();
                assert!(status.is_success(), "{}: {status} {body}", journey.name());
            }
        })
        .await;
        figures.insert(
            journey.name().to_owned(),
            json!({"p50_us": stats.p50_us, "p99_us": stats.p99_us, "count": stats.count}),
        );
    }
    let figures = json!({
        "journeys": figures,
        "listed": listed,
        "generated_s": generated.as_secs_f64(),
        "count_all_p50_ms": support::percentile(&counts, 0.5).as_secs_f64() * 1e3,
        "start_up_s": start_up.as_secs_f64(),
        "index_rss_bytes": rss_after.saturating_sub(rss_before),
    });
    println!("{}", measure_line(n, &figures));
    db.batch_execute(&format!("DROP SCHEMA IF EXISTS {schema} CASCADE"))
        .await?;
    std::fs::remove_dir_all(&objects).ok();
    Ok(())
}

/// Runs one size in a child process; its figures.
fn child(size: u64) -> anyhow::Result<Value> {
    let out = std::process::Command::new(std::env::current_exe()?)
        .args(std::env::args().skip(1))
        .env("QUIRE_SCALE_ONE", size.to_string())
        .stderr(std::process::Stdio::inherit())
        .output()?;
    anyhow::ensure!(out.status.success(), "size {size}: {}", out.status);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let line = stdout
        .lines()
        .find_map(|l| l.strip_prefix("SCALE "))
        .ok_or_else(|| anyhow::anyhow!("size {size} printed no figures"))?;
    Ok(serde_json::from_str::<Value>(line)?["figures"].clone())
}

/// The exponent b of p = a * n^b fitted (least squares, log-log) over the sizes.
fn growth(points: &[(f64, f64)]) -> f64 {
    let logs: Vec<(f64, f64)> = points
        .iter()
        .filter(|(n, p)| *n > 0.0 && *p > 0.0)
        .map(|(n, p)| (n.ln(), p.ln()))
        .collect();
    let k = logs.len() as f64;
    let (sx, sy) = logs
        .iter()
        .fold((0.0, 0.0), |(a, b), (x, y)| (a + x, b + y));
    let (mx, my) = (sx / k, sy / k);
    let (num, den) = logs.iter().fold((0.0, 0.0), |(a, b), (x, y)| {
        (a + (x - mx) * (y - my), b + (x - mx) * (x - mx))
    });
    if den == 0.0 { 0.0 } else { num / den }
}

fn ms(us: f64) -> String {
    if us >= 10_000.0 {
        format!("{:.0}", us / 1e3)
    } else {
        format!("{:.1}", us / 1e3)
    }
}

fn report(sizes: &[u64], all: &[Value]) -> String {
    let n_of = |s: u64| {
        if s >= 1_000_000 && s.is_multiple_of(1_000_000) {
            format!("{}M", s / 1_000_000)
        } else {
            format!("{}k", s / 1000)
        }
    };
    let mut md = String::from(
        "# Scale: the catalog's journeys at three sizes (issue 35)\n\n\
         Command: `make bench` (`RUST_LOG=error cargo bench -p quire-bench --bench scale`; \
         sizes in `QUIRE_SCALE_SIZES`, each size in a process of its own). Books generated \
         in SQL in catalog's schema (9 in 10 listed, 1 in 100 taken down, 18 genres, 32 \
         tag words); one client through the gateway (REST -> gRPC -> catalog -> Postgres), \
         2 s warm-up and 5 s measured per journey; p50 / p99 in ms.\n",
    );
    md.push_str(&format!("Machine: {}; Postgres, Redis, the broker, auth, catalog, the gateway and the load generator all share it.\n\n", support::machine()));
    md.push_str("| journey |");
    for s in sizes {
        md.push_str(&format!(" {} p50 | {} p99 |", n_of(*s), n_of(*s)));
    }
    md.push_str(" p99 growth (n^b) | largest / smallest p99 |\n|---|");
    for _ in sizes {
        md.push_str("---|---|");
    }
    md.push_str("---|---|\n");
    for journey in Journey::ALL {
        let name = journey.name();
        md.push_str(&format!("| {name} |"));
        let mut points = Vec::new();
        for (s, f) in sizes.iter().zip(all) {
            let j = &f["journeys"][name];
            let (p50, p99) = (
                j["p50_us"].as_f64().unwrap_or(0.0),
                j["p99_us"].as_f64().unwrap_or(0.0),
            );
            points.push((*s as f64, p99));
            md.push_str(&format!(" {} | {} |", ms(p50), ms(p99)));
        }
        let ratio = points.last().map_or(0.0, |l| l.1) / points.first().map_or(1.0, |f| f.1);
        md.push_str(&format!(
            " {:.2} | {:.2} ({}) |\n",
            growth(&points),
            ratio,
            if ratio <= 2.0 {
                "within 2x: met"
            } else {
                "over 2x: missed"
            }
        ));
    }
    md.push_str("\n## Start-up and memory\n\n| size | listed | generated in SQL (s) | catalog ready (index rebuilt from the table, s) | memory the index took (MB) | bytes per book | `count(*)` of listed books, direct (ms) |\n|---|---|---|---|---|---|---|\n");
    let mut starts = Vec::new();
    for (s, f) in sizes.iter().zip(all) {
        let rss = f["index_rss_bytes"].as_f64().unwrap_or(0.0);
        let start = f["start_up_s"].as_f64().unwrap_or(0.0);
        starts.push((*s as f64, start));
        md.push_str(&format!(
            "| {} | {} | {:.1} | {:.1} | {:.0} | {:.0} | {:.1} |\n",
            n_of(*s),
            f["listed"],
            f["generated_s"].as_f64().unwrap_or(0.0),
            start,
            rss / 1e6,
            rss / *s as f64,
            f["count_all_p50_ms"].as_f64().unwrap_or(0.0),
        ));
    }
    let b = growth(&starts);
    let (n_last, s_last) = starts.last().copied().unwrap_or((1.0, 0.0));
    md.push_str(&format!(
        "\nCatalog's start-up grows as n^{b:.2}; extrapolated to 10M books: about {:.0} s \
         (from the largest size measured).\n",
        s_last * (1e7 / n_last).powf(b)
    ));
    md.push_str(
        "\n## Notes\n\n\
         - The shop's totals: unfiltered and by genre they are kept (`listed_totals`, kept \
           by a statement trigger in catalog's schema), so a page reads one row instead of \
           counting; the last column above is the count each page made before. Other \
           filters (tags, author, price) count their matches only up to ten pages ahead \
           and answer `total_exact: false` past that.\n\
         - The genre filter is an equality on `lower(genre)` served by a partial index of \
           the listed books in newest order (it was an `ILIKE` no index served).\n\
         - Page 500 by offset skips 9,980 rows: such a page costs what it skips. By cursor \
           (`after` = page 499's `next_after`, keyset paging) it starts at its first row \
           through the sort's index, as page 1 does.\n\
         - Memory is the bench process's resident set after catalog's index was built less \
           before; the index lives in RAM (`search_index_dir` unset, as in the other \
           benches).\n\
         - Not measured here yet (issue 35 open): Quinn's turn, an upload's duplicate \
           check, writer analytics and the admin dashboard at these sizes; 10M books and \
           10M users; catalog and chat starting from a snapshot.\n",
    );
    md
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let _telemetry = quire_kit::telemetry::init("quire-bench");
    if let Ok(one) = std::env::var("QUIRE_SCALE_ONE") {
        return one_size(one.parse()?).await;
    }
    let sizes: Vec<u64> = std::env::var("QUIRE_SCALE_SIZES")
        .unwrap_or_else(|_| "100000,300000,1000000".into())
        .split(',')
        .map(|s| s.trim().parse())
        .collect::<Result<_, _>>()?;
    let mut all = Vec::new();
    for size in &sizes {
        eprintln!("scale: {size} books");
        all.push(child(*size)?);
    }
    support::write_report("scale.md", &report(&sizes, &all))
}
