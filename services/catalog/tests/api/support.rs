//! One real catalog per test: its own Postgres schema, a real auth service (its own
//! schema) issuing the tokens, the shared Kafka broker, and a private object folder.

use std::time::Duration;

use quire_auth::AuthConfig;
use quire_catalog::CatalogConfig;
use quire_kit::config::CommonConfig;
use quire_proto::auth::v1 as auth_pb;
use quire_proto::auth::v1::auth_service_client::AuthServiceClient;
use quire_proto::catalog::v1 as pb;
use quire_proto::catalog::v1::catalog_service_client::CatalogServiceClient;
use tonic::transport::Channel;
use uuid::Uuid;

pub const ADMIN_PASSWORD: &str = "admin-pass-123";

fn env_or(key: &str, default: &str) -> String {
    std::env::var(key).unwrap_or_else(|_| default.to_owned())
}

/// A signed-in user.
#[derive(Clone, Debug)]
pub struct User {
    pub id: String,
    pub name: String,
    pub token: String,
}

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

async fn start_catalog(
    common: &CommonConfig,
    config: &CatalogConfig,
) -> (
    CatalogServiceClient<Channel>,
    u16,
    tokio::sync::oneshot::Sender<()>,
) {
    let app = quire_catalog::Application::build(common.clone(), config.clone())
        .await
        .expect("catalog builds");
    let url = format!("http://127.0.0.1:{}", app.grpc_port());
    let admin_port = app.admin_port();
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(app.run_until(async move {
        let _ = rx.await;
    }));
    let client = CatalogServiceClient::new(Channel::from_shared(url).unwrap().connect_lazy())
        .max_decoding_message_size(64 * 1024 * 1024)
        .max_encoding_message_size(64 * 1024 * 1024);
    (client, admin_port, tx)
}

/// A request carrying `user`'s token (none: anonymous).
pub fn req<T>(message: T, user: Option<&User>) -> tonic::Request<T> {
    let mut r = tonic::Request::new(message);
    if let Some(u) = user {
        r.metadata_mut().insert(
            "authorization",
            format!("Bearer {}", u.token).parse().unwrap(),
        );
    }
    r
}

fn suffix() -> String {
    Uuid::new_v4().simple().to_string()[..12].to_owned()
}

impl TestApp {
    pub async fn spawn() -> Self {
        static TELEMETRY: std::sync::OnceLock<quire_kit::telemetry::TelemetryGuard> =
            std::sync::OnceLock::new();
        TELEMETRY.get_or_init(|| quire_kit::telemetry::init("quire-catalog-tests"));
        let database_url = env_or(
            "QUIRE_TEST_DATABASE_URL",
            "postgres://postgres@127.0.0.1:5432/quire_test",
        );
        let brokers = env_or("QUIRE_KAFKA_BROKERS", "127.0.0.1:9092");
        let redis_url = env_or("QUIRE_REDIS_URL", "redis://127.0.0.1:6379");
        let id = suffix();
        let common = |schema: &str| CommonConfig {
            database_url: database_url.clone(),
            db_schema: Some(schema.to_owned()),
            db_pool_size: 6,
            redis_url: redis_url.clone(),
            kafka_brokers: brokers.clone(),
            outbox_poll_ms: 20,
            migrate_on_start: true,
        };

        let admin_email = format!("admin-{id}@quire.test");
        let auth = quire_auth::Application::build(
            common(&format!("auth_ct_{id}")),
            AuthConfig {
                grpc_addr: "127.0.0.1:0".into(),
                admin_addr: "127.0.0.1:0".into(),
                jwt_key_file: None,
                access_token_ttl_secs: 600,
                refresh_token_ttl_secs: 3600,
                smtp_url: None,
                mail_from: "Quire <no-reply@quire.test>".into(),
                admin_email: Some(admin_email.clone()),
                admin_password: Some(ADMIN_PASSWORD.to_owned().into()),
                siwe_domain: "localhost:8080".into(),
                verify_resend_secs: 60,
                login_failures_per_window: 50,
            },
        )
        .await
        .expect("auth builds");
        let auth_url = format!("http://127.0.0.1:{}", auth.grpc_port());
        tokio::spawn(auth.run_until(std::future::pending()));

        let schema = format!("catalog_t_{id}");
        let objects = std::env::temp_dir().join(format!("quire-catalog-objects-{id}"));
        let common = common(&schema);
        let config = CatalogConfig {
            grpc_addr: "127.0.0.1:0".into(),
            admin_addr: "127.0.0.1:0".into(),
            auth_url: auth_url.clone(),
            object_store_url: Some(format!("file://{}", objects.display())),
            search_index_dir: None,
            search_group: Some(format!("catalog-search-t-{id}")),
            events_group: format!("catalog-t-{id}"),
            ..CatalogConfig::default()
        };
        let (catalog, admin_port, stop) = start_catalog(&common, &config).await;
        let channel = |url: String| Channel::from_shared(url).unwrap().connect_lazy();
        let mut auth = AuthServiceClient::new(channel(auth_url));
        let admin = login(&mut auth, &admin_email, ADMIN_PASSWORD).await;
        Self {
            catalog,
            auth,
            admin,
            brokers,
            admin_port,
            common,
            config,
            stop: Some(stop),
        }
    }

