//! A whole stack per test: the real auth, catalog, wallet, manuscript and chat services (each in its own
//! fresh Postgres schema; catalog's files in a temporary folder, its search index in
//! memory), the real gateway in front of them, the shared Redis and Kafka broker, and an SMTP sink
//! that catches the mails auth sends.

use std::net::TcpListener;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use quire_gateway::GatewayConfig;
use quire_kit::events::topics;
use quire_test_stack::configs::{AuthConfig, CatalogConfig, WalletConfig};
use quire_test_stack::{
    TestEnv, start_auth, start_catalog, start_chat, start_manuscript, start_wallet,
};
use rdkafka::consumer::{BaseConsumer, CommitMode, Consumer};
use rdkafka::{ClientConfig, Offset, TopicPartitionList};
use serde_json::{Value, json};
use uuid::Uuid;

pub const ADMIN_PASSWORD: &str = "admin-pass-123";
/// What an inviter earns when the user they invited registers (1.50).
pub const REWARD_REGISTERED_CENTS: i64 = 150;

/// One caught mail: its recipients and its raw text.
type Mail = (Vec<String>, String);

/// Mails caught by the sink.
#[derive(Clone, Default)]
pub struct MailBox(Arc<Mutex<Vec<Mail>>>);

#[derive(Clone)]
struct Sink {
    mails: MailBox,
    to: Vec<String>,
    data: Vec<u8>,
}

impl mailin_embedded::Handler for Sink {
    fn data_start(
        &mut self,
        _: &str,
        _: &str,
        _: bool,
        to: &[String],
    ) -> mailin_embedded::Response {
        self.to = to.to_vec();
        self.data.clear();
        mailin_embedded::response::OK
    }
    fn data(&mut self, buf: &[u8]) -> std::io::Result<()> {
        self.data.extend_from_slice(buf);
        Ok(())
    }
    fn data_end(&mut self) -> mailin_embedded::Response {
        let text = String::from_utf8_lossy(&self.data).into_owned();
        self.mails.0.lock().unwrap().push((self.to.clone(), text));
        mailin_embedded::response::OK
    }
}

impl MailBox {
    /// Starts an SMTP sink on a free port; returns the port.
    fn serve(&self) -> u16 {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let mut server = mailin_embedded::Server::new(Sink {
            mails: self.clone(),
            to: vec![],
            data: vec![],
        });
        server
            .with_name("sink.test")
            .with_ssl(mailin_embedded::SslConfig::None)
            .unwrap()
            .with_tcp_listener(listener);
        std::thread::spawn(move || {
            let _ = server.serve();
        });
        port
    }

    /// The newest 6-digit code mailed to `email`, waiting up to 5 s for it.
    pub async fn code_for(&self, email: &str) -> String {
        for _ in 0..50 {
            let found = self.0.lock().unwrap().iter().rev().find_map(|(to, text)| {
                to.iter().any(|t| t.contains(email)).then(|| {
                    let after = text.split("verification code is ").nth(1)?;
                    Some(after.chars().take(6).collect::<String>())
                })?
            });
            if let Some(code) = found {
                return code;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        panic!("no verification mail reached {email}");
    }

    pub fn count_for(&self, email: &str) -> usize {
        self.0
            .lock()
            .unwrap()
            .iter()
            .filter(|(to, _)| to.iter().any(|t| t.contains(email)))
            .count()
    }
}

pub struct TestApp {
    pub base: String,
    /// The gateway's admin port: `/healthz`, `/readyz`, `/metrics`.
    pub admin_base: String,
    /// The address every request of this test comes from (its `X-Forwarded-For`).
    pub client_ip: String,
    pub http: reqwest::Client,
    pub mails: MailBox,
    pub admin_email: String,
    pub auth_grpc: String,
    pub catalog_grpc: String,
    /// The gateway's settings, for a test that starts a second gateway beside it.
    pub gateway_config: GatewayConfig,
    pub schema: String,
    pub database_url: String,
    pub brokers: String,
    pub key_file: std::path::PathBuf,
}

#[derive(Clone, Copy)]
pub struct Limits {
    pub login_per_min: u32,
    pub verify_per_min: u32,
    pub api_per_min: u32,
    pub upload_per_min: u32,
    /// Chat turns and recommendations per user.
    pub chat_per_min: u32,
    pub anonymous_per_min: u32,
    pub body_timeout_secs: u64,
    pub json_limit: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            login_per_min: 1000,
            verify_per_min: 1000,
            api_per_min: 10_000,
            upload_per_min: 1000,
            chat_per_min: 1000,
            anonymous_per_min: 10_000,
            body_timeout_secs: 30,
            json_limit: 64 * 1024,
        }
    }
}

