//! One real catalog per test: its own Postgres schema, a real auth service (its own
//! schema) issuing the tokens, the shared Kafka broker, and a private object folder.

use std::time::Duration;

use quire_catalog::CatalogConfig;
use quire_kit::config::CommonConfig;
use quire_proto::auth::v1::auth_service_client::AuthServiceClient;
use quire_proto::catalog::v1 as pb;
use quire_proto::catalog::v1::catalog_service_client::CatalogServiceClient;
use quire_test_stack::{ADMIN_PASSWORD, TestEnv, channel, login, start_auth, start_catalog};
use tonic::transport::Channel;
use uuid::Uuid;

pub use quire_test_stack::{User, eventually, req};

pub struct TestApp {
    pub catalog: CatalogServiceClient<Channel>,
    pub auth: AuthServiceClient<Channel>,
    pub admin: User,
    pub brokers: String,
    pub admin_port: u16,
    common: CommonConfig,
    config: CatalogConfig,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
}

/// A client of catalog at `url`, for books of any size.
fn catalog_client(url: String) -> CatalogServiceClient<Channel> {
    CatalogServiceClient::new(channel(url))
        .max_decoding_message_size(64 * 1024 * 1024)
        .max_encoding_message_size(64 * 1024 * 1024)
}

impl TestApp {
    pub async fn spawn() -> Self {
        let env = TestEnv::new("quire-catalog-tests");
        let id = &env.id;
        let auth = start_auth(env.common(&format!("auth_ct_{id}"), 6), env.auth_config()).await;
        let common = env.common(&format!("catalog_t_{id}"), 6);
        let config = env.catalog_config("t", &auth.url);
        let catalog = start_catalog(common.clone(), config.clone()).await;
        let mut auth = AuthServiceClient::new(channel(auth.url));
        let admin = login(&mut auth, &env.admin_email(), ADMIN_PASSWORD).await;
        Self {
            catalog: catalog_client(catalog.url),
            auth,
            admin,
            brokers: env.brokers,
            admin_port: catalog.admin_port,
            common,
            config,
            stop: Some(catalog.stop),
        }
    }

    /// Stops this catalog replica and starts a new one on the same schema, consumer
    /// groups and object store, with a new (empty, in-memory) search index.
    pub async fn restart_catalog(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        let catalog = start_catalog(self.common.clone(), self.config.clone()).await;
        self.catalog = catalog_client(catalog.url);
        self.admin_port = catalog.admin_port;
        self.stop = Some(catalog.stop);
    }

    /// A connection to this catalog's own schema, for what the API does not show.
    pub async fn db(&self) -> quire_kit::db::PgConn {
        let schema = self
            .common
            .db_schema
            .as_deref()
            .expect("a schema of its own");
        let pool = quire_kit::db::pool(&self.common.database_url, schema, 1).unwrap();
        quire_kit::db::conn(&pool).await.unwrap()
    }

    /// The catalog's audit entries, newest first, and whether their chain is intact.
    pub async fn audit(&self) -> quire_kit::audit::AuditPage {
        let mut conn = self.db().await;
        quire_kit::audit::list(&mut conn, None, 200).await.unwrap()
    }

    /// A new user holding `roles`, signed in.
    pub async fn user(&self, roles: &[&str]) -> User {
        quire_test_stack::new_user(&self.auth, &self.admin, roles).await
    }

    pub fn client(&self) -> CatalogServiceClient<Channel> {
        self.catalog.clone()
    }

    /// Creates a book of `files` as `writer`, switched on when `publish`.
    pub async fn create_book(
        &self,
        writer: &User,
        title: &str,
        files: Vec<(&str, Vec<u8>)>,
        publish: bool,
    ) -> pb::Book {
        self.client()
            .create_book(req(
                pb::CreateBookRequest {
                    title: title.into(),
                    price_cents: 499,
                    genre: "Fiction".into(),
                    tags: vec!["test".into()],
                    short_summary: format!("{title}, a test book"),
                    files: files
                        .into_iter()
                        .map(|(name, data)| pb::UploadedFile {
                            file_name: name.into(),
                            data,
                        })
                        .collect(),
                    publish,
                    ..Default::default()
                },
                Some(writer),
            ))
            .await
            .expect("the book is created")
            .into_inner()
    }

