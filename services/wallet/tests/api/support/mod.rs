//! One real wallet per test: its own Postgres schema, a real auth service issuing the
//! tokens and a real catalog selling the books (each in its own schema), the shared Kafka
//! broker, and consumer groups of this test alone.

mod events;
mod ledger_checks;

use std::time::Duration;

use quire_auth::AuthConfig;
use quire_catalog::CatalogConfig;
use quire_kit::config::CommonConfig;
use quire_kit::db::PgPool;
use quire_proto::auth::v1 as auth_pb;
use quire_proto::auth::v1::auth_service_client::AuthServiceClient;
use quire_proto::catalog::v1 as catalog_pb;
use quire_proto::catalog::v1::catalog_service_client::CatalogServiceClient;
use quire_proto::wallet::v1 as pb;
use quire_proto::wallet::v1::wallet_service_client::WalletServiceClient;
use quire_wallet::WalletConfig;
use tonic::transport::Channel;
use uuid::Uuid;

pub const ADMIN_PASSWORD: &str = "admin-pass-123";

fn env_or(key: &str, default: &str) -> String {
    std::env::var(key).unwrap_or_else(|_| default.to_owned())
}

pub fn suffix() -> String {
    Uuid::new_v4().simple().to_string()[..12].to_owned()
}

fn channel(url: String) -> Channel {
    Channel::from_shared(url).unwrap().connect_lazy()
}

/// A signed-in user.
#[derive(Clone, Debug)]
pub struct User {
    pub id: String,
    pub token: String,
}

impl User {
    pub fn uuid(&self) -> Uuid {
        Uuid::parse_str(&self.id).unwrap()
    }
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

pub struct TestApp {
    pub wallet: WalletServiceClient<Channel>,
    pub catalog: CatalogServiceClient<Channel>,
    pub auth: AuthServiceClient<Channel>,
    pub admin: User,
    pub brokers: String,
    /// The wallet's own schema, for checking the ledger behind the API.
    pub pool: PgPool,
    pub common: CommonConfig,
    pub config: WalletConfig,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
}

async fn start_wallet(
    common: &CommonConfig,
    config: &WalletConfig,
) -> (
    WalletServiceClient<Channel>,
    tokio::sync::oneshot::Sender<()>,
) {
    let app = quire_wallet::Application::build(common.clone(), config.clone())
        .await
        .expect("wallet builds");
    let url = format!("http://127.0.0.1:{}", app.grpc_port());
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(app.run_until(async move {
        let _ = rx.await;
    }));
    (WalletServiceClient::new(channel(url)), tx)
}

impl TestApp {
    pub async fn spawn() -> Self {
        static TELEMETRY: std::sync::OnceLock<quire_kit::telemetry::TelemetryGuard> =
            std::sync::OnceLock::new();
        TELEMETRY.get_or_init(|| quire_kit::telemetry::init("quire-wallet-tests"));
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
            db_pool_size: 12,
            redis_url: redis_url.clone(),
            kafka_brokers: brokers.clone(),
            outbox_poll_ms: 20,
            migrate_on_start: true,
        };

        let admin_email = format!("admin-{id}@quire.test");
        let auth = quire_auth::Application::build(
            common(&format!("auth_wt_{id}")),
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

        let objects = std::env::temp_dir().join(format!("quire-wallet-objects-{id}"));
        let catalog = quire_catalog::Application::build(
            common(&format!("catalog_wt_{id}")),
            CatalogConfig {
                grpc_addr: "127.0.0.1:0".into(),
                admin_addr: "127.0.0.1:0".into(),
                auth_url: auth_url.clone(),
                object_store_url: Some(format!("file://{}", objects.display())),
                search_index_dir: None,
                search_group: Some(format!("catalog-search-wt-{id}")),
                events_group: format!("catalog-wt-{id}"),
                ..CatalogConfig::default()
            },
        )
        .await
        .expect("catalog builds");
        let catalog_url = format!("http://127.0.0.1:{}", catalog.grpc_port());
        tokio::spawn(catalog.run_until(std::future::pending()));

        let schema = format!("wallet_t_{id}");
        let common = common(&schema);
        let config = WalletConfig {
            grpc_addr: "127.0.0.1:0".into(),
            admin_addr: "127.0.0.1:0".into(),
            auth_url: auth_url.clone(),
            catalog_url: catalog_url.clone(),
            events_group: format!("wallet-t-{id}"),
            ..WalletConfig::default()
        };
        let (wallet, stop) = start_wallet(&common, &config).await;
        let pool = quire_kit::db::pool(&common.database_url, &schema, 8).unwrap();
        let mut auth = AuthServiceClient::new(channel(auth_url));
        let admin = login(&mut auth, &admin_email, ADMIN_PASSWORD).await;
        let catalog = CatalogServiceClient::new(channel(catalog_url))
            .max_decoding_message_size(64 * 1024 * 1024)
            .max_encoding_message_size(64 * 1024 * 1024);
        Self {
            wallet,
            catalog,
            auth,
            admin,
            brokers,
            pool,
            common,
            config,
            stop: Some(stop),
        }
    }

