//! What the services' integration tests share. Each test starts real services in its own
//! process: auth, catalog, the wallet, the manuscript service and the chat service, each on a fresh Postgres
//! schema of its own, with the shared Redis and broker and consumer groups of that test
//! alone (another test's service must never take its events). Only the start-up is here,
//! and the wallet ledger's invariants that two suites check ([`ledger`]); what a test
//! checks otherwise stays with the test.
#![allow(clippy::expect_used, clippy::unwrap_used)] // test support stops at the first surprise

pub mod ledger;

/// The services' settings, for a test that starts a service with settings of its own: the
/// gateway's tests take them from here, as they may not depend on a service's crate
/// (architecture.toml).
pub mod configs {
    pub use quire_auth::AuthConfig;
    pub use quire_auth::config::OidcSettings;
    pub use quire_catalog::CatalogConfig;
    pub use quire_chat::ChatConfig;
    pub use quire_manuscript::ManuscriptConfig;
    pub use quire_wallet::WalletConfig;
}

use configs::{AuthConfig, CatalogConfig, ChatConfig, ManuscriptConfig, WalletConfig};
use quire_kit::app::Serve as _;
use quire_kit::config::CommonConfig;
use quire_proto::auth::v1 as auth_pb;
use quire_proto::auth::v1::auth_service_client::AuthServiceClient;
use tokio::sync::oneshot;
use tonic::transport::Channel;
use uuid::Uuid;

/// The password of the admin each test's auth seeds.
pub const ADMIN_PASSWORD: &str = "admin-pass-123";

pub fn env_or(key: &str, default: &str) -> String {
    std::env::var(key).unwrap_or_else(|_| default.to_owned())
}

/// Twelve random hex digits: names of schemas, groups, users and titles no other test has.
pub fn suffix() -> String {
    Uuid::new_v4().simple().to_string()[..12].to_owned()
}

/// A channel that connects on first use (a service started a moment ago may still bind).
pub fn channel(url: String) -> Channel {
    Channel::from_shared(url).unwrap().connect_lazy()
}

/// Where the shared servers are (the variables `make test` sets, else the local defaults),
/// and this test's own suffix.
#[derive(Clone, Debug)]
pub struct TestEnv {
    pub database_url: String,
    pub brokers: String,
    pub redis_url: String,
    pub id: String,
}

impl TestEnv {
    /// Also starts telemetry once per test binary, named `service`, as production does
    /// (the guard lives as long as the binary: dropping it would stop the tracer).
    pub fn new(service: &'static str) -> Self {
        static TELEMETRY: std::sync::OnceLock<quire_kit::telemetry::TelemetryGuard> =
            std::sync::OnceLock::new();
        TELEMETRY.get_or_init(|| quire_kit::telemetry::init(service));
        Self {
            database_url: env_or(
                "QUIRE_TEST_DATABASE_URL",
                "postgres://postgres@127.0.0.1:5432/quire_test",
            ),
            brokers: env_or("QUIRE_KAFKA_BROKERS", "127.0.0.1:9092"),
            redis_url: env_or("QUIRE_REDIS_URL", "redis://127.0.0.1:6379"),
            id: suffix(),
        }
    }

    /// The settings every service shares, confined to `schema`; the outbox is polled often
    /// so that events arrive within a test's patience.
    pub fn common(&self, schema: &str, pool_size: usize) -> CommonConfig {
        CommonConfig {
            database_url: self.database_url.clone(),
            db_schema: Some(schema.to_owned()),
            db_pool_size: pool_size,
            redis_url: self.redis_url.clone(),
            kafka_brokers: self.brokers.clone(),
            outbox_poll_ms: 20,
            migrate_on_start: true,
            migrate_database_url: None,
            kafka_create_topics: true,
            grpc_addr: Some("127.0.0.1:0".into()),
            admin_addr: Some("127.0.0.1:0".into()),
        }
    }

    /// The admin whose account auth seeds with [`ADMIN_PASSWORD`].
    pub fn admin_email(&self) -> String {
        format!("admin-{}@quire.test", self.id)
    }

