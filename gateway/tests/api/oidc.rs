//! Sign-in through an OpenID Connect provider, against a real one: `oidc-provider` from npm
//! (testing/oidc-provider, `npm ci` there first), started on loopback by each test, with the
//! real auth service and gateway in front. The provider has no login page: the account
//! is the `login_hint` a test adds to the authorization URL, and what that address starts
//! with decides what the provider does (an unverified e-mail, a tampered ID token).

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use quire_gateway::GatewayConfig;
use quire_proto::auth::v1 as pb;
use quire_proto::auth::v1::auth_service_client::AuthServiceClient;
use quire_test_stack::configs::{AuthConfig, OidcSettings};
use quire_test_stack::{ADMIN_PASSWORD, TestEnv, User, channel, req};
use reqwest::Url;
use reqwest::header::{COOKIE, LOCATION, SET_COOKIE};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};

use crate::support::{assert_bad_input, assert_failure, closed_port};

const CLIENT_ID: &str = "quire-tests";
const CLIENT_SECRET: &str = "a-client-secret-for-the-tests";
/// Where the provider sends the browser back: the web app's page, which a test never
/// loads (it reads the code and state off the redirect).
const REDIRECT_URI: &str = "http://127.0.0.1:18080/platform/login/oidc";

const EXPIRED: &str = "Sign-in expired or was not started here, try again";
const NOT_CONFIRMED: &str = "Your provider did not confirm this sign-in, try again";

/// The provider, stopped when dropped.
struct Provider {
    issuer: String,
    _process: Child,
}