    /// Stops this wallet (as a crash would, between two statements) and starts a new one
    /// on the same schema and consumer group, with `change` applied to its settings.
    pub async fn restart_wallet(&mut self, change: impl FnOnce(&mut WalletConfig)) {
        self.stop_wallet();
        change(&mut self.config);
        let (wallet, stop) = start_wallet(&self.common, &self.config).await;
        self.wallet = wallet;
        self.stop = Some(stop);
    }

    pub fn stop_wallet(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }

    pub fn client(&self) -> WalletServiceClient<Channel> {
        self.wallet.clone()
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

    /// A real epub book by `writer` at `price_cents`, in the shop when `listed`.
    pub async fn book(&self, writer: &User, price_cents: i64, listed: bool) -> catalog_pb::Book {
        let title = format!("Ledger Tales {}", suffix());
        let file = quire_demo::build::file(
            quire_demo::build::BookFormat::Epub,
            &quire_demo::build::BookMeta::new(&title, &["Ada Writer"]),
            &[quire_demo::build::ChapterText::new(
                "Chapter 1".to_owned(),
                vec!["The keeper wrote every wave down in a ledger that always balanced.".into()],
            )],
        )
        .unwrap();
        let book = self
            .catalog
            .clone()
            .create_book(req(
                catalog_pb::CreateBookRequest {
                    title,
                    price_cents,
                    genre: "Fiction".into(),
                    files: vec![catalog_pb::UploadedFile {
                        file_name: "book.epub".into(),
                        data: file,
                    }],
                    publish: false,
                    ..Default::default()
                },
                Some(writer),
            ))
            .await
            .expect("the book is created")
            .into_inner();
        if listed {
            self.catalog
                .clone()
                .set_publish_status(req(
                    catalog_pb::SetPublishStatusRequest {
                        user_id: writer.id.clone(),
                        book_id: book.book_id.clone(),
                        on: true,
                    },
                    Some(writer),
                ))
                .await
                .expect("the writer lists the book");
        }
        book
    }

    /// Recharges `amount_cents` into `user`'s wallet through the API.
    pub async fn recharge(&self, user: &User, amount_cents: i64) -> pb::RechargeReply {
        self.client()
            .recharge(req(
                pb::RechargeRequest {
                    amount_cents,
                    ..Default::default()
                },
                Some(user),
            ))
            .await
            .expect("the recharge goes through")
            .into_inner()
    }

    pub async fn balance(&self, user: &User) -> i64 {
        self.client()
            .get_wallet(req(pb::GetWalletRequest::default(), Some(user)))
            .await
            .expect("the wallet exists")
            .into_inner()
            .balance_cents
    }

    pub async fn buy(&self, buyer: &User, book_id: &str) -> Result<pb::Trade, tonic::Status> {
        self.client()
            .trade(req(
                pb::TradeRequest {
                    buyer_uid: buyer.id.clone(),
                    book_id: book_id.into(),
                    idempotency_key: String::new(),
                },
                Some(buyer),
            ))
            .await
            .map(tonic::Response::into_inner)
    }
}

impl Drop for TestApp {
    fn drop(&mut self) {
        self.stop_wallet();
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

/// The gRPC code and reason of a failed call.
pub fn failure<T: std::fmt::Debug>(result: Result<T, tonic::Status>) -> (tonic::Code, String) {
    match result {
        Ok(r) => panic!("expected a failure, got {r:?}"),
        Err(s) => {
            let reason = quire_kit::ApiError::from_status(&s).reason;
            (s.code(), reason)
        }
    }
}
