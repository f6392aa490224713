//! quire-auth: accounts, roles, e-mail verification, invitations, Sign-In with Ethereum,
//! and the access tokens the rest of Quire trusts. It owns the `auth` schema.
//!
//! It must never hand out a role a user does not hold, store a password or refresh token
//! in the clear, or let a caller act for another user unless the caller is an admin.
#![forbid(unsafe_code)]
#![cfg_attr(test, allow(clippy::unwrap_used, clippy::expect_used))]

pub mod access_settings;
pub mod account_mail;
pub mod accounts;
pub mod admin_users;
pub mod bootstrap;
pub mod config;
pub mod db;
pub mod directory;
pub mod error;
pub mod grpc_api;
pub mod login_throttle;
pub mod mailer;
pub mod oidc;
pub mod password_reset;
pub mod passwords;
pub mod profile;
pub mod roles;
pub mod sessions;
pub mod sign_in_code;
pub mod siwe_login;
pub mod tokens;
pub mod user_stats;
pub mod verification;

use std::sync::Arc;

use quire_kit::app::{Core, Spec};
use quire_kit::config::CommonConfig;
use quire_kit::db::PgPool;
use quire_kit::events::topics;
use quire_proto::auth::v1::auth_service_server::AuthServiceServer;

pub use config::AuthConfig;

pub const SERVICE: &str = "auth";

/// What kit builds, migrates and starts of this service.
pub const SPEC: Spec = Spec {
    name: SERVICE,
    process: "quire-auth",
    migrations: db::MIGRATIONS,
    topics: &[topics::USER],
    ports: quire_kit::config::ports::AUTH,
};

/// What every request handler needs.
#[derive(Clone)]
pub struct AppState {
    pub pool: PgPool,
    pub redis: redis::aio::ConnectionManager,
    pub signer: Arc<tokens::Signer>,
    pub mailer: mailer::Mailer,
    pub config: Arc<AuthConfig>,
    /// The OpenID Connect provider users may sign in with; `None` while none is configured.
    pub oidc: Option<Arc<oidc::OidcProvider>>,
}

/// The built service, bound to its ports and ready to run.
pub struct Application {
    state: AppState,
    core: Core,
}

impl Application {
    /// Binds the ports (port 0 picks a free one, for tests), migrates the schema, connects
    /// to Postgres, Redis and Kafka and creates the first admin.
    pub async fn build(common: CommonConfig, config: AuthConfig) -> anyhow::Result<Self> {
        // Keys first: a bad key (a rotation gone wrong) stops the start before anything else.
        let signer = tokens::Signer::load_or_create(
            config.jwt_key_file.as_deref(),
            config.access_token_ttl_secs,
        )?;
        let core = Core::build(SPEC, common).await?;
        let redis = redis::Client::open(core.common.redis_url.as_str())?;
        let redis = redis::aio::ConnectionManager::new(redis).await?;
        let mailer = mailer::Mailer::new(config.smtp_url.as_deref(), &config.mail_from)?;
        let oidc = oidc::OidcProvider::from_settings(&config.oidc)?.map(Arc::new);
        let state = AppState {
            pool: core.pool.clone(),
            redis,
            signer: Arc::new(signer),
            mailer,
            config: Arc::new(config),
            oidc,
        };
        bootstrap::ensure_admin(&state)
            .await
            .map_err(|e| anyhow::anyhow!("admin bootstrap: {e}"))?;
        Ok(Self { state, core })
    }
}

impl quire_kit::app::Serve for Application {
    fn core(&self) -> &Core {
        &self.core
    }

    /// Serves gRPC and the admin routes and relays the outbox until `stop`.
    async fn run_until(
        self,
        stop: impl std::future::Future<Output = ()> + Send + 'static,
    ) -> anyhow::Result<()> {
        // Its writers leave their events to the relay's poll.
        let service = self.core.start(quire_kit::outbox::Wake::default())?;
        let verifier = self.state.signer.verifier()?;
        let api = AuthServiceServer::new(grpc_api::AuthApi { state: self.state });
        service
            .serve(api, quire_kit::grpc::identity(verifier), stop)
            .await
    }
}
