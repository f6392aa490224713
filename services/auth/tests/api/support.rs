//! One real auth service per test, on a Postgres schema of its own, with the shared Redis
//! and broker; the admin it seeds signed in; and what the tests read behind the API (the
//! schema, Redis) to check what the gateway and the database would see.

use diesel_async::AsyncPgConnection;
use k256::ecdsa::SigningKey;
use quire_auth::AuthConfig;
use quire_kit::app::Serve as _;
use quire_kit::config::CommonConfig;
use quire_kit::db::{PgConn, PgPool};
use quire_proto::auth::v1 as pb;
use quire_proto::auth::v1::auth_service_client::AuthServiceClient;
use quire_proto::ops::v1 as ops;
use quire_proto::ops::v1::ops_service_client::OpsServiceClient;
use sha3::{Digest, Keccak256};
use tonic::transport::Channel;
use uuid::Uuid;

pub const ADMIN_PASSWORD: &str = "admin-pass-123";
pub const USER_PASSWORD: &str = "user-pass-123";
/// Where SIWE messages must say they come from (the service's default).
pub const SIWE_DOMAIN: &str = "localhost:8080";

fn env_or(key: &str, default: &str) -> String {
    std::env::var(key).unwrap_or_else(|_| default.to_owned())
}

/// Twelve random hex digits, for names no other test uses.
pub fn suffix() -> String {
    Uuid::new_v4().simple().to_string()[..12].to_owned()
}

/// A signed-in account.
#[derive(Clone, Debug)]
pub struct User {
    pub id: Uuid,
    pub email: String,
    pub access: String,
    pub refresh: String,
}

/// A request carrying `user`'s access token (none: anonymous).
pub fn req<T>(message: T, user: Option<&User>) -> tonic::Request<T> {
    let mut r = tonic::Request::new(message);
    if let Some(u) = user {
        r.metadata_mut().insert(
            "authorization",
            format!("Bearer {}", u.access).parse().unwrap(),
        );
    }
    r
}

pub struct TestApp {
    /// Where its gRPC API answers.
    pub url: String,
    pub auth: AuthServiceClient<Channel>,
    pub ops: OpsServiceClient<Channel>,
    pub admin: User,
    /// The service's own schema.
    pub pool: PgPool,
    pub redis: redis::aio::MultiplexedConnection,
    _stop: tokio::sync::oneshot::Sender<()>,
}

impl TestApp {
    pub async fn spawn() -> Self {
        Self::spawn_on(&suffix(), None).await
    }

    /// An auth on the schema and admin of `id`: several may run at once, as replicas do,
    /// each signing with the key at `jwt_key_file` (none: an ephemeral key).
    pub async fn spawn_on(id: &str, jwt_key_file: Option<&str>) -> Self {
        let (common, config) = settings(id, jwt_key_file);
        let (database_url, redis_url) = (common.database_url.clone(), common.redis_url.clone());
        let schema = common.db_schema.clone().unwrap();
        let admin_email = config.admin_email.clone().unwrap();
        let app = quire_auth::Application::build(common, config)
            .await
            .expect("auth builds");
        let url = format!("http://127.0.0.1:{}", app.grpc_port());
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        tokio::spawn(app.run_until(async move {
            let _ = stopped.await;
        }));
        let channel = Channel::from_shared(url.clone()).unwrap().connect_lazy();
        let mut auth = AuthServiceClient::new(channel.clone());
        let admin = login(&mut auth, &admin_email, ADMIN_PASSWORD)
            .await
            .expect("the seeded admin signs in");
        let pool = quire_kit::db::pool(&database_url, &schema, 2).unwrap();
        let redis = redis::Client::open(redis_url)
            .unwrap()
            .get_multiplexed_async_connection()
            .await
            .unwrap();
        Self {
            url,
            auth,
            ops: OpsServiceClient::new(channel),
            admin,
            pool,
            redis,
            _stop: stop,
        }
    }

    pub fn client(&self) -> AuthServiceClient<Channel> {
        self.auth.clone()
    }

    pub async fn conn(&self) -> PgConn {
        quire_kit::db::conn(&self.pool).await.unwrap()
    }

