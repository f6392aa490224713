//! What the replicas test does with the shop: books put in through catalog's gRPC API (there
//! is no REST route that makes a book without the manuscript service), each replica asked
//! directly what it knows, and readers and buyers through the gateway as the web app is
//! written: every read sent again after a failure, every purchase and recharge with an
//! `Idempotency-Key`, sent again with it until the answer is definite.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use quire_proto::catalog::v1 as catalog_pb;
use quire_proto::catalog::v1::catalog_service_client::CatalogServiceClient;
use quire_proto::chat::v1 as chat_pb;
use quire_proto::chat::v1::chat_service_client::ChatServiceClient;
use serde_json::{Value, json};

use super::stack::{TestApp, User};

fn signed<T>(message: T, user: &User) -> tonic::Request<T> {
    let mut request = tonic::Request::new(message);
    let bearer = format!("Bearer {}", user.token);
    request
        .metadata_mut()
        .insert("authorization", bearer.parse().unwrap());
    request
}

/// Puts a listed book in the shop through catalog replica `at`; answers its id.
pub async fn publish(at: &str, writer: &User, title: &str, summary: &str, cents: i64) -> String {
    use quire_fixtures::build::{BookFormat, BookMeta, ChapterText};
    let chapters = [ChapterText::new("One", vec![summary.to_owned()])];
    let file = quire_fixtures::build::file(
        BookFormat::Txt,
        &BookMeta::new(title, &["Ada Writer"]),
        &chapters,
    )
    .unwrap();
    let request = catalog_pb::CreateBookRequest {
        title: title.to_owned(),
        authors: vec!["Ada Writer".into()],
        short_summary: summary.to_owned(),
        genre: "Mystery".into(),
        tags: vec!["lighthouse".into()],
        price_cents: cents,
        files: vec![catalog_pb::UploadedFile {
            file_name: "book.txt".into(),
            data: file,
        }],
        publish: true,
        ..Default::default()
    };
    CatalogServiceClient::connect(at.to_owned())
        .await
        .unwrap()
        .create_book(signed(request, writer))
        .await
        .expect("catalog creates the book")
        .into_inner()
        .book_id
}

/// The ids catalog replica `at` finds for `query`.
pub async fn found_by(at: &str, query: &str) -> Vec<String> {
    let Ok(mut client) = CatalogServiceClient::connect(at.to_owned()).await else {
        return Vec::new();
    };
    let request = catalog_pb::SearchRequest {
        query: query.to_owned(),
        page: 1,
        page_size: 20,
        price_min_cents: -1,
        price_max_cents: -1,
        ..Default::default()
    };
    match client.search(request).await {
        Ok(reply) => reply
            .into_inner()
            .hits
            .into_iter()
            .filter_map(|h| h.book.map(|b| b.book_id))
            .collect(),
        Err(_) => Vec::new(),
    }
}

/// What chat replica `at` recommends `reader` for `query`: (book id, reason).
pub async fn recommended_by(at: &str, reader: &User, query: &str) -> Vec<(String, String)> {
    let Ok(mut client) = ChatServiceClient::connect(at.to_owned()).await else {
        return Vec::new();
    };
    let request = chat_pb::RecommendBooksRequest {
        uid: reader.id.to_string(),
        conversation_id: uuid::Uuid::new_v4().to_string(),
        query: query.to_owned(),
        limit: 20,
    };
    match client.recommend_books(signed(request, reader)).await {
        Ok(reply) => reply
            .into_inner()
            .books
            .into_iter()
            .filter_map(|b| Some((b.book?.book_id, b.reason)))
            .collect(),
        Err(_) => Vec::new(),
    }
}