    /// Auth on any free port, seeding [`Self::admin_email`], with a key of its own made at
    /// start and no mail; a test changes what it needs with struct update syntax.
    pub fn auth_config(&self) -> AuthConfig {
        AuthConfig {
            jwt_key_file: None,
            access_token_ttl_secs: 600,
            refresh_token_ttl_secs: 3600,
            smtp_url: None,
            mail_from: "Quire <no-reply@quire.test>".into(),
            admin_email: Some(self.admin_email()),
            admin_password: Some(ADMIN_PASSWORD.to_owned().into()),
            siwe_domain: "localhost:8080".into(),
            verify_resend_secs: 60,
            login_attempts_per_address: 50,
            login_free_attempts: 50,
            login_max_delay_secs: 60,
            oidc: Default::default(),
        }
    }

    /// Catalog on any free port, its files in a temporary folder named `tag` and this
    /// test, its search index in memory, its consumer groups this test's.
    pub fn catalog_config(&self, tag: &str, auth_url: &str) -> CatalogConfig {
        let id = &self.id;
        let objects = std::env::temp_dir().join(format!("quire-{tag}-objects-{id}"));
        CatalogConfig {
            auth_url: auth_url.to_owned(),
            object_store_url: Some(format!("file://{}", objects.display())),
            search_index_dir: None,
            search_group: Some(format!("catalog-search-{tag}-{id}")),
            events_group: format!("catalog-{tag}-{id}"),
            ..CatalogConfig::default()
        }
    }

    /// The wallet on any free port, asking `catalog_url`, its consumer group this test's.
    pub fn wallet_config(&self, tag: &str, auth_url: &str, catalog_url: &str) -> WalletConfig {
        WalletConfig {
            auth_url: auth_url.to_owned(),
            catalog_url: catalog_url.to_owned(),
            events_group: format!("wallet-{tag}-{}", self.id),
            allow_instant_payments: true,
            ..WalletConfig::default()
        }
    }

    /// The manuscript service on any free port, asking `catalog_url` to make books, its
    /// files in a temporary folder named `tag` and this test, its consumer group this
    /// test's, its extraction worker the built service binary ([`manuscript_worker`]).
    pub fn manuscript_config(
        &self,
        tag: &str,
        auth_url: &str,
        catalog_url: &str,
    ) -> ManuscriptConfig {
        let id = &self.id;
        let objects = std::env::temp_dir().join(format!("quire-{tag}-manuscripts-{id}"));
        ManuscriptConfig {
            auth_url: auth_url.to_owned(),
            catalog_url: catalog_url.to_owned(),
            object_store_url: Some(format!("file://{}", objects.display())),
            events_group: format!("manuscript-{tag}-{id}"),
            manuscript_extract_worker: Some(manuscript_worker()),
            ..ManuscriptConfig::default()
        }
    }

    /// The chat service (Quinn) on any free port, searching `catalog_url`, its consumer
    /// group this test's (it follows the book and trade events from the start of the
    /// topics, as a fresh deployment does), matching lexically (no model).
    pub fn chat_config(&self, tag: &str, auth_url: &str, catalog_url: &str) -> ChatConfig {
        ChatConfig {
            auth_url: auth_url.to_owned(),
            catalog_url: catalog_url.to_owned(),
            chat_events_group: format!("chat-{tag}-{}", self.id),
            // Lexical only: a test that measures the model turns it on.
            chat_semantic: false,
            ..ChatConfig::default()
        }
    }
}

/// The manuscript service's binary, which its extraction worker runs as: the test's own
/// executable is a test binary (`target/<profile>/deps/<test>-<hash>`), the service's is
/// built beside that folder (`target/<profile>/quire-manuscript`).
/// `QUIRE_MANUSCRIPT_EXTRACT_WORKER` names another. Missing, the test stops and says how
/// to build it (`cargo test --workspace` does; `cargo test -p` of another package does
/// not).
pub fn manuscript_worker() -> std::path::PathBuf {
    if let Some(path) = std::env::var_os("QUIRE_MANUSCRIPT_EXTRACT_WORKER") {
        return path.into();
    }
    let exe = std::env::current_exe().expect("the test binary's path");
    let profile = exe
        .parent()
        .and_then(std::path::Path::parent)
        .expect("the test binary stands in target/<profile>/deps");
    let worker = profile.join("quire-manuscript");
    assert!(
        worker.is_file(),
        "the manuscript service's extraction worker {} is missing: build it first \
         (cargo build -p quire-manuscript, with the same profile and CARGO_TARGET_DIR)",
        worker.display()
    );
    worker
}