    /// A new account holding `roles` (reader alone when empty), made by the admin and
    /// signed in.
    pub async fn user(&self, roles: &[&str]) -> User {
        let email = format!("user-{}@quire.test", suffix());
        self.client()
            .create_user(req(
                pb::CreateUserRequest {
                    email: email.clone(),
                    username: format!("user{}", suffix()),
                    password: USER_PASSWORD.into(),
                    roles: roles.iter().map(|r| (*r).to_owned()).collect(),
                },
                Some(&self.admin),
            ))
            .await
            .expect("the admin creates a user");
        login(&mut self.client(), &email, USER_PASSWORD)
            .await
            .expect("a new user signs in")
    }

    /// Signs in with a password.
    pub async fn login(&self, email: &str, password: &str) -> Result<User, tonic::Status> {
        login(&mut self.client(), email, password).await
    }

    pub async fn set_disabled(
        &self,
        by: &User,
        user: Uuid,
        disabled: bool,
    ) -> Result<pb::User, tonic::Status> {
        self.client()
            .set_user_disabled(req(
                pb::SetUserDisabledRequest {
                    user_id: user.to_string(),
                    disabled,
                },
                Some(by),
            ))
            .await
            .map(tonic::Response::into_inner)
    }

    pub async fn set_roles(
        &self,
        by: &User,
        user: Uuid,
        roles: &[&str],
    ) -> Result<pb::User, tonic::Status> {
        self.client()
            .set_user_roles(req(
                pb::SetUserRolesRequest {
                    user_id: user.to_string(),
                    roles: roles.iter().map(|r| (*r).to_owned()).collect(),
                },
                Some(by),
            ))
            .await
            .map(tonic::Response::into_inner)
    }

    pub async fn refresh(&self, refresh: &str) -> Result<pb::TokenResponse, tonic::Status> {
        self.client()
            .refresh_token(pb::RefreshTokenRequest {
                refresh_token: refresh.into(),
            })
            .await
            .map(tonic::Response::into_inner)
    }

    /// The newest audit entries of this auth, newest first, read as an admin would.
    pub async fn audit(&self) -> ops::AuditPage {
        self.ops
            .clone()
            .list_audit_log(req(
                ops::ListAuditLogRequest {
                    before: String::new(),
                    limit: 200,
                },
                Some(&self.admin),
            ))
            .await
            .expect("the admin reads the audit log")
            .into_inner()
    }

    /// Whether the gateway would refuse `user`'s access token as issued before the end of
    /// every session of the account (the check of gateway/src/auth_guard.rs).
    pub async fn gateway_refuses(&self, user: &User) -> bool {
        use redis::AsyncCommands;
        let claims = token_claims(&user.access);
        let ended: Option<i64> = self
            .redis
            .clone()
            .get(quire_kit::caller::sessions_ended_key(&claims.sub))
            .await
            .unwrap();
        ended.is_some_and(|at| claims.issued_at_ms() <= at)
    }

    /// A registration code for `email`, as the mail would bring it.
    pub async fn register_code(&self, email: &str) -> String {
        let mut conn = self.conn().await;
        let conn: &mut AsyncPgConnection = &mut conn;
        quire_auth::verification::issue(conn, quire_auth::verification::Purpose::Register, email, 0)
            .await
            .expect("a code is issued")
    }
}

/// What auth is started with: the schema and admin of `id`, the key at `jwt_key_file`.
pub fn settings(id: &str, jwt_key_file: Option<&str>) -> (CommonConfig, AuthConfig) {
    let common = CommonConfig {
        database_url: env_or(
            "QUIRE_TEST_DATABASE_URL",
            "postgres://postgres@127.0.0.1:5432/quire_test",
        ),
        db_schema: Some(format!("auth_adm_{id}")),
        db_pool_size: 6,
        redis_url: env_or("QUIRE_REDIS_URL", "redis://127.0.0.1:6379"),
        kafka_brokers: env_or("QUIRE_KAFKA_BROKERS", "127.0.0.1:9092"),
        outbox_poll_ms: 20,
        migrate_on_start: true,
        migrate_database_url: None,
        kafka_create_topics: true,
        grpc_addr: Some("127.0.0.1:0".into()),
        admin_addr: Some("127.0.0.1:0".into()),
    };
    // Read as the environment would be, so settings this test does not name keep
    // their defaults.
    let config: AuthConfig = serde_json::from_value(serde_json::json!({
        "access_token_ttl_secs": 600,
        "refresh_token_ttl_secs": 3600,
        "admin_email": format!("admin-{id}@quire.test"),
        "admin_password": ADMIN_PASSWORD,
        "siwe_domain": SIWE_DOMAIN,
        "login_attempts_per_address": 50,
        "login_free_attempts": 50,
        "jwt_key_file": jwt_key_file,
    }))
    .expect("auth settings");
    (common, config)
}

