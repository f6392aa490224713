//! What every handler shares: the service clients, Redis, the token keys, the settings.

use std::sync::Arc;

use actix_web::HttpRequest;
use quire_kit::caller::Caller;
use quire_proto::auth::v1::auth_service_client::AuthServiceClient;
use quire_proto::catalog::v1::catalog_service_client::CatalogServiceClient;
use quire_proto::chat::v1::chat_service_client::ChatServiceClient;
use quire_proto::manuscript::v1::manuscript_service_client::ManuscriptServiceClient;
use quire_proto::wallet::v1::wallet_service_client::WalletServiceClient;
use tonic::transport::Channel;

use crate::config::GatewayConfig;
use crate::keys::KeyStore;
use crate::rate_limit::{self, Class};

/// One per HTTP worker thread (the connections it holds are driven by that worker's
/// runtime); the key store and settings are shared by all.
#[derive(Clone)]
pub struct AppState {
    pub auth: AuthServiceClient<Channel>,
    pub catalog: CatalogServiceClient<Channel>,
    pub wallet: WalletServiceClient<Channel>,
    pub manuscript: ManuscriptServiceClient<Channel>,
    pub chat: ChatServiceClient<Channel>,
    pub redis_client: redis::Client,
    redis: Arc<tokio::sync::OnceCell<redis::aio::ConnectionManager>>,
    pub keys: KeyStore,
    pub config: Arc<GatewayConfig>,
}

/// The gRPC clients of the services behind the gateway.
pub struct Services {
    pub auth: AuthServiceClient<Channel>,
    pub catalog: CatalogServiceClient<Channel>,
    pub wallet: WalletServiceClient<Channel>,
    pub manuscript: ManuscriptServiceClient<Channel>,
    pub chat: ChatServiceClient<Channel>,
}

impl AppState {
    pub fn new(
        services: Services,
        redis_client: redis::Client,
        keys: KeyStore,
        config: Arc<GatewayConfig>,
    ) -> Self {
        let Services {
            auth,
            catalog,
            wallet,
            manuscript,
            chat,
        } = services;
        Self {
            auth,
            catalog,
            wallet,
            manuscript,
            chat,
            redis_client,
            redis: Arc::default(),
            keys,
            config,
        }
    }

    /// This worker's Redis connection, opened on first use (it reconnects by itself).
    pub async fn redis(&self) -> Result<redis::aio::ConnectionManager, quire_kit::ApiError> {
        self.redis
            .get_or_try_init(|| redis::aio::ConnectionManager::new(self.redis_client.clone()))
            .await
            .cloned()
            .map_err(|e| {
                tracing::error!(error = %e, "redis unreachable");
                quire_kit::ApiError::unavailable("Service temporarily unavailable")
            })
    }

    fn per_minute(&self, class: Class) -> u32 {
        match class {
            Class::Login => self.config.rate_login_per_min,
            Class::Verify => self.config.rate_verify_per_min,
            Class::Api => self.config.rate_api_per_min,
            Class::Upload => self.config.rate_upload_per_min,
            Class::Chat => self.config.rate_chat_per_min,
            Class::Anonymous => self.config.rate_anonymous_per_min,
        }
    }

    /// Applies the rate limit of `class` to the client of `req`.
    pub async fn limit(&self, req: &HttpRequest, class: Class) -> Result<(), quire_kit::ApiError> {
        rate_limit::check(
            &mut self.redis().await?,
            class,
            &self.client(req),
            self.per_minute(class),
        )
        .await
    }

    /// Applies the rate limit of `class` to the signed-in `caller`, from wherever they call.
    pub async fn limit_user(
        &self,
        caller: &Caller,
        class: Class,
    ) -> Result<(), quire_kit::ApiError> {
        rate_limit::check(
            &mut self.redis().await?,
            class,
            &format!("user:{}", caller.user_id()),
            self.per_minute(class),
        )
        .await
    }

    /// The client's address (see [`crate::client_ip`]).
    pub fn client(&self, req: &HttpRequest) -> String {
        crate::client_ip::of(req, self.config.trusted_proxy_hops)
    }
}