/// Waits until `check` holds; answers how long it took, or None past `within`.
pub async fn within<F, Fut>(within: Duration, mut check: F) -> Option<Duration>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = bool>,
{
    let started = Instant::now();
    loop {
        if check().await {
            return Some(started.elapsed());
        }
        if started.elapsed() > within {
            return None;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
}

/// The gateway as a careful web app calls it, counting what went wrong on the way.
pub struct Client<'a> {
    app: &'a TestApp,
    /// Reads that failed at their first sending (the gateway's own retries did not save
    /// them), and how many were sent.
    pub read_failures: AtomicU64,
    pub reads: AtomicU64,
    /// Sends of a write again with its key after an answer that was not definite.
    pub resends: AtomicU64,
}

/// How long one call may take to get a definite answer, retries included.
const PATIENCE: Duration = Duration::from_secs(90);

impl<'a> Client<'a> {
    pub fn new(app: &'a TestApp) -> Self {
        Self {
            app,
            read_failures: AtomicU64::new(0),
            reads: AtomicU64::new(0),
            resends: AtomicU64::new(0),
        }
    }

    fn url(&self, path: &str) -> String {
        format!("{}/api/{path}", self.app.base)
    }

    /// One read; sent again after a failure until it answers 200. Answers `data`.
    pub async fn read(&self, request: impl Fn() -> reqwest::RequestBuilder) -> Value {
        let body = self.read_text(request).await;
        let body: Value = serde_json::from_str(&body).expect("a JSON envelope");
        body["data"].clone()
    }

    /// One read answered by its body as text; sent again after a failure until it
    /// answers 200. A failure at the first sending is counted.
    async fn read_text(&self, request: impl Fn() -> reqwest::RequestBuilder) -> String {
        self.reads.fetch_add(1, Ordering::Relaxed);
        let until = Instant::now() + PATIENCE;
        let mut first = true;
        loop {
            let why = match request().send().await {
                Ok(reply) if reply.status() == 200 => match reply.text().await {
                    Ok(text) => return text,
                    Err(e) => format!("body: {e}"),
                },
                Ok(reply) => format!("{}", reply.status()),
                Err(e) => format!("{e}"),
            };
            if first {
                self.read_failures.fetch_add(1, Ordering::Relaxed);
                eprintln!("[replicas] a read failed at first: {why}");
                first = false;
            }
            assert!(Instant::now() < until, "a read never answered: {why}");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    pub async fn shop_page(&self) -> Value {
        self.read(|| {
            self.app
                .http
                .post(self.url("get_all_books/"))
                .form(&[("page", "1"), ("page_size", "10")])
        })
        .await
    }

    pub async fn search(&self, query: &str) -> Value {
        self.read(|| {
            self.app
                .http
                .post(self.url("search"))
                .json(&json!({"query": query, "page": 1, "page_size": 10}))
        })
        .await
    }

    pub async fn book_page(&self, book: &str) -> Value {
        self.read(|| {
            self.app
                .http
                .get(self.url("get_books"))
                .query(&[("book_id", book)])
        })
        .await
    }

    /// The start of a book's text, as its reader (a buyer) reads it.
    pub async fn content(&self, reader: &User, book: &str) -> String {
        let url = self.url(&format!("books/{book}/content"));
        self.read_text(|| self.app.http.get(&url).bearer_auth(&reader.token))
            .await
    }

    /// A write with `key`, sent again with it until the answer is definite (200, or 402
    /// when the money is short). Answers whether it was done.
    pub async fn write(&self, key: &str, request: impl Fn() -> reqwest::RequestBuilder) -> bool {
        let until = Instant::now() + PATIENCE;
        loop {
            let answer = request().header("Idempotency-Key", key).send().await;
            let why = match answer {
                Ok(reply) => {
                    let status = reply.status().as_u16();
                    let body = reply.json::<Value>().await.unwrap_or_default();
                    match status {
                        200 => return true,
                        402 => return false,
                        s if s < 500 && s != 429 => panic!("write {key}: {s} {body}"),
                        s => format!("{s} {}", body["message"]),
                    }
                }
                Err(e) => format!("{e}"),
            };
            self.resends.fetch_add(1, Ordering::Relaxed);
            assert!(
                Instant::now() < until,
                "write {key}: no definite answer: {why}"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    pub async fn recharge(&self, user: &User, cents: i64, key: &str) -> bool {
        let amount = format!("{}.{:02}", cents / 100, cents % 100);
        self.write(key, || {
            self.app
                .http
                .post(self.url("wallet/recharge"))
                .bearer_auth(&user.token)
                .json(&json!({ "amount": amount }))
        })
        .await
    }

    pub async fn buy(&self, buyer: &User, book: &str, key: &str) -> bool {
        self.write(key, || {
            self.app
                .http
                .get(self.url("trade"))
                .bearer_auth(&buyer.token)
                .query(&[
                    ("buyer_uid", buyer.id.to_string()),
                    ("book_id", book.into()),
                ])
        })
        .await
    }
}
