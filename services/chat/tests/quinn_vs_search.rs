//! Quinn against plain search, over the real demo shop: auth, catalog and the chat service
//! start on fresh schemas, the demo loader puts its books in through the APIs (as `make
//! run` does), and every request of the labelled set `data/requests.jsonl` goes both ways:
//! through Quinn (each turn a `Chat`, then `RecommendBooks` of the query it gives) and
//! through catalog's plain `Search` of the same words (every turn's words together). The
//! precision at 5 of each (relevant books among the first five, over five) is printed per
//! request and in all, and Quinn must beat plain search by half again (the bar).
//! With the embedding model present (`make test` fetches it) the books' vectors are
//! waited for first, so the figure is Quinn's as it runs in production.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::HashSet;
use std::path::Path;
use std::time::Duration;

use quire_demo::catalog::{SourceDirs, books};
use quire_demo::loader::{LoadConfig, READER, load};
use quire_proto::auth::v1::auth_service_client::AuthServiceClient;
use quire_proto::catalog::v1 as catalog_pb;
use quire_proto::catalog::v1::catalog_service_client::CatalogServiceClient;
use quire_proto::chat::v1 as pb;
use quire_proto::chat::v1::chat_service_client::ChatServiceClient;
use quire_test_stack::{
    ADMIN_PASSWORD, TestEnv, User, channel, eventually, login, req, start_auth, start_catalog,
    start_chat,
};
use serde::Deserialize;
use tonic::transport::Channel;

/// One labelled request: what the reader says, turn by turn, and the demo books (by
/// title) that answer it.
#[derive(Deserialize)]
struct Labelled {
    id: String,
    turns: Vec<String>,
    relevant: Vec<String>,
}

fn labelled() -> Vec<Labelled> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/requests.jsonl");
    std::fs::read_to_string(&path)
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect()
}

const K: usize = 5;

fn precision(titles: &[String], relevant: &HashSet<&str>) -> f64 {
    let hits = titles
        .iter()
        .take(K)
        .filter(|t| relevant.contains(t.as_str()))
        .count();
    hits as f64 / K as f64
}

async fn quinn(
    chat: &mut ChatServiceClient<Channel>,
    reader: &User,
    case: &Labelled,
) -> Vec<String> {
    let conversation_id = format!("precision-{}", case.id);
    let mut shown = Vec::new();
    for turn in &case.turns {
        let reply = chat
            .chat(req(
                pb::ChatRequest {
                    uid: reader.id.clone(),
                    conversation_id: conversation_id.clone(),
                    current_input: turn.clone(),
                },
                Some(reader),
            ))
            .await
            .unwrap()
            .into_inner();
        let Some(query) = reply.query else {
            continue;
        };
        shown = chat
            .recommend_books(req(
                pb::RecommendBooksRequest {
                    uid: reader.id.clone(),
                    conversation_id: conversation_id.clone(),
                    query,
                    limit: K as u32,
                },
                Some(reader),
            ))
            .await
            .unwrap()
            .into_inner()
            .books
            .into_iter()
            .filter_map(|b| b.book.map(|b| b.title))
            .collect();
    }
    shown
}

