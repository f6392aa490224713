//! The stack of the replicas test: the test's own broker, auth in this process, two
//! replicas each of catalog, wallet and chat as child processes on ports of their own (so
//! that one can be SIGKILLed and started again where the others look for it), and the
//! real gateway in front. Every caller names all the replicas of a service in one URL
//! (`http://127.0.0.1:a,http://127.0.0.1:b`), so the balancing under test is the one
//! production runs (quire_kit::upstream), fed here by a list instead of a headless
//! Service's DNS answer.
//!
//! The replicas of a service share its schema and its consumer group for the tables it
//! writes once; each has its own group for what each replica keeps in memory (catalog's
//! search index, chat's index), as the Kubernetes manifests configure them.

use std::time::{Duration, Instant};

use quire_kit::app::Serve as _;
use quire_kit::db::PgPool;
use quire_kit::events::topics;
use quire_test_stack::env_or;
use serde_json::{Value, json};
use tokio::process::Command;
use uuid::Uuid;

use crate::broker::Broker;
use crate::process::{Supervised, free_port};
use crate::settings::Settings;
use crate::sign_in::{DOMAIN, EthAccount};

/// A signed-in user.
#[derive(Clone, Debug)]
pub struct User {
    pub id: Uuid,
    pub token: String,
}

/// One replica of a service: its process and where it answers.
pub struct Replica {
    pub process: Supervised,
    pub grpc: String,
    ready: String,
}

impl Replica {
    fn new(
        name: &'static str,
        dir: &std::path::Path,
        binary: &'static str,
        env: Settings,
        grpc: u16,
    ) -> Self {
        let admin = free_port();
        let env = env
            .with("GRPC_ADDR", format!("127.0.0.1:{grpc}"))
            .with("ADMIN_ADDR", format!("127.0.0.1:{admin}"));
        let log = dir.join(format!("{name}-{grpc}.log"));
        let process = Supervised::new(name, log, move || {
            let mut command = Command::new(binary);
            command
                .env_clear()
                .env("RUST_LOG", "info")
                .env("NO_COLOR", "1")
                .envs(env.0.iter().map(|(k, v)| (k, v)));
            command
        });
        Self {
            process,
            grpc: format!("http://127.0.0.1:{grpc}"),
            ready: format!("http://127.0.0.1:{admin}/readyz"),
        }
    }