/// A service started in this process: its gRPC URL, its admin port, and what stops it.
pub struct Started {
    pub url: String,
    pub admin_port: u16,
    /// Sending stops the service, as a crash between two statements would; dropping it
    /// leaves the service running until the test binary ends.
    pub stop: oneshot::Sender<()>,
}

fn stopper() -> (
    oneshot::Sender<()>,
    impl Future<Output = ()> + Send + 'static,
) {
    let (tx, rx) = oneshot::channel::<()>();
    (tx, async move {
        if rx.await.is_err() {
            std::future::pending::<()>().await;
        }
    })
}

/// Builds `$app` (a service's `Application`) and runs it until its stopper is sent.
macro_rules! start {
    ($app:path, $what:literal, $common:expr, $config:expr) => {{
        let app = <$app>::build($common, $config).await.expect($what);
        let (url, admin_port) = (
            format!("http://127.0.0.1:{}", app.grpc_port()),
            app.admin_port(),
        );
        let (stop, stopped) = stopper();
        tokio::spawn(app.run_until(stopped));
        Started {
            url,
            admin_port,
            stop,
        }
    }};
}

pub async fn start_auth(common: CommonConfig, config: AuthConfig) -> Started {
    start!(quire_auth::Application, "auth builds", common, config)
}

pub async fn start_catalog(common: CommonConfig, config: CatalogConfig) -> Started {
    start!(quire_catalog::Application, "catalog builds", common, config)
}

pub async fn start_wallet(common: CommonConfig, config: WalletConfig) -> Started {
    start!(quire_wallet::Application, "wallet builds", common, config)
}

pub async fn start_manuscript(common: CommonConfig, config: ManuscriptConfig) -> Started {
    start!(
        quire_manuscript::Application,
        "manuscript builds",
        common,
        config
    )
}

pub async fn start_chat(common: CommonConfig, config: ChatConfig) -> Started {
    start!(quire_chat::Application, "chat builds", common, config)
}

/// A signed-in user.
#[derive(Clone, Debug)]
pub struct User {
    pub id: String,
    pub name: String,
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

/// Signs in with an email and a password over auth's gRPC.
pub async fn login(auth: &mut AuthServiceClient<Channel>, email: &str, password: &str) -> User {
    let reply = auth
        .login(auth_pb::LoginRequest {
            credentials: Some(auth_pb::login_request::Credentials::Email(
                auth_pb::EmailPassword {
                    email: email.into(),
                    password: password.into(),
                    ..Default::default()
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

/// A new user holding `roles`, made by `admin` and signed in.
pub async fn new_user(auth: &AuthServiceClient<Channel>, admin: &User, roles: &[&str]) -> User {
    let email = format!("{}-{}@quire.test", roles.join("-"), suffix());
    let password = "user-pass-123";
    auth.clone()
        .create_user(req(
            auth_pb::CreateUserRequest {
                email: email.clone(),
                username: format!("user{}", suffix()),
                password: password.into(),
                roles: roles.iter().map(|r| (*r).to_owned()).collect(),
            },
            Some(admin),
        ))
        .await
        .expect("admin creates a user");
    login(&mut auth.clone(), &email, password).await
}

/// Waits up to `secs` seconds for `check` to hold (events take a moment to arrive).
pub async fn eventually<F, Fut>(secs: u64, mut check: F) -> bool
where
    F: FnMut() -> Fut,
    Fut: Future<Output = bool>,
{
    let until = std::time::Instant::now() + std::time::Duration::from_secs(secs);
    while std::time::Instant::now() < until {
        if check().await {
            return true;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    false
}
