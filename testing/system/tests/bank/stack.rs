//! The stack under test: the test's own broker, auth and catalog in this process (each in a
//! fresh Postgres schema), the wallet as a child process on fixed ports (so it can be
//! SIGKILLed and started again where the gateway looks for it), and the real gateway in
//! front. Every service is configured the way production configures it, through its
//! `QUIRE_*` variables; the in-process ones read the same list the child gets.

use quire_kit::app::Serve as _;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use quire_kit::db::PgPool;
use quire_kit::events::topics;
use quire_proto::catalog::v1 as catalog_pb;
use quire_proto::catalog::v1::catalog_service_client::CatalogServiceClient;
use quire_test_stack::env_or;
use quire_test_stack::ledger::WalletLedger;
use serde_json::{Value, json};
use tokio::process::Command;
use uuid::Uuid;

use super::broker::Broker;
use super::process::{Supervised, free_port};
use super::settings::Settings;
use super::sign_in::{DOMAIN, EthAccount};

const ADMIN_PASSWORD: &str = "bank-admin-pass-1";

/// A signed-in user.
#[derive(Clone, Debug)]
pub struct User {
    pub id: Uuid,
    pub token: String,
}

/// A listed book: what the client knows of its price and who sells it.
#[derive(Clone, Debug)]
pub struct Book {
    pub id: Uuid,
    pub seller: Uuid,
    pub price_cents: i64,
}

/// A crowd-funding campaign for a book of `writer`'s, and its goal.
#[derive(Clone, Debug)]
pub struct Campaign {
    pub id: Uuid,
    pub writer: Uuid,
    pub book: Uuid,
    pub goal_cents: i64,
}

pub struct TestApp {
    pub dir: PathBuf,
    pub broker: Broker,
    pub wallet: Supervised,
    wallet_ready_url: String,
    /// The gateway's base URL.
    pub base: String,
    pub http: reqwest::Client,
    /// The wallet's schema (the ledger checks of `quire_test_stack::ledger` read it).
    pub pool: PgPool,
    pub catalog_db: PgPool,
    pub auth_db: PgPool,
    pub wallet_group: String,
    pub catalog_group: String,
    catalog_grpc: String,
    pub admin: User,
    services: Services,
}

/// The runtime auth, catalog and the gateway run on, apart from the test's: it is shut
/// down without waiting, before the broker dies, since a Kafka consumer closing with no
/// broker left blocks for minutes (it would hold the test's runtime as long). Dropping a
/// runtime the ordinary way inside the test's would panic, and abort a failing test.
struct Services(Option<tokio::runtime::Runtime>);

impl Services {
    fn new() -> Self {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name("bank-services")
            .enable_all()
            .build()
            .unwrap();
        Self(Some(runtime))
    }

    fn runtime(&self) -> &tokio::runtime::Runtime {
        self.0.as_ref().expect("the services run")
    }

    fn shut_down(&mut self) {
        if let Some(runtime) = self.0.take() {
            runtime.shutdown_background();
        }
    }
}

impl Drop for Services {
    fn drop(&mut self) {
        self.shut_down();
    }
}

/// Awaits a task, failing with the task's own panic.
pub async fn joined<T>(task: tokio::task::JoinHandle<T>) -> T {
    task.await
        .unwrap_or_else(|e| std::panic::resume_unwind(e.into_panic()))
}

/// Builds a service on the services' runtime and leaves it running there: `build`
/// answers its port and its run loop. Answers its URL.
async fn start<R>(
    services: &Services,
    build: impl Future<Output = (u16, R)> + Send + 'static,
) -> String
where
    R: Future + Send + 'static,
    R::Output: Send,
{
    let port = services.runtime().spawn(async move {
        let (port, run) = build.await;
        tokio::spawn(run);
        port
    });
    format!("http://127.0.0.1:{}", joined(port).await)
}

impl WalletLedger for TestApp {
    fn wallet_pool(&self) -> &PgPool {
        &self.pool
    }
}