    /// The whole content reply: metadata and bytes.
    pub async fn content(
        &self,
        book_id: &str,
        user: Option<&User>,
    ) -> Result<(pb::ContentMeta, Vec<u8>), tonic::Status> {
        let mut stream = self
            .client()
            .get_content(req(
                pb::GetContentRequest {
                    book_id: book_id.into(),
                    file_index: 0,
                },
                user,
            ))
            .await?
            .into_inner();
        let mut meta = None;
        let mut data = Vec::new();
        while let Some(chunk) = stream.message().await? {
            if chunk.meta.is_some() {
                assert!(meta.is_none(), "only the first chunk carries metadata");
                assert!(data.is_empty(), "the metadata comes first");
                meta = chunk.meta;
            }
            assert!(chunk.data.len() <= 64 * 1024, "chunks are at most 64 KiB");
            data.extend_from_slice(&chunk.data);
        }
        let meta = meta.expect("the first chunk carries metadata");
        assert_eq!(meta.size as usize, data.len());
        Ok((meta, data))
    }

    /// The table of contents of a book's first file, as `user` (None: anonymous) sees it.
    pub async fn toc(&self, book_id: &str, user: Option<&User>) -> pb::Toc {
        self.client()
            .get_toc(req(
                pb::GetTocRequest {
                    book_id: book_id.into(),
                    file_index: 0,
                },
                user,
            ))
            .await
            .expect("the table of contents")
            .into_inner()
    }

    /// Publishes a `trade.completed` event the way wallet's relay does.
    pub async fn produce_trade(
        &self,
        event_id: Uuid,
        trade_id: Uuid,
        buyer: &str,
        book: &pb::Book,
    ) {
        use prost::Message;
        use rdkafka::producer::{FutureProducer, FutureRecord};
        let producer: FutureProducer = quire_kit::events::producer_config(&self.brokers)
            .create()
            .unwrap();
        let data = quire_proto::events::v1::TradeCompleted {
            trade_id: trade_id.to_string(),
            buyer_uid: buyer.into(),
            book_id: book.book_id.clone(),
            seller_uid: book.upload_writer_id.clone(),
            price_cents: book.price_cents,
            seller_cents: book.price_cents * 9 / 10,
            platform_cents: book.price_cents - book.price_cents * 9 / 10,
            completed_at: chrono::Utc::now().to_rfc3339(),
            campaign_id: String::new(),
        }
        .encode_to_vec();
        let event = quire_kit::events::Event {
            id: event_id,
            event_type: quire_kit::events::types::TRADE_COMPLETED.into(),
            source: "quire-wallet-test".into(),
            time: chrono::Utc::now().to_rfc3339(),
            key: trade_id.to_string(),
            data: Vec::new(),
            traceparent: None,
        };
        let key = trade_id.to_string();
        producer
            .send(
                FutureRecord::to(quire_kit::events::topics::TRADE)
                    .key(&key)
                    .payload(&data)
                    .headers(event.headers()),
                Duration::from_secs(10),
            )
            .await
            .map_err(|(e, _)| e)
            .expect("the broker takes the event");
    }
}

/// A real book file of `chapters` chapters, each `paragraphs` paragraphs long.
pub fn book_file(
    format: quire_fixtures::build::BookFormat,
    title: &str,
    chapters: usize,
    paragraphs: usize,
) -> Vec<u8> {
    use quire_fixtures::build::{BookMeta, ChapterText};
    let chapters: Vec<ChapterText> = (1..=chapters)
        .map(|c| {
            ChapterText::new(
                format!("Chapter {c}"),
                (1..=paragraphs)
                    .map(|p| {
                        format!(
                            "Paragraph {p} of chapter {c} of {title}. The lighthouse keeper counted \
                             the waves, wrote them down in a ledger and wondered whether the sea \
                             ever tired of arriving."
                        )
                    })
                    .collect(),
            )
        })
        .collect();
    quire_fixtures::build::file(format, &BookMeta::new(title, &["Ada Writer"]), &chapters).unwrap()
}

/// A real EPUB.
pub fn epub(title: &str, chapters: usize, paragraphs: usize) -> Vec<u8> {
    book_file(
        quire_fixtures::build::BookFormat::Epub,
        title,
        chapters,
        paragraphs,
    )
}

/// The names of the entries of a zip archive (an epub), which must open.
pub fn zip_names(data: &[u8]) -> Vec<String> {
    let archive = zip::ZipArchive::new(std::io::Cursor::new(data)).expect("a valid zip");
    archive.file_names().map(str::to_owned).collect()
}

/// The gRPC code of a failed call.
pub fn code<T: std::fmt::Debug>(result: Result<tonic::Response<T>, tonic::Status>) -> tonic::Code {
    match result {
        Ok(r) => panic!("expected a failure, got {r:?}"),
        Err(s) => s.code(),
    }
}
