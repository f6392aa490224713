//! What the catalog tests share: users with roles, books created over catalog's gRPC API
//! (there is no REST route for it before the manuscript issue) from real files built by
//! quire-demo, purchases as `quire.trade.completed.v1` events on the broker, and raw
//! (non-envelope) GETs for book files and images.

use std::time::Duration;

use prost::Message as _;
use quire_fixtures::build::{BookFormat, BookMeta, ChapterText};
use quire_kit::events::{Event, topics};
use quire_proto::catalog::v1 as pb;
use quire_proto::catalog::v1::catalog_service_client::CatalogServiceClient;
use quire_proto::events::v1::TradeCompleted;
use rdkafka::producer::{FutureProducer, FutureRecord};
use serde_json::{Value, json};
use tonic::transport::Channel;
use uuid::Uuid;

use crate::support::{TestApp, unique_email};

/// A logged-in user: access token and id.
#[derive(Clone, Debug)]
pub struct User {
    pub token: String,
    pub id: String,
}

/// A book to create; `Default` is a listed epub of 10 chapters at 4.99.
#[derive(Clone, Debug)]
pub struct NewBook {
    pub format: BookFormat,
    pub title: String,
    pub genre: String,
    pub tags: Vec<String>,
    pub price_cents: i64,
    pub publish: bool,
    pub chapters: usize,
    pub publisher_id: String,
}

impl Default for NewBook {
    fn default() -> Self {
        Self {
            format: BookFormat::Epub,
            title: format!(
                "Quiet Lanterns {}",
                &Uuid::new_v4().simple().to_string()[..6]
            ),
            genre: "Fiction".into(),
            tags: vec!["sea".into(), "night".into()],
            price_cents: 499,
            publish: true,
            chapters: 10,
            publisher_id: String::new(),
        }
    }
}

/// A paragraph that holds a marker word, so tests can tell which chapters were served.
pub fn paragraph(chapter: usize, n: usize) -> String {
    format!(
        "Marker chapter{chapter}para{n}. The keeper climbed the stairs of the lighthouse \
         while the storm pressed against the glass, counting every step aloud so that the \
         wind would not steal the numbers from him; below, the harbour lights went out one \
         by one until only his lamp remained to guide the boats home."
    )
}

pub fn chapters(n: usize) -> Vec<ChapterText> {
    (1..=n)
        .map(|c| {
            ChapterText::new(
                format!("Chapter {c}"),
                (1..=6).map(|p| paragraph(c, p)).collect(),
            )
        })
        .collect()
}

/// A real book file: (file name, bytes).
pub fn book_file(format: BookFormat, title: &str, n: usize) -> (String, Vec<u8>) {
    let meta = BookMeta::new(title, &["Ada Writer"]);
    let data = quire_fixtures::build::file(format, &meta, &chapters(n)).unwrap();
    (format!("book.{}", format.extension()), data)
}

/// A small real PNG (1x1).
pub const PNG: &[u8] = &[
    0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52,
    0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1F, 0x15, 0xC4,
    0x89, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0xF8, 0xCF, 0xC0, 0xF0,
    0x1F, 0x00, 0x05, 0x00, 0x01, 0xFF, 0x89, 0x99, 0x3D, 0x1D, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45,
    0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82,
];

/// A raw answer: status, headers, body bytes.
pub struct Raw {
    pub status: u16,
    pub headers: reqwest::header::HeaderMap,
    pub body: Vec<u8>,
}

impl Raw {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or_else(|_| {
            panic!(
                "not JSON ({}): {}",
                self.status,
                String::from_utf8_lossy(&self.body)
            )
        })
    }
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

impl TestApp {
    /// A user created by the admin with `roles`, logged in.
    pub async fn user_with(&self, roles: &[&str]) -> User {
        let admin = self.admin_token().await;
        let email = unique_email();
        let (s, body) = self
            .post(
                "/api/users/",
                json!({"email": email, "username": "Wren", "password": "role-pass-123", "roles": roles}),
                Some(&admin),
            )
            .await;
        assert_eq!(s, 200, "{body}");
        let (token, _, user) = self.login(&email, "role-pass-123").await;
        User {
            token,
            id: user["user_id"].as_str().unwrap().to_owned(),
        }
    }