async fn provider() -> Provider {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../testing/oidc-provider");
    let mut process = Command::new("node")
        .arg("server.mjs")
        .current_dir(&dir)
        .env("PORT", "0")
        .env("CLIENT_ID", CLIENT_ID)
        .env("CLIENT_SECRET", CLIENT_SECRET)
        .env("REDIRECT_URIS", REDIRECT_URI)
        .stdout(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("node runs testing/oidc-provider/server.mjs");
    let stdout = process.stdout.take().unwrap();
    let mut lines = BufReader::new(stdout).lines();
    let ready = tokio::time::timeout(Duration::from_secs(60), async {
        while let Some(line) = lines.next_line().await.unwrap() {
            if let Some(issuer) = line.strip_prefix("ready ") {
                return issuer.to_owned();
            }
        }
        panic!(
            "the provider exited before it was ready (did `npm ci` run in testing/oidc-provider?)"
        );
    })
    .await
    .expect("the provider starts within a minute");
    // Keep reading what it prints: a closed pipe would make its next line kill it.
    tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
    Provider {
        issuer: ready,
        _process: process,
    }
}

/// Auth (with the provider, or with none) and the gateway in front of it. Only auth is
/// behind the gateway: nothing here asks another service.
struct Stack {
    base: String,
    http: reqwest::Client,
    auth: AuthServiceClient<tonic::transport::Channel>,
    admin_email: String,
    _provider: Option<Provider>,
}

impl Stack {
    async fn with_provider() -> Self {
        Self::launch(Some(provider().await)).await
    }

    async fn without_provider() -> Self {
        Self::launch(None).await
    }

    async fn launch(provider: Option<Provider>) -> Self {
        let env = TestEnv::new("quire-tests");
        let schema = format!("auth_t_{}", env.id);
        let oidc = match &provider {
            Some(p) => OidcSettings {
                oidc_issuer: Some(p.issuer.clone()),
                oidc_client_id: Some(CLIENT_ID.into()),
                oidc_client_secret: Some(CLIENT_SECRET.to_owned().into()),
                oidc_display_name: "Example ID".into(),
                oidc_redirect_uris: format!("http://127.0.0.1:1/elsewhere, {REDIRECT_URI}"),
            },
            None => OidcSettings::default(),
        };
        // Runs until the test binary ends (its stopper is dropped).
        let auth_url = quire_test_stack::start_auth(
            env.common(&schema, 4),
            AuthConfig {
                oidc,
                ..env.auth_config()
            },
        )
        .await
        .url;
        let nowhere = format!("http://127.0.0.1:{}", closed_port());
        let frontend = std::env::temp_dir().join(format!("quire-web-{schema}"));
        std::fs::create_dir_all(&frontend).unwrap();
        std::fs::write(
            frontend.join("index.html"),
            "<!doctype html><title>Quire</title>",
        )
        .unwrap();
        let gateway = quire_gateway::Application::build(GatewayConfig {
            http_host: "127.0.0.1".into(),
            http_port: 0,
            auth_url: auth_url.clone(),
            catalog_url: nowhere.clone(),
            wallet_url: nowhere.clone(),
            manuscript_url: nowhere.clone(),
            chat_url: nowhere,
            redis_url: env.redis_url.clone(),
            frontend_dir: frontend.to_string_lossy().into_owned(),
            trusted_proxy_hops: 1,
            rate_login_per_min: 1000,
            rate_anonymous_per_min: 10_000,
            admin_addr: "127.0.0.1:0".into(),
            http_workers: 1,
            ..GatewayConfig::default()
        })
        .await
        .expect("gateway builds");
        let base = format!("http://127.0.0.1:{}", gateway.port());
        tokio::spawn(gateway.run_until_stopped());
        // Rate limits count per client address: this test's own.
        let mut headers = reqwest::header::HeaderMap::new();
        let ip = format!("198.19.{}.{}", rand::random::<u8>(), rand::random::<u8>());
        headers.insert("x-forwarded-for", ip.parse().unwrap());
        let http = reqwest::Client::builder()
            .default_headers(headers)
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap();
        Self {
            base,
            http,
            auth: AuthServiceClient::new(channel(auth_url)),
            admin_email: env.admin_email(),
            _provider: provider,
        }
    }

    async fn send(&self, rb: reqwest::RequestBuilder) -> (u16, Value) {
        let r = rb.send().await.expect("request reaches the gateway");
        let status = r.status().as_u16();
        let text = r.text().await.unwrap();
        let body =
            serde_json::from_str(&text).unwrap_or_else(|_| panic!("not JSON ({status}): {text}"));
        (status, body)
    }

    async fn get(&self, path: &str, token: Option<&str>) -> (u16, Value) {
        let mut rb = self.http.get(format!("{}{path}", self.base));
        if let Some(t) = token {
            rb = rb.bearer_auth(t);
        }
        self.send(rb).await
    }

    async fn post(&self, path: &str, body: Value) -> (u16, Value) {
        self.send(self.http.post(format!("{}{path}", self.base)).json(&body))
            .await
    }

    /// Starts a sign-in: (authorization URL, state).
    async fn start(&self) -> (String, String) {
        let (s, body) = self
            .post(
                "/api/auth/oidc/start",
                json!({"redirect_uri": REDIRECT_URI}),
            )
            .await;
        assert_eq!(s, 200, "{body}");
        let d = &body["data"];
        (
            d["authorization_url"].as_str().unwrap().to_owned(),
            d["state"].as_str().unwrap().to_owned(),
        )
    }

    async fn finish(&self, state: &str, code: &str) -> (u16, Value) {
        self.post(
            "/api/auth/oidc/finish",
            json!({"state": state, "code": code}),
        )
        .await
    }

    /// A whole sign-in as `email`; the finish's answer.
    async fn sign_in(&self, email: &str) -> (u16, Value) {
        let (url, state) = self.start().await;
        let back = at_provider(&url, email).await;
        assert_eq!(back.state, state, "the provider sends the state back");
        self.finish(&state, &back.code).await
    }

    async fn admin(&self) -> User {
        quire_test_stack::login(&mut self.auth.clone(), &self.admin_email, ADMIN_PASSWORD).await
    }
}

/// What the provider sends the browser back with.
struct Back {
    code: String,
    state: String,
}

/// Follows the provider's redirects as a browser would (cookies included), signed in as
/// `email`, up to the redirect back to [`REDIRECT_URI`].
async fn at_provider(authorization_url: &str, email: &str) -> Back {
    let browser = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let mut url = Url::parse(authorization_url).unwrap();
    url.query_pairs_mut().append_pair("login_hint", email);
    let mut cookies: BTreeMap<String, String> = BTreeMap::new();
    for _ in 0..10 {
        let jar: Vec<String> = cookies.iter().map(|(k, v)| format!("{k}={v}")).collect();
        let r = browser
            .get(url.clone())
            .header(COOKIE, jar.join("; "))
            .send()
            .await
            .expect("the provider answers");
        for set in r.headers().get_all(SET_COOKIE) {
            let pair = set.to_str().unwrap().split(';').next().unwrap();
            if let Some((name, value)) = pair.split_once('=') {
                if value.is_empty() {
                    cookies.remove(name);
                } else {
                    cookies.insert(name.to_owned(), value.to_owned());
                }
            }
        }
        let status = r.status();
        let Some(location) = r.headers().get(LOCATION) else {
            panic!("{status} from {url}: {}", r.text().await.unwrap());
        };
        let next = url.join(location.to_str().unwrap()).unwrap();
        if next.as_str().starts_with(REDIRECT_URI) {
            let query: BTreeMap<String, String> = next.query_pairs().into_owned().collect();
            assert!(!query.contains_key("error"), "the provider refused: {next}");
            return Back {
                code: query["code"].clone(),
                state: query["state"].clone(),
            };
        }
        url = next;
    }
    panic!("the provider never sent the browser back");
}

fn user_of(body: &Value) -> &Value {
    &body["data"]["user"]
}

#[tokio::test(flavor = "multi_thread")]
async fn a_first_sign_in_makes_an_account_and_the_next_finds_it() {
    let stack = Stack::with_provider().await;
    let (s, body) = stack.get("/api/auth/oidc", None).await;
    assert_eq!(s, 200, "{body}");
    assert_eq!(
        body["data"],
        json!({"enabled": true, "display_name": "Example ID"})
    );

    let (s, first) = stack.sign_in("ada.lovelace@example.org").await;
    assert_eq!(s, 200, "{first}");
    let d = &first["data"];
    assert_eq!(d["token_type"], "bearer");
    assert!(d["expires_in"].as_u64().unwrap() > 0, "{first}");
    assert!(d["refresh_token"].as_str().is_some_and(|t| !t.is_empty()));
    let user = user_of(&first);
    assert_eq!(user["email"], "ada.lovelace@example.org");
    assert_eq!(user["username"], "Ada Lovelace", "from the name claim");
    assert_eq!(user["roles"], json!(["reader"]));

    // The token is Quire's own, good on any route.
    let token = d["access_token"].as_str().unwrap();
    let (s, me) = stack.get("/api/users/me/", Some(token)).await;
    assert_eq!(s, 200, "{me}");
    assert_eq!(me["data"]["user_id"], user["user_id"]);

    let (s, second) = stack.sign_in("ada.lovelace@example.org").await;
    assert_eq!(s, 200, "{second}");
    assert_eq!(user_of(&second)["user_id"], user["user_id"]);
    assert_ne!(second["data"]["access_token"], d["access_token"]);

    // The account has no password to sign in with.
    let (s, body) = stack
        .post(
            "/api/login/",
            json!({"email": "ada.lovelace@example.org", "password": "any-password-1"}),
        )
        .await;
    assert_failure(s, &body, 400, Some("Wrong password"));
}

#[tokio::test(flavor = "multi_thread")]
async fn an_account_with_the_verified_address_is_linked() {
    let stack = Stack::with_provider().await;
    let admin = stack.admin().await;
    let made = stack
        .auth
        .clone()
        .create_user(req(
            pb::CreateUserRequest {
                email: "grace@example.org".into(),
                username: "Grace".into(),
                password: "grace-pass-123".into(),
                roles: vec!["writer".into()],
            },
            Some(&admin),
        ))
        .await
        .unwrap()
        .into_inner();

    let (s, body) = stack.sign_in("grace@example.org").await;
    assert_eq!(s, 200, "{body}");
    let user = user_of(&body);
    assert_eq!(user["user_id"], made.user_id.as_str());
    assert_eq!(user["username"], "Grace", "the account is kept as it was");
    assert_eq!(user["roles"], json!(["writer"]));
    // The password still works.
    let (s, body) = stack
        .post(
            "/api/login/",
            json!({"email": "grace@example.org", "password": "grace-pass-123"}),
        )
        .await;
    assert_eq!(s, 200, "{body}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_wrong_state_is_refused_and_spends_nothing() {
    let stack = Stack::with_provider().await;
    let (url, state) = stack.start().await;
    let back = at_provider(&url, "ada@example.org").await;

    let (s, body) = stack.finish("a-state-never-handed-out", &back.code).await;
    assert_failure(s, &body, 401, Some(EXPIRED));
    let (s, body) = stack.finish("", &back.code).await;
    assert_bad_input(s, &body, "state");

    let (s, body) = stack.finish(&state, &back.code).await;
    assert_eq!(s, 200, "{body}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_code_and_a_state_work_once() {
    let stack = Stack::with_provider().await;
    let (url, state) = stack.start().await;
    let back = at_provider(&url, "ada@example.org").await;
    let (s, body) = stack.finish(&state, &back.code).await;
    assert_eq!(s, 200, "{body}");

    let (s, body) = stack.finish(&state, &back.code).await;
    assert_failure(s, &body, 401, Some(EXPIRED));

    // A fresh sign-in cannot spend the code again either: the provider refuses it.
    let (_, fresh) = stack.start().await;
    let (s, body) = stack.finish(&fresh, &back.code).await;
    assert_failure(s, &body, 401, Some(NOT_CONFIRMED));
}

#[tokio::test(flavor = "multi_thread")]
async fn a_tampered_id_token_is_refused() {
    let stack = Stack::with_provider().await;
    let (s, body) = stack.sign_in("tampered.ada@example.org").await;
    assert_failure(s, &body, 401, Some(NOT_CONFIRMED));

    // Nobody was signed in or created: the account list holds the admin alone.
    let admin = stack.admin().await;
    let (s, list) = stack
        .get("/api/users/?page_size=50", Some(&admin.token))
        .await;
    assert_eq!(s, 200, "{list}");
    let emails: Vec<&str> = list["data"]["result"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|u| u["email"].as_str())
        .collect();
    assert_eq!(emails, vec![stack.admin_email.as_str()], "{list}");
}

#[tokio::test(flavor = "multi_thread")]
async fn an_unverified_address_is_refused() {
    let stack = Stack::with_provider().await;
    let (s, body) = stack.sign_in("unverified.ada@example.org").await;
    assert_failure(
        s,
        &body,
        403,
        Some("Your provider has not verified this e-mail address"),
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_redirect_uri_not_configured_is_refused() {
    let stack = Stack::with_provider().await;
    for uri in ["http://evil.example/platform/login/oidc", ""] {
        let (s, body) = stack
            .post("/api/auth/oidc/start", json!({"redirect_uri": uri}))
            .await;
        assert_bad_input(s, &body, "redirect_uri");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_new_account_waits_for_registration_to_open_and_a_disabled_one_is_refused() {
    let stack = Stack::with_provider().await;
    let admin = stack.admin().await;
    let set_open = |open: bool| {
        let mut auth = stack.auth.clone();
        let admin = admin.clone();
        async move {
            auth.update_access_settings(req(
                pb::UpdateAccessSettingsRequest {
                    registration_open: Some(open),
                    ..Default::default()
                },
                Some(&admin),
            ))
            .await
            .unwrap();
        }
    };
    set_open(false).await;
    let (s, body) = stack.sign_in("ada@example.org").await;
    assert_failure(s, &body, 409, Some("Registration is closed"));

    set_open(true).await;
    let (s, body) = stack.sign_in("ada@example.org").await;
    assert_eq!(s, 200, "{body}");
    let user_id = user_of(&body)["user_id"].as_str().unwrap().to_owned();

    // Closed again: an account that exists still signs in.
    set_open(false).await;
    let (s, body) = stack.sign_in("ada@example.org").await;
    assert_eq!(s, 200, "{body}");

    stack
        .auth
        .clone()
        .set_user_disabled(req(
            pb::SetUserDisabledRequest {
                user_id,
                disabled: true,
            },
            Some(&admin),
        ))
        .await
        .unwrap();
    let (s, body) = stack.sign_in("ada@example.org").await;
    assert_failure(s, &body, 403, Some("This account is disabled"));
}

#[tokio::test(flavor = "multi_thread")]
async fn without_a_provider_nothing_is_offered() {
    let stack = Stack::without_provider().await;
    let (s, body) = stack.get("/api/auth/oidc", None).await;
    assert_eq!(s, 200, "{body}");
    assert_eq!(body["data"]["enabled"], false, "{body}");
    let (s, body) = stack
        .post(
            "/api/auth/oidc/start",
            json!({"redirect_uri": REDIRECT_URI}),
        )
        .await;
    assert_failure(s, &body, 409, None);
    let (s, body) = stack.finish("some-state", "some-code").await;
    assert_failure(s, &body, 409, None);
}