    /// Stops this catalog replica and starts a new one on the same schema, consumer
    /// groups and object store, with a new (empty, in-memory) search index.
    pub async fn restart_catalog(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        let (catalog, admin_port, stop) = start_catalog(&self.common, &self.config).await;
        self.catalog = catalog;
        self.admin_port = admin_port;
        self.stop = Some(stop);
    }

    /// A new user holding `roles`, signed in.
    pub async fn user(&self, roles: &[&str]) -> User {
        let email = format!("{}-{}@quire.test", roles.join("-"), suffix());
        let password = "user-pass-123";
        self.auth
            .clone()
            .create_user(req(
                auth_pb::CreateUserRequest {
                    email: email.clone(),
                    username: format!("user{}", suffix()),
                    password: password.into(),
                    roles: roles.iter().map(|r| (*r).to_owned()).collect(),
                },
                Some(&self.admin),
            ))
            .await
            .expect("admin creates a user");
        login(&mut self.auth.clone(), &email, password).await
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

async fn login(auth: &mut AuthServiceClient<Channel>, email: &str, password: &str) -> User {
    let reply = auth
        .login(auth_pb::LoginRequest {
            credentials: Some(auth_pb::login_request::Credentials::Email(
                auth_pb::EmailPassword {
                    email: email.into(),
                    password: password.into(),
                },
            )),
            client_ip: "127.0.0.1".into(),
        })
        .await
        .expect("login works")
        .into_inner();
    let user = reply.user.expect("login names the user");
    User {
        id: user.user_id,
        name: user.username,
        token: reply.access_token,
    }
}

/// Waits up to `secs` seconds for `check` to hold.
pub async fn eventually<F, Fut>(secs: u64, mut check: F) -> bool
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let until = std::time::Instant::now() + Duration::from_secs(secs);
    while std::time::Instant::now() < until {
        if check().await {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    false
}

/// A real book file of `chapters` chapters, each `paragraphs` paragraphs long.
pub fn book_file(
    format: quire_demo::build::BookFormat,
    title: &str,
    chapters: usize,
    paragraphs: usize,
) -> Vec<u8> {
    use quire_demo::build::{BookMeta, ChapterText};
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
    quire_demo::build::file(format, &BookMeta::new(title, &["Ada Writer"]), &chapters).unwrap()
}

/// A real EPUB.
pub fn epub(title: &str, chapters: usize, paragraphs: usize) -> Vec<u8> {
    book_file(
        quire_demo::build::BookFormat::Epub,
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