impl TestApp {
    pub async fn spawn() -> Self {
        let id = Uuid::new_v4().simple().to_string()[..12].to_owned();
        let dir = std::env::temp_dir().join(format!("quire-bank-{id}"));
        std::fs::create_dir_all(dir.join("web")).unwrap();
        let broker = Broker::start(&dir).await;
        quire_kit::events::ensure_topics(&broker.addr, &topics::ALL)
            .await
            .expect("the topics are created");

        let database_url = env_or(
            "QUIRE_TEST_DATABASE_URL",
            "postgres://postgres@127.0.0.1:5432/quire_test",
        );
        let common = Settings::default()
            .with("DATABASE_URL", &database_url)
            .with(
                "REDIS_URL",
                env_or("QUIRE_REDIS_URL", "redis://127.0.0.1:6379"),
            )
            .with("KAFKA_BROKERS", &broker.addr)
            .with("OUTBOX_POLL_MS", "20")
            .with("DB_POOL_SIZE", "8");
        let in_process = common
            .clone()
            .with("GRPC_ADDR", "127.0.0.1:0")
            .with("ADMIN_ADDR", "127.0.0.1:0");

        let admin_email = format!("bank-admin-{id}@quire.test");
        let auth_env = in_process
            .clone()
            .with("DB_SCHEMA", format!("auth_bank_{id}"))
            .with("ADMIN_EMAIL", &admin_email)
            .with("ADMIN_PASSWORD", ADMIN_PASSWORD)
            .with("SIWE_DOMAIN", DOMAIN);
        let services = Services::new();
        let auth_url = start(&services, async move {
            let auth = quire_auth::Application::build(auth_env.parse(), auth_env.parse()).await;
            let auth = auth.expect("auth builds");
            (auth.grpc_port(), auth.run_until(std::future::pending()))
        })
        .await;

        let catalog_group = format!("bank-catalog-{id}");
        let catalog_env = in_process
            .clone()
            .with("DB_SCHEMA", format!("catalog_bank_{id}"))
            .with("AUTH_URL", &auth_url)
            .with(
                "OBJECT_STORE_URL",
                format!("file://{}/objects", dir.display()),
            )
            .with("SEARCH_GROUP", format!("bank-search-{id}"))
            .with("EVENTS_GROUP", &catalog_group);
        let catalog_grpc = start(&services, async move {
            let catalog =
                quire_catalog::Application::build(catalog_env.parse(), catalog_env.parse());
            let catalog = catalog.await.expect("catalog builds");
            (
                catalog.grpc_port(),
                catalog.run_until(std::future::pending()),
            )
        })
        .await;

        let (wallet_grpc, wallet_admin) = (free_port(), free_port());
        let wallet_group = format!("bank-wallet-{id}");
        let wallet_env = common
            .clone()
            .with("DB_SCHEMA", format!("wallet_bank_{id}"))
            .with("GRPC_ADDR", format!("127.0.0.1:{wallet_grpc}"))
            .with("ADMIN_ADDR", format!("127.0.0.1:{wallet_admin}"))
            .with("AUTH_URL", &auth_url)
            .with("CATALOG_URL", &catalog_grpc)
            .with("EVENTS_GROUP", &wallet_group)
            .with("SELLER_SHARE_PERCENT", "90")
            .with("ALLOW_INSTANT_PAYMENTS", "true")
            .with("LOG_FORMAT", "pretty");
        let wallet = Supervised::new("wallet", dir.join("wallet.log"), move || {
            // The wallet's main.rs, built as a binary of this package (see Cargo.toml).
            let mut command = Command::new(env!("CARGO_BIN_EXE_quire-system-wallet"));
            command
                .env_clear()
                .env("RUST_LOG", "info")
                .env("NO_COLOR", "1")
                .envs(wallet_env.0.iter().map(|(k, v)| (k, v)));
            command
        });

        let gateway_env = common
            .with("HTTP_HOST", "127.0.0.1")
            .with("HTTP_PORT", "0")
            .with("HTTP_WORKERS", "2")
            .with("AUTH_URL", &auth_url)
            .with("CATALOG_URL", &catalog_grpc)
            .with("WALLET_URL", format!("http://127.0.0.1:{wallet_grpc}"))
            .with("FRONTEND_DIR", dir.join("web").display().to_string())
            .with("ADMIN_ADDR", "127.0.0.1:0")
            .with("RATE_LOGIN_PER_MIN", "100000")
            .with("RATE_ANONYMOUS_PER_MIN", "1000000")
            .with("RATE_API_PER_MIN", "1000000");
        let base = start(&services, async move {
            let gateway = quire_gateway::Application::build(gateway_env.parse()).await;
            let gateway = gateway.expect("the gateway builds");
            (gateway.port(), gateway.run_until_stopped())
        })
        .await;

        let pool = |schema: &str| {
            quire_kit::db::pool(&database_url, &format!("{schema}_bank_{id}"), 4).unwrap()
        };
        let mut app = Self {
            dir,
            broker,
            wallet,
            wallet_ready_url: format!("http://127.0.0.1:{wallet_admin}/readyz"),
            base,
            // Longer than any deadline behind the gateway (30 s): a request the client
            // gave up on is never still running when the same key is sent again.
            http: reqwest::Client::builder()
                .timeout(Duration::from_secs(40))
                .build()
                .unwrap(),
            pool: pool("wallet"),
            catalog_db: pool("catalog"),
            auth_db: pool("auth"),
            wallet_group,
            catalog_group,
            catalog_grpc,
            admin: User {
                id: Uuid::nil(),
                token: String::new(),
            },
            services,
        };
        app.wallet.start();
        app.wallet_ready(Duration::from_secs(60)).await;
        let login = json!({"email": admin_email, "password": ADMIN_PASSWORD});
        app.admin = Self::signed_in(&app.call("/api/login/", Some(login), None).await);
        app
    }