    pub async fn writer(&self) -> User {
        self.user_with(&["reader", "writer"]).await
    }

    /// A logged-in reader.
    pub async fn reader_user(&self) -> User {
        let (_, token, user) = self.reader().await;
        User {
            token,
            id: user["user_id"].as_str().unwrap().to_owned(),
        }
    }

    /// The admin, logged in.
    pub async fn admin(&self) -> User {
        let (token, _, user) = self
            .login(&self.admin_email.clone(), crate::support::ADMIN_PASSWORD)
            .await;
        User {
            token,
            id: user["user_id"].as_str().unwrap().to_owned(),
        }
    }

    pub async fn catalog(&self) -> CatalogServiceClient<Channel> {
        CatalogServiceClient::connect(self.catalog_grpc.clone())
            .await
            .unwrap()
            .max_decoding_message_size(64 << 20)
            .max_encoding_message_size(64 << 20)
    }

    /// Creates a book as `writer` through catalog's gRPC API.
    pub async fn create_book(&self, writer: &User, book: NewBook) -> pb::Book {
        let (file_name, data) = book_file(book.format, &book.title, book.chapters);
        let mut req = tonic::Request::new(pb::CreateBookRequest {
            upload_writer_id: writer.id.clone(),
            title: book.title.clone(),
            authors: vec!["Ada Writer".into()],
            short_summary: format!("A short tale called {}", book.title),
            long_summary: "A lighthouse keeper and the storm that would not end.".into(),
            tags: book.tags,
            genre: book.genre,
            price_cents: book.price_cents,
            assessment_score: 7.5,
            publish_date: "1901-05-04".into(),
            language: "en".into(),
            publisher_id: book.publisher_id,
            files: vec![pb::UploadedFile { file_name, data }],
            cover: None,
            publish: book.publish,
            book_id: String::new(),
        });
        req.metadata_mut().insert(
            "authorization",
            format!("Bearer {}", writer.token).parse().unwrap(),
        );
        self.catalog()
            .await
            .create_book(req)
            .await
            .expect("catalog creates the book")
            .into_inner()
    }

    /// Announces a purchase the way wallet will: a `quire.trade.completed.v1` event.
    /// Returns the event so a test can send the very same one again.
    pub async fn trade_completed(&self, buyer: &str, book: &pb::Book) -> Event {
        let trade_id = Uuid::new_v4().to_string();
        let data = TradeCompleted {
            trade_id: trade_id.clone(),
            buyer_uid: buyer.to_owned(),
            book_id: book.book_id.clone(),
            seller_uid: book.upload_writer_id.clone(),
            price_cents: book.price_cents,
            seller_cents: book.price_cents * 9 / 10,
            platform_cents: book.price_cents - book.price_cents * 9 / 10,
            completed_at: chrono::Utc::now().to_rfc3339(),
            campaign_id: String::new(),
        }
        .encode_to_vec();
        let event = Event {
            id: Uuid::new_v4(),
            event_type: "quire.trade.completed.v1".into(),
            source: "quire-tests".into(),
            time: chrono::Utc::now().to_rfc3339(),
            key: trade_id,
            data,
            traceparent: None,
        };
        self.produce(&event).await;
        event
    }

    pub async fn produce(&self, event: &Event) {
        let producer: FutureProducer = quire_kit::events::producer_config(&self.brokers)
            .create()
            .unwrap();
        producer
            .send(
                FutureRecord::to(topics::TRADE)
                    .key(&event.key)
                    .payload(&event.data)
                    .headers(event.headers()),
                Duration::from_secs(10),
            )
            .await
            .map_err(|(e, _)| e)
            .unwrap();
    }

    /// A GET whose success is not an envelope (book files, images).
    pub async fn raw(&self, path: &str, token: Option<&str>) -> Raw {
        let mut rb = self.http.get(self.url(path));
        if let Some(t) = token {
            rb = rb.bearer_auth(t);
        }
        let r = rb.send().await.expect("request reaches the gateway");
        Raw {
            status: r.status().as_u16(),
            headers: r.headers().clone(),
            body: r.bytes().await.unwrap().to_vec(),
        }
    }

