//! What every handler shares: the service clients, the shared store (Redis) and the local
//! fallback of its rate limits, the token keys, the settings and the rate limits in force
//! (applied by `crate::rate_limit`, which adds `AppState::limit` and
//! `AppState::limit_user`).

use std::sync::Arc;

use actix_web::HttpRequest;
use quire_kit::upstream::Upstream;
use quire_proto::auth::v1::auth_service_client::AuthServiceClient;
use quire_proto::catalog::v1::catalog_service_client::CatalogServiceClient;
use quire_proto::chat::v1::chat_service_client::ChatServiceClient;
use quire_proto::manuscript::v1::manuscript_service_client::ManuscriptServiceClient;
use quire_proto::ops::v1::ops_service_client::OpsServiceClient;
use quire_proto::wallet::v1::wallet_service_client::WalletServiceClient;

use crate::config::GatewayConfig;
use crate::keys::KeyStore;
use crate::live_limits::{Class, Limits};
use crate::local_limits::LocalLimits;
use crate::shared_store::SharedStore;

/// One per HTTP worker thread (the connections it holds are driven by that worker's
/// runtime); the key store and settings are shared by all.
#[derive(Clone)]
pub struct AppState {
    pub auth: AuthServiceClient<Upstream>,
    pub catalog: CatalogServiceClient<Upstream>,
    pub wallet: WalletServiceClient<Upstream>,
    pub manuscript: ManuscriptServiceClient<Upstream>,
    pub chat: ChatServiceClient<Upstream>,
    /// Every service's operator API (outbox, consumer lag, audit log).
    pub ops: Vec<OpsClient>,
    /// Redis: rate-limit windows and revocations, shared by every replica.
    pub store: SharedStore,
    /// The rate-limit windows of this process, for when `store` is unreachable.
    pub local_limits: Arc<LocalLimits>,
    pub keys: KeyStore,
    pub config: Arc<GatewayConfig>,
    pub limits: Arc<Limits>,
}

/// One service's operator API, with the service's short name.
#[derive(Clone)]
pub struct OpsClient {
    pub service: &'static str,
    pub client: OpsServiceClient<Upstream>,
}

/// The gRPC clients of the services behind the gateway.
pub struct Services {
    pub auth: AuthServiceClient<Upstream>,
    pub catalog: CatalogServiceClient<Upstream>,
    pub wallet: WalletServiceClient<Upstream>,
    pub manuscript: ManuscriptServiceClient<Upstream>,
    pub chat: ChatServiceClient<Upstream>,
    pub ops: Vec<OpsClient>,
}

impl AppState {
    pub fn new(
        services: Services,
        store: SharedStore,
        local_limits: Arc<LocalLimits>,
        keys: KeyStore,
        config: Arc<GatewayConfig>,
        limits: Arc<Limits>,
    ) -> Self {
        let Services {
            auth,
            catalog,
            wallet,
            manuscript,
            chat,
            ops,
        } = services;
        Self {
            auth,
            catalog,
            wallet,
            manuscript,
            chat,
            ops,
            store,
            local_limits,
            keys,
            config,
            limits,
        }
    }

    /// What `class` allows now (an admin's override or the configured default).
    pub fn per_minute(&self, class: Class) -> u32 {
        self.limits.per_minute(class)
    }

    /// The client's address (see [`crate::client_ip`]).
    pub fn client(&self, req: &HttpRequest) -> String {
        crate::client_ip::of(req, self.config.trusted_proxy_hops)
    }
}