    /// Waits until the wallet answers `/readyz`, starting it again whenever it exits by
    /// itself (it refuses to start while a dependency is down); answers how often it did.
    pub async fn wallet_ready(&self, within: Duration) -> u32 {
        let until = Instant::now() + within;
        let mut self_exits = 0;
        loop {
            if let Some(status) = self.wallet.exited() {
                self_exits += 1;
                eprintln!("[bank] the wallet exited by itself ({status}); starting it again");
                tokio::time::sleep(Duration::from_millis(200)).await;
                self.wallet.start();
            }
            let ready = self
                .http
                .get(&self.wallet_ready_url)
                .timeout(Duration::from_secs(1))
                .send()
                .await
                .is_ok_and(|r| r.status().is_success());
            if ready {
                return self_exits;
            }
            assert!(
                Instant::now() < until,
                "the wallet was not ready within {within:?}; its log ({}) ends:\n{}",
                self.wallet.log.display(),
                self.wallet.log_tail()
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Sends a request to the gateway and answers the envelope's `data` (set-up only: not
    /// retried, anything but a 200 fails).
    async fn call(&self, path: &str, body: Option<Value>, token: Option<&str>) -> Value {
        let url = format!("{}{path}", self.base);
        let mut request = match body {
            Some(body) => self.http.post(url).json(&body),
            None => self.http.get(url),
        };
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        let reply = request.send().await.expect("the gateway answers");
        let status = reply.status();
        let body: Value = reply.json().await.expect("a JSON envelope");
        assert!(status.is_success(), "{path}: {status} {body}");
        body["data"].clone()
    }

    fn signed_in(data: &Value) -> User {
        User {
            id: data["user"]["user_id"].as_str().unwrap().parse().unwrap(),
            token: data["access_token"].as_str().unwrap().to_owned(),
        }
    }

    /// A new user, signed in with Ethereum, with an open wallet; a writer has taken the
    /// writer role and acts in it.
    pub async fn user(&self, writer: bool) -> User {
        let account = EthAccount::new();
        let nonce = self.call("/api/login/nonce", None, None).await;
        let message = account.message(nonce["nonce"].as_str().unwrap());
        let wallet = json!({"message": message, "signature": account.sign(&message)});
        let login = json!({ "wallet": wallet });
        let mut user = Self::signed_in(&self.call("/api/login/", Some(login), None).await);
        if writer {
            let token = Some(user.token.as_str());
            let role = json!({"role": "writer"});
            self.call("/api/users/add-role/", Some(role), token).await;
            let switch = json!({"new_role": "writer"});
            let data = self
                .call("/api/users/me/switch-role/", Some(switch), token)
                .await;
            user.token = data["access_token"].as_str().unwrap().to_owned();
        }
        self.call("/api/wallet/open", Some(json!({})), Some(&user.token))
            .await;
        user
    }

    /// A book by `writer` at `price_cents`, listed in the shop (books are created over
    /// catalog's gRPC API: there is no REST route for it yet).
    pub async fn book(&self, writer: &User, price_cents: i64) -> Book {
        use quire_fixtures::build::{BookFormat, BookMeta, ChapterText};
        let title = format!("Double Entry {}", Uuid::new_v4().simple());
        let text = vec!["Every coin that came in was written down twice.".to_owned()];
        let chapters = [ChapterText::new("Debits and credits", text)];
        let file = quire_fixtures::build::file(
            BookFormat::Txt,
            &BookMeta::new(&title, &["Ada"]),
            &chapters,
        )
        .unwrap();
        let mut request = tonic::Request::new(catalog_pb::CreateBookRequest {
            title,
            price_cents,
            genre: "Fiction".into(),
            files: vec![catalog_pb::UploadedFile {
                file_name: "book.txt".into(),
                data: file,
            }],
            publish: true,
            ..Default::default()
        });
        let bearer = format!("Bearer {}", writer.token);
        request
            .metadata_mut()
            .insert("authorization", bearer.parse().unwrap());
        let book = CatalogServiceClient::connect(self.catalog_grpc.clone())
            .await
            .unwrap()
            .create_book(request)
            .await
            .expect("catalog creates the book")
            .into_inner();
        Book {
            id: book.book_id.parse().unwrap(),
            seller: writer.id,
            price_cents,
        }
    }
}

impl TestApp {
    /// A campaign of `writer`'s for a new book of theirs (one no customer buys in the
    /// shop), running for a day: it ends by a close, its writer's or the admin's.
    pub async fn campaign(&self, writer: &User, goal_cents: i64) -> Campaign {
        let book = self.book(writer, 500).await;
        let goal = format!("{}.{:02}", goal_cents / 100, goal_cents % 100);
        let body = json!({"book_id": book.id.to_string(), "goal": goal, "days": 1});
        let data = self
            .call("/api/crowdfunding", Some(body), Some(&writer.token))
            .await;
        assert_eq!(data["status"], "open", "{data}");
        Campaign {
            id: data["campaign_id"].as_str().unwrap().parse().unwrap(),
            writer: writer.id,
            book: book.id,
            goal_cents,
        }
    }
}

impl Drop for TestApp {
    fn drop(&mut self) {
        self.services.shut_down();
        // The children die with their `Supervised` handles; the logs stay for a failure.
        if std::thread::panicking() {
            eprintln!("[bank] logs kept in {}", self.dir.display());
        } else {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}