    pub async fn put(&self, path: &str, body: Value, token: Option<&str>) -> (u16, Value) {
        let mut rb = self.http.put(self.url(path)).json(&body);
        if let Some(t) = token {
            rb = rb.bearer_auth(t);
        }
        self.send(rb).await
    }

    pub async fn delete(&self, path: &str, token: Option<&str>) -> (u16, Value) {
        let mut rb = self.http.delete(self.url(path));
        if let Some(t) = token {
            rb = rb.bearer_auth(t);
        }
        self.send(rb).await
    }

    /// `get_all_books/` with a form body.
    pub async fn shop(&self, form: &[(&str, &str)], token: Option<&str>) -> (u16, Value) {
        let mut rb = self.http.post(self.url("/api/get_all_books/")).form(form);
        if let Some(t) = token {
            rb = rb.bearer_auth(t);
        }
        self.send(rb).await
    }

    /// Polls `check` (up to 45 s: events cross a broker shared with every other test)
    /// until it gives `Some`.
    pub async fn eventually<T, F, Fut>(&self, what: &str, mut check: F) -> T
    where
        F: FnMut() -> Fut,
        Fut: std::future::Future<Output = Option<T>>,
    {
        for _ in 0..450 {
            if let Some(v) = check().await {
                return v;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        panic!("{what}: not within 45 s");
    }

    /// Ids of the hits of a search for `query`.
    pub async fn search_ids(&self, body: Value, token: Option<&str>) -> Vec<String> {
        let (s, r) = self.post("/api/search", body, token).await;
        assert_eq!(s, 200, "{r}");
        r["data"]["result"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| b["id"].as_str().unwrap().to_owned())
            .collect()
    }
}

/// The ids in a list of books (a plain list or the `result` of a page).
pub fn ids(list: &Value) -> Vec<String> {
    let items = list
        .as_array()
        .or_else(|| list["result"].as_array())
        .unwrap_or_else(|| panic!("not a list: {list}"));
    items
        .iter()
        .map(|b| b["id"].as_str().unwrap().to_owned())
        .collect()
}

/// A `multipart/form-data` body: text fields and at most one file per name.
pub struct Multipart {
    boundary: String,
    body: Vec<u8>,
}

impl Multipart {
    pub fn new() -> Self {
        Self {
            boundary: format!("quire-test-{}", Uuid::new_v4().simple()),
            body: vec![],
        }
    }

    pub fn text(mut self, name: &str, value: &str) -> Self {
        self.body.extend_from_slice(
            format!(
                "--{}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n",
                self.boundary
            )
            .as_bytes(),
        );
        self
    }

    pub fn file(mut self, name: &str, file_name: &str, content_type: &str, data: &[u8]) -> Self {
        self.body.extend_from_slice(
            format!(
                "--{}\r\nContent-Disposition: form-data; name=\"{name}\"; filename=\"{file_name}\"\r\nContent-Type: {content_type}\r\n\r\n",
                self.boundary
            )
            .as_bytes(),
        );
        self.body.extend_from_slice(data);
        self.body.extend_from_slice(b"\r\n");
        self
    }

    /// Posts the form to `path`.
    pub async fn post(mut self, app: &TestApp, path: &str, token: Option<&str>) -> (u16, Value) {
        self.body
            .extend_from_slice(format!("--{}--\r\n", self.boundary).as_bytes());
        let mut rb = app
            .http
            .post(app.url(path))
            .header(
                "content-type",
                format!("multipart/form-data; boundary={}", self.boundary),
            )
            .body(self.body);
        if let Some(t) = token {
            rb = rb.bearer_auth(t);
        }
        app.send(rb).await
    }
}

/// The text of every entry of an epub (a zip), concatenated.
pub fn epub_text(data: &[u8]) -> String {
    use std::io::Read;
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(data)).expect("a valid epub (zip)");
    let mut all = String::new();
    for i in 0..zip.len() {
        let mut entry = zip.by_index(i).unwrap();
        let mut s = String::new();
        let _ = entry.read_to_string(&mut s);
        all.push_str(&s);
    }
    all
}