async fn plain_search(catalog: &mut CatalogServiceClient<Channel>, case: &Labelled) -> Vec<String> {
    let words = case.turns.join(" ");
    catalog
        .search(catalog_pb::SearchRequest {
            query: words,
            price_min_cents: -1,
            price_max_cents: -1,
            page: 1,
            page_size: K as u32,
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner()
        .hits
        .into_iter()
        .filter_map(|h| h.book.map(|b| b.title))
        .collect()
}

/// The chat service's `/metrics` text (plain HTTP/1.0 on its admin port).
async fn admin_metrics(port: u16) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let Ok(mut stream) = tokio::net::TcpStream::connect(("127.0.0.1", port)).await else {
        return String::new();
    };
    let mut body = String::new();
    if stream
        .write_all(b"GET /metrics HTTP/1.0\r\nHost: localhost\r\n\r\n")
        .await
        .is_ok()
    {
        let _ = stream.read_to_string(&mut body).await;
    }
    body
}

/// The value of an unlabelled gauge in a Prometheus text, 0 when absent.
fn gauge(metrics: &str, name: &str) -> f64 {
    metrics
        .lines()
        .filter_map(|l| l.strip_prefix(name)?.strip_prefix(' '))
        .find_map(|v| v.trim().parse().ok())
        .unwrap_or(0.0)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn quinn_finds_the_demo_books_a_reader_asks_for_far_better_than_plain_search() {
    let env = TestEnv::new("quire-chat-tests");
    let id = env.id.clone();
    let auth = start_auth(env.common(&format!("auth_qp_{id}"), 4), env.auth_config()).await;
    let catalog = start_catalog(
        env.common(&format!("catalog_qp_{id}"), 4),
        env.catalog_config("qp", &auth.url),
    )
    .await;
    let chat = start_chat(
        env.common(&format!("chat_qp_{id}"), 4),
        quire_chat::ChatConfig {
            chat_semantic: true,
            ..env.chat_config("qp", &auth.url, &catalog.url)
        },
    )
    .await;

    let demo_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../deploy/demo");
    let report = load(
        &LoadConfig {
            auth_url: auth.url.clone(),
            catalog_url: catalog.url.clone(),
            admin_email: env.admin_email(),
            admin_password: ADMIN_PASSWORD.to_owned(),
            sources: SourceDirs::in_dir(&demo_dir),
            wait: Duration::from_secs(30),
        },
        &books().unwrap(),
    )
    .await
    .expect("the demo shop loads (deploy/demo/fetch-sources.sh installs its sources)");
    let in_shop = report.created + report.existing;
    assert!(
        in_shop >= 51,
        "the demo shop has its books: {}",
        report.summary()
    );

    let reader = login(
        &mut AuthServiceClient::new(channel(auth.url.clone())),
        READER.email,
        READER.password,
    )
    .await;
    let mut chat_client = ChatServiceClient::new(channel(chat.url.clone()));
    let mut catalog_client = CatalogServiceClient::new(channel(catalog.url.clone()));

    // Quinn knows the shop once its index has the demo books and, with the model, their
    // vectors. Books are embedded newest first, so every vector made after the index held
    // them all is a demo book's until they all have one (the broker may carry other shops'
    // books, older, which come after).
    let semantic = quire_embed::MaybeEmbedder::from_env().embedder().is_some();
    let admin_port = chat.admin_port;
    let held_all_at = std::cell::Cell::new(None::<f64>);
    let held_all_at = &held_all_at;
    let indexed = eventually(300, || async move {
        let metrics = admin_metrics(admin_port).await;
        let books = gauge(&metrics, "quire_chat_books");
        let vectors = gauge(&metrics, "quire_chat_book_vectors");
        if books < in_shop as f64 {
            return false;
        }
        let since = held_all_at.get().unwrap_or(vectors);
        held_all_at.set(Some(since));
        !semantic || vectors >= (since + in_shop as f64).min(books)
    })
    .await;
    assert!(
        indexed,
        "chat indexed the {in_shop} demo books (and their vectors)"
    );

    let cases = labelled();
    assert!(cases.len() >= 30, "at least 30 labelled requests");
    let (mut quinn_sum, mut search_sum) = (0.0, 0.0);
    println!("| request | Quinn P@5 | search P@5 | Quinn's first five |");
    println!("|---|---|---|---|");
    for case in &cases {
        let relevant: HashSet<&str> = case.relevant.iter().map(String::as_str).collect();
        let q = quinn(&mut chat_client, &reader, case).await;
        let s = plain_search(&mut catalog_client, case).await;
        let (qp, sp) = (precision(&q, &relevant), precision(&s, &relevant));
        quinn_sum += qp;
        search_sum += sp;
        println!(
            "| {} ({}) | {qp:.1} | {sp:.1} | {} |",
            case.id,
            case.turns.join(" / "),
            q.join("; ")
        );
    }
    let n = cases.len() as f64;
    let (quinn_p5, search_p5) = (quinn_sum / n, search_sum / n);
    println!(
        "precision@5 over {} requests: Quinn {quinn_p5:.3}, plain search {search_p5:.3}, ratio {:.2}",
        cases.len(),
        quinn_p5 / search_p5.max(f64::EPSILON)
    );
    assert!(
        quinn_p5 >= 1.5 * search_p5 && quinn_p5 > search_p5 + 0.1,
        "Quinn ({quinn_p5:.3}) beats plain search ({search_p5:.3}) by half again"
    );
}