/// Signs in with a password over gRPC.
pub async fn login(
    auth: &mut AuthServiceClient<Channel>,
    email: &str,
    password: &str,
) -> Result<User, tonic::Status> {
    let reply = auth
        .login(pb::LoginRequest {
            credentials: Some(pb::login_request::Credentials::Email(pb::EmailPassword {
                email: email.into(),
                password: password.into(),
                ..Default::default()
            })),
            client_ip: "127.0.0.1".into(),
        })
        .await?
        .into_inner();
    Ok(User {
        id: reply
            .user
            .expect("login names the user")
            .user_id
            .parse()
            .unwrap(),
        email: email.to_owned(),
        access: reply.access_token,
        refresh: reply.refresh_token,
    })
}

/// The claims of an access token, read without checking its signature (the test holds a
/// token the service just issued).
pub fn token_claims(token: &str) -> quire_kit::caller::Claims {
    use base64::Engine;
    let payload = token.split('.').nth(1).expect("a JWT has a payload");
    let json = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(payload)
        .unwrap();
    serde_json::from_slice(&json).unwrap()
}

/// The error code kit's table gave a failed call.
pub fn code_of(status: &tonic::Status) -> quire_kit::ErrorCode {
    quire_kit::ApiError::from_status(status).code
}

/// Asserts a call failed with `code` and, when given, `message`.
#[track_caller]
pub fn assert_refused<T: std::fmt::Debug>(
    result: Result<T, tonic::Status>,
    code: tonic::Code,
    message: Option<&str>,
) -> tonic::Status {
    let status = result.expect_err("the call must be refused");
    assert_eq!(status.code(), code, "{status:?}");
    if let Some(m) = message {
        assert_eq!(status.message(), m);
    }
    status
}

/// An Ethereum account that signs in with EIP-4361 messages.
pub struct Wallet(SigningKey);

impl Wallet {
    pub fn new() -> Self {
        Self(SigningKey::random(&mut rand::rngs::OsRng))
    }

    /// The last 20 bytes of the Keccak-256 of the uncompressed public key.
    fn address(&self) -> [u8; 20] {
        let public = self.0.verifying_key().to_encoded_point(false);
        let digest = Keccak256::digest(&public.as_bytes()[1..]);
        let mut address = [0u8; 20];
        address.copy_from_slice(&digest[12..]);
        address
    }

    /// Asks for a nonce and signs in with a message naming it.
    pub async fn sign_in(
        &self,
        auth: &mut AuthServiceClient<Channel>,
    ) -> Result<pb::TokenResponse, tonic::Status> {
        let nonce = auth
            .get_login_nonce(pb::GetLoginNonceRequest {})
            .await?
            .into_inner()
            .nonce;
        let message = format!(
            "{SIWE_DOMAIN} wants you to sign in with your Ethereum account:\n{address}\n\n\
             Sign in to Quire\n\nURI: http://{SIWE_DOMAIN}\nVersion: 1\nChain ID: 1\n\
             Nonce: {nonce}\nIssued At: {issued}",
            address = siwe::eip55(&self.address()),
            issued = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        );
        // EIP-191: the message behind its prefix and length, signed recoverably.
        let digest = Keccak256::digest(
            format!("\x19Ethereum Signed Message:\n{}{message}", message.len()).as_bytes(),
        );
        let (signature, recovery) = self.0.sign_prehash_recoverable(&digest).unwrap();
        let mut bytes = signature.to_bytes().to_vec();
        bytes.push(27 + recovery.to_byte());
        auth.login(pb::LoginRequest {
            credentials: Some(pb::login_request::Credentials::Wallet(
                pb::WalletSignature {
                    message,
                    signature: format!("0x{}", hex::encode(bytes)),
                },
            )),
            client_ip: "127.0.0.1".into(),
        })
        .await
        .map(tonic::Response::into_inner)
    }
}