impl TestApp {
    pub async fn spawn() -> Self {
        Self::spawn_with(Limits::default()).await
    }

    pub async fn spawn_with(limits: Limits) -> Self {
        Self::spawn_on_redis(limits, None, None).await
    }

    /// The stack with the services on `services_redis` and the gateway on `gateway_redis`
    /// instead of the shared Redis (one the test may stop, or a port where none listens:
    /// the gateway starts without Redis, auth does not).
    pub async fn spawn_on_redis(
        limits: Limits,
        services_redis: Option<String>,
        gateway_redis: Option<String>,
    ) -> Self {
        let mut env = TestEnv::new("quire-tests");
        if let Some(url) = services_redis {
            env.redis_url = url;
        }
        let schema = format!("auth_t_{}", env.id);
        let mails = MailBox::default();
        let smtp_port = mails.serve();
        let admin_email = env.admin_email();
        let key_file = std::env::temp_dir().join(format!("quire-jwt-{schema}.pem"));
        let auth_grpc = start_auth(
            env.common(&schema, 8),
            AuthConfig {
                jwt_key_file: Some(key_file.to_string_lossy().into_owned()),
                smtp_url: Some(format!("smtp://127.0.0.1:{smtp_port}")),
                login_attempts_per_address: 5,
                login_free_attempts: 5,
                ..env.auth_config()
            },
        )
        .await
        .url;

        // Catalog asks the wallet about purchases its projection has not seen, and the
        // wallet asks catalog for prices: the wallet's port is chosen before either starts,
        // and held until the wallet binds it (the wallet binds first thing), so nothing
        // catalog opens meanwhile can take it.
        let reserved = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let wallet_port = reserved.local_addr().unwrap().port();
        let catalog_grpc = start_catalog(
            env.common(&format!("catalog_t_{}", env.id), 8),
            CatalogConfig {
                wallet_url: format!("http://127.0.0.1:{wallet_port}"),
                ..env.catalog_config("gw", &auth_grpc)
            },
        )
        .await
        .url;
        drop(reserved);
        let wallet_grpc = start_wallet(
            quire_kit::config::CommonConfig {
                grpc_addr: Some(format!("127.0.0.1:{wallet_port}")),
                ..env.common(&format!("wallet_t_{}", env.id), 8)
            },
            WalletConfig {
                seller_share_percent: 90,
                reward_registered_cents: REWARD_REGISTERED_CENTS,
                ..env.wallet_config("gw", &auth_grpc, &catalog_grpc)
            },
        )
        .await
        .url;
        let manuscript_config = env.manuscript_config("gw", &auth_grpc, &catalog_grpc);
        // Pricing and analytics follow the shop in a fresh consumer group, which would read
        // every event other tests ever left on the shared broker before this test's own.
        start_at_end(
            &env.brokers,
            &manuscript_config.analytics_group(),
            &[topics::BOOK, topics::TRADE, topics::CAMPAIGN],
        );
        let manuscript_grpc = start_manuscript(
            env.common(&format!("manuscript_t_{}", env.id), 8),
            manuscript_config,
        )
        .await
        .url;
        let chat_grpc = start_chat(
            env.common(&format!("chat_t_{}", env.id), 8),
            env.chat_config("gw", &auth_grpc, &catalog_grpc),
        )
        .await
        .url;
        let redis_url = gateway_redis.unwrap_or(env.redis_url);
        let (database_url, brokers) = (env.database_url, env.brokers);

        let frontend = std::env::temp_dir().join(format!("quire-web-{schema}"));
        std::fs::create_dir_all(&frontend).unwrap();
        std::fs::write(
            frontend.join("index.html"),
            "<!doctype html><title>Quire</title><div id=root></div>",
        )
        .unwrap();
        let gateway_config = GatewayConfig {
            http_host: "127.0.0.1".into(),
            http_port: 0,
            auth_url: auth_grpc.clone(),
            catalog_url: catalog_grpc.clone(),
            wallet_url: wallet_grpc.clone(),
            manuscript_url: manuscript_grpc.clone(),
            chat_url: chat_grpc,
            redis_url,
            frontend_dir: frontend.to_string_lossy().into_owned(),
            json_limit_bytes: limits.json_limit,
            upload_limit_bytes: 5 * 1024 * 1024,
            manuscript_limit_bytes: 50 * 1024 * 1024,
            trusted_proxy_hops: 1,
            rate_login_per_min: limits.login_per_min,
            rate_verify_per_min: limits.verify_per_min,
            rate_api_per_min: limits.api_per_min,
            rate_upload_per_min: limits.upload_per_min,
            rate_chat_per_min: limits.chat_per_min,
            rate_anonymous_per_min: limits.anonymous_per_min,
            // An admin's rate limit change reaches a second gateway within this.
            settings_refresh_ms: 100,
            body_timeout_secs: limits.body_timeout_secs,
            admin_addr: "127.0.0.1:0".into(),
            http_workers: 1,
        };
        let gateway = quire_gateway::Application::build(gateway_config.clone())
            .await
            .expect("gateway builds");
        let base = format!("http://127.0.0.1:{}", gateway.port());
        let admin_base = format!("http://127.0.0.1:{}", gateway.admin_port());
        tokio::spawn(gateway.run_until_stopped());

        // Rate limits count per client address: give each test its own.
        let mut headers = reqwest::header::HeaderMap::new();
        let ip = format!("198.18.{}.{}", rand::random::<u8>(), rand::random::<u8>());
        // As an ingress would write it: the address it saw, appended last.
        headers.insert("x-forwarded-for", ip.parse().unwrap());
        headers.insert("x-test-schema", schema.parse().unwrap());
        let http = reqwest::Client::builder()
            .default_headers(headers)
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap();
        Self {
            base,
            admin_base,
            client_ip: ip,
            http,
            mails,
            admin_email,
            auth_grpc,
            catalog_grpc,
            gateway_config,
            schema,
            database_url,
            brokers,
            key_file,
        }
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// Sends a request and returns the status and the parsed JSON body.
    pub async fn send(&self, rb: reqwest::RequestBuilder) -> (u16, Value) {
        let r = rb.send().await.expect("request reaches the gateway");
        let status = r.status().as_u16();
        let text = r.text().await.unwrap();
        let body =
            serde_json::from_str(&text).unwrap_or_else(|_| panic!("not JSON ({status}): {text}"));
        (status, body)
    }

    pub async fn post(&self, path: &str, body: Value, token: Option<&str>) -> (u16, Value) {
        let mut rb = self.http.post(self.url(path)).json(&body);
        if let Some(t) = token {
            rb = rb.bearer_auth(t);
        }
        self.send(rb).await
    }

    pub async fn get(&self, path: &str, token: Option<&str>) -> (u16, Value) {
        let mut rb = self.http.get(self.url(path));
        if let Some(t) = token {
            rb = rb.bearer_auth(t);
        }
        self.send(rb).await
    }

    /// Asks for a verification code for `email` and reads it from the mail.
    pub async fn mailed_code(&self, email: &str) -> String {
        let (s, body) = self
            .post(
                &format!("/api/send_verify_email?email={email}"),
                json!({}),
                None,
            )
            .await;
        assert_eq!(s, 200, "{body}");
        self.mails.code_for(email).await
    }

    /// Asks `route` (a password reset's, a sign-in's) to mail a code to `email`, and reads
    /// the code from the mail that follows.
    pub async fn code_mailed_by(&self, route: &str, email: &str) -> String {
        let before = self.mails.count_for(email);
        let (s, body) = self.post(route, json!({"email": email}), None).await;
        assert_eq!(s, 200, "{body}");
        assert_eq!(body["data"]["sent"], true, "{body}");
        for _ in 0..50 {
            if self.mails.count_for(email) > before {
                return self.mails.code_for(email).await;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        panic!("no mail from {route} reached {email}");
    }

    /// Registers `email` through the real verification mail; returns the user.
    pub async fn register(&self, email: &str, password: &str, invite: Option<&str>) -> Value {
        let code = self.mailed_code(email).await;
        let mut req =
            json!({"email": email, "password": password, "username": "Ada", "verify_code": code});
        if let Some(i) = invite {
            req["invite_code"] = json!(i);
        }
        let (s, body) = self.post("/api/register/", req, None).await;
        assert_eq!(s, 200, "{body}");
        body["data"].clone()
    }

    /// Logs in and returns (access token, refresh token, user).
    pub async fn login(&self, email: &str, password: &str) -> (String, String, Value) {
        let (s, body) = self
            .post(
                "/api/login/",
                json!({"email": email, "password": password}),
                None,
            )
            .await;
        assert_eq!(s, 200, "{body}");
        let d = &body["data"];
        (
            d["access_token"].as_str().unwrap().to_owned(),
            d["refresh_token"].as_str().unwrap().to_owned(),
            d["user"].clone(),
        )
    }

    /// A registered, logged-in reader: (email, access token, user).
    pub async fn reader(&self) -> (String, String, Value) {
        let email = unique_email();
        self.register(&email, "reader-pass-1", None).await;
        let (token, _, user) = self.login(&email, "reader-pass-1").await;
        (email, token, user)
    }

    pub async fn admin_token(&self) -> String {
        self.login(&self.admin_email.clone(), ADMIN_PASSWORD)
            .await
            .0
    }
}

/// Commits `group`'s offsets at the end of `topics` (those the broker has), so that a
/// service started next in that group begins with what this test produces. Best effort: a
/// broker too busy to answer leaves the group to read from the start (slower, still right).
fn start_at_end(brokers: &str, group: &str, topics: &[&str]) {
    let moved = || -> Result<(), rdkafka::error::KafkaError> {
        let consumer: BaseConsumer = ClientConfig::new()
            .set("bootstrap.servers", brokers)
            .set("group.id", group)
            .set("enable.auto.commit", "false")
            .create()?;
        let mut ends = TopicPartitionList::new();
        for topic in topics {
            let meta = consumer.fetch_metadata(Some(topic), Duration::from_secs(10))?;
            let partitions = meta.topics().first().map_or(0, |t| t.partitions().len());
            for p in 0..partitions as i32 {
                let (_, high) = consumer.fetch_watermarks(topic, p, Duration::from_secs(10))?;
                ends.add_partition_offset(topic, p, Offset::Offset(high))?;
            }
        }
        if ends.count() > 0 {
            consumer.commit(&ends, CommitMode::Sync)?;
        }
        Ok(())
    };
    if let Err(e) = moved() {
        eprintln!("{group} reads its topics from the start: {e}");
    }
}

/// A port where nothing listens: a service that is down.
pub fn closed_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

pub fn unique_email() -> String {
    format!(
        "u{}@example.org",
        &Uuid::new_v4().simple().to_string()[..16]
    )
}

/// Asserts a failure envelope of DESIGN.md section 4.
pub fn assert_failure(status: u16, body: &Value, expected_status: u16, message: Option<&str>) {
    assert_eq!(status, expected_status, "unexpected status, body: {body}");
    assert_eq!(body["code"], expected_status, "{body}");
    assert_eq!(body["success"], false, "{body}");
    assert!(body["error"].is_string(), "{body}");
    assert_eq!(body["message"], body["detail"], "{body}");
    assert_eq!(body["data"]["reason"], body["message"], "{body}");
    if let Some(m) = message {
        assert_eq!(body["message"], m, "{body}");
    }
}

/// Asserts a 400 envelope whose message names `field`.
pub fn assert_bad_input(status: u16, body: &Value, field: &str) {
    assert_failure(status, body, 400, None);
    let message = body["message"].as_str().unwrap_or_default();
    assert!(message.contains(field), "{field} not named: {body}");
}