    /// Waits until the replica answers `/readyz`.
    pub async fn until_ready(&self, http: &reqwest::Client) {
        let until = Instant::now() + Duration::from_secs(90);
        loop {
            let ready = http
                .get(&self.ready)
                .timeout(Duration::from_secs(1))
                .send()
                .await
                .is_ok_and(|r| r.status().is_success());
            if ready {
                return;
            }
            if let Some(status) = self.process.exited() {
                panic!(
                    "{} exited ({status}); its log ends:\n{}",
                    self.process.name,
                    self.process.log_tail()
                );
            }
            assert!(
                Instant::now() < until,
                "{} was not ready in time; its log ends:\n{}",
                self.process.name,
                self.process.log_tail()
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// SIGKILL, and started again at once on the same ports; waits until it is ready.
    pub async fn crash_and_restart(&self, http: &reqwest::Client) {
        self.process.kill().await;
        self.process.start();
        self.until_ready(http).await;
    }
}

/// Two replicas of one service.
pub struct Pair(pub [Replica; 2]);

impl Pair {
    /// Both replicas, as one upstream URL.
    pub fn url(&self) -> String {
        format!("{},{}", self.0[0].grpc, self.0[1].grpc)
    }

    /// Starts the first, then the second (only the first applies the migrations).
    async fn start(&self, http: &reqwest::Client) {
        for replica in &self.0 {
            replica.process.start();
            replica.until_ready(http).await;
        }
    }
}

pub struct TestApp {
    /// Lives as long as the test (dropped, it is killed).
    _broker: Broker,
    /// The stack's own Redis, so that the test can kill it without touching anyone else's.
    pub redis: Supervised,
    pub catalog: Pair,
    pub wallet: Pair,
    pub chat: Pair,
    /// The gateway's base URL.
    pub base: String,
    pub http: reqwest::Client,
    pub catalog_db: PgPool,
    pub wallet_db: PgPool,
    pub chat_db: PgPool,
    /// The runtime auth and the gateway run on (shut down without waiting, before the
    /// broker dies: a Kafka client closing with no broker left blocks for minutes).
    services: Option<tokio::runtime::Runtime>,
}

impl Drop for TestApp {
    fn drop(&mut self) {
        if let Some(runtime) = self.services.take() {
            runtime.shutdown_background();
        }
    }
}

const ADMIN_PASSWORD: &str = "replicas-admin-pass-1";

impl TestApp {
    pub async fn spawn() -> Self {
        let id = Uuid::new_v4().simple().to_string()[..12].to_owned();
        let dir = std::env::temp_dir().join(format!("quire-replicas-{id}"));
        std::fs::create_dir_all(dir.join("web")).unwrap();
        let broker = Broker::start(&dir).await;
        quire_kit::events::ensure_topics(&broker.addr, &topics::ALL)
            .await
            .expect("the topics are created");
        let redis = own_redis(&dir).await;
        let http = reqwest::Client::builder()
            .timeout(Duration::from_secs(40))
            .build()
            .unwrap();
        let database_url = env_or(
            "QUIRE_TEST_DATABASE_URL",
            "postgres://postgres@127.0.0.1:5432/quire_test",
        );
        let common = Settings::default()
            .with("DATABASE_URL", &database_url)
            .with("REDIS_URL", format!("redis://127.0.0.1:{}", redis.1))
            .with("KAFKA_BROKERS", &broker.addr)
            .with("OUTBOX_POLL_MS", "20")
            .with("DB_POOL_SIZE", "4")
            .with("LOG_FORMAT", "pretty");

        let services = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name("replicas-services")
            .enable_all()
            .build()
            .unwrap();
        let admin_email = format!("replicas-admin-{id}@quire.test");
        let auth_env = common
            .clone()
            .with("GRPC_ADDR", "127.0.0.1:0")
            .with("ADMIN_ADDR", "127.0.0.1:0")
            .with("DB_SCHEMA", format!("auth_rep_{id}"))
            .with("ADMIN_EMAIL", &admin_email)
            .with("ADMIN_PASSWORD", ADMIN_PASSWORD)
            .with("SIWE_DOMAIN", DOMAIN);
        let auth_port = services
            .spawn(async move {
                let auth = quire_auth::Application::build(auth_env.parse(), auth_env.parse());
                let auth = auth.await.expect("auth builds");
                let port = auth.grpc_port();
                tokio::spawn(auth.run_until(std::future::pending()));
                port
            })
            .await
            .unwrap();
        let auth_url = format!("http://127.0.0.1:{auth_port}");

        // The ports are chosen before any replica starts, so that each service can name
        // the replicas of the others.
        let schema = |s: &str| format!("{s}_rep_{id}");
        let pair = |make: &dyn Fn(usize) -> Replica| Pair([make(0), make(1)]);
        let catalog_base = common
            .clone()
            .with("DB_SCHEMA", schema("catalog"))
            .with("AUTH_URL", &auth_url)
            .with(
                "OBJECT_STORE_URL",
                format!("file://{}/objects", dir.display()),
            )
            .with("EVENTS_GROUP", format!("rep-catalog-{id}"));
        // Catalog asks the wallet and the wallet asks catalog: the wallet's ports are
        // chosen first.
        let wallet_ports = [free_port(), free_port()];
        let wallet_url = format!(
            "http://127.0.0.1:{},http://127.0.0.1:{}",
            wallet_ports[0], wallet_ports[1]
        );
        let catalog = pair(&|n| {
            let env = catalog_base
                .clone()
                .with("WALLET_URL", &wallet_url)
                .with("SEARCH_GROUP", format!("rep-search-{id}-{n}"));
            let binary = env!("CARGO_BIN_EXE_quire-system-catalog");
            Replica::new("catalog", &dir, binary, env, free_port())
        });
        let wallet = pair(&|n| {
            let env = common
                .clone()
                .with("DB_SCHEMA", schema("wallet"))
                .with("AUTH_URL", &auth_url)
                .with("CATALOG_URL", catalog.url())
                .with("EVENTS_GROUP", format!("rep-wallet-{id}"))
                .with("SELLER_SHARE_PERCENT", "90")
                .with("ALLOW_INSTANT_PAYMENTS", "true");
            let binary = env!("CARGO_BIN_EXE_quire-system-wallet");
            // The wallet listens where the catalog was told it would.
            Replica::new("wallet", &dir, binary, env, wallet_ports[n])
        });
        let chat = pair(&|n| {
            let env = common
                .clone()
                .with("DB_SCHEMA", schema("chat"))
                .with("AUTH_URL", &auth_url)
                .with("CATALOG_URL", catalog.url())
                .with("CHAT_EVENTS_GROUP", format!("rep-chat-{id}-{n}"))
                .with("CHAT_SEMANTIC", "false");
            let binary = env!("CARGO_BIN_EXE_quire-system-chat");
            Replica::new("chat", &dir, binary, env, free_port())
        });
        catalog.start(&http).await;
        wallet.start(&http).await;
        chat.start(&http).await;

        let gateway_env = common
            .with("HTTP_HOST", "127.0.0.1")
            .with("HTTP_PORT", "0")
            .with("HTTP_WORKERS", "2")
            .with("ADMIN_ADDR", "127.0.0.1:0")
            .with("AUTH_URL", &auth_url)
            .with("CATALOG_URL", catalog.url())
            .with("WALLET_URL", wallet.url())
            .with("CHAT_URL", chat.url())
            // Not in this stack: its routes answer 503 (manuscript_unavailable).
            .with(
                "MANUSCRIPT_URL",
                format!("http://127.0.0.1:{}", free_port()),
            )
            .with("FRONTEND_DIR", dir.join("web").display().to_string())
            .with("RATE_LOGIN_PER_MIN", "100000")
            .with("RATE_ANONYMOUS_PER_MIN", "1000000")
            .with("RATE_API_PER_MIN", "1000000");
        let port = services
            .spawn(async move {
                let gateway = quire_gateway::Application::build(gateway_env.parse()).await;
                let gateway = gateway.expect("the gateway builds");
                let port = gateway.port();
                tokio::spawn(gateway.run_until_stopped());
                port
            })
            .await
            .unwrap();

        let pool = |s: &str| quire_kit::db::pool(&database_url, &schema(s), 4).expect("a pool");
        let app = Self {
            catalog_db: pool("catalog"),
            wallet_db: pool("wallet"),
            chat_db: pool("chat"),
            _broker: broker,
            redis: redis.0,
            catalog,
            wallet,
            chat,
            base: format!("http://127.0.0.1:{port}"),
            http,
            services: Some(services),
        };
        let login = json!({"email": admin_email, "password": ADMIN_PASSWORD});
        app.post("/api/login/", &login, None).await;
        app
    }

    /// A set-up call through the gateway, not retried: anything but a 200 fails.
    pub async fn post(&self, path: &str, body: &Value, token: Option<&str>) -> Value {
        let mut request = self.http.post(format!("{}{path}", self.base)).json(body);
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        let reply = request.send().await.expect("the gateway answers");
        let status = reply.status();
        let body: Value = reply.json().await.expect("a JSON envelope");
        assert!(status.is_success(), "{path}: {status} {body}");
        body["data"].clone()
    }

    async fn get(&self, path: &str) -> Value {
        let reply = self.http.get(format!("{}{path}", self.base)).send().await;
        let reply = reply.expect("the gateway answers");
        let status = reply.status();
        let body: Value = reply.json().await.expect("a JSON envelope");
        assert!(status.is_success(), "{path}: {status} {body}");
        body["data"].clone()
    }

    /// A new user signed in with Ethereum, with an open wallet; a writer acts as one.
    pub async fn user(&self, writer: bool) -> User {
        let account = EthAccount::new();
        let nonce = self.get("/api/login/nonce").await;
        let message = account.message(nonce["nonce"].as_str().unwrap());
        let wallet = json!({"message": message, "signature": account.sign(&message)});
        let data = self
            .post("/api/login/", &json!({ "wallet": wallet }), None)
            .await;
        let mut user = User {
            id: data["user"]["user_id"].as_str().unwrap().parse().unwrap(),
            token: data["access_token"].as_str().unwrap().to_owned(),
        };
        if writer {
            let token = Some(user.token.as_str());
            self.post("/api/users/add-role/", &json!({"role": "writer"}), token)
                .await;
            let switch = json!({"new_role": "writer"});
            let data = self
                .post("/api/users/me/switch-role/", &switch, token)
                .await;
            user.token = data["access_token"].as_str().unwrap().to_owned();
        }
        self.post("/api/wallet/open", &json!({}), Some(&user.token))
            .await;
        user
    }
}

/// A redis-server of the stack's own on a free port, keeping nothing on disk; answers it and
/// its port once it accepts connections.
async fn own_redis(dir: &std::path::Path) -> (Supervised, u16) {
    let port = free_port();
    let redis = Supervised::new("redis", dir.join("redis.log"), move || {
        let mut command = Command::new("redis-server");
        command.args([
            "--port",
            &port.to_string(),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
        ]);
        command
    });
    redis.start();
    let until = Instant::now() + Duration::from_secs(10);
    while tokio::net::TcpStream::connect(("127.0.0.1", port))
        .await
        .is_err()
    {
        assert!(
            Instant::now() < until,
            "redis-server did not start on {port}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    (redis, port)
}
