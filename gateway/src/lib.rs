//! quire-gateway: the only public entry of Quire. It checks bearer tokens, applies rate
//! limits, turns each `/api` REST call into a gRPC call to the service that owns the
//! data, wraps every answer in the REST envelope, and serves the web app at `/platform`.
//!
//! It owns no table and holds no business rule: a rule checked here is checked again by
//! the service behind it. Redis being down must never take the reads down with it, nor
//! make a request wait on it (see [`shared_store`]).
#![forbid(unsafe_code)]
#![cfg_attr(test, allow(clippy::unwrap_used, clippy::expect_used))]

pub mod auth_guard;
pub mod body_deadline;
pub mod client_ip;
pub mod config;
pub mod envelope;
pub mod field_words;
pub mod form_body;
pub mod grpc_call;
pub mod idempotency;
pub mod input;
pub mod json_body;
pub mod keys;
pub mod live_limits;
pub mod local_limits;
pub mod money;
pub mod multipart;
pub mod openapi;
pub mod ops;
pub mod plain_text;
pub mod rate_limit;
pub mod routes;
pub mod security_headers;
pub mod shared_store;
pub mod state;
pub mod unknown_route;
pub mod web_app;

use std::net::TcpListener;
use std::sync::Arc;

use actix_web::dev::Server;
use actix_web::middleware::{Compress, from_fn};
use actix_web::{App, HttpServer, web};
use quire_kit::upstream::Address;
use quire_proto::auth::v1::auth_service_client::AuthServiceClient;
use quire_proto::catalog::v1::catalog_service_client::CatalogServiceClient;
use quire_proto::chat::v1::chat_service_client::ChatServiceClient;
use quire_proto::manuscript::v1::manuscript_service_client::ManuscriptServiceClient;
use quire_proto::ops::v1::ops_service_client::OpsServiceClient;
use quire_proto::wallet::v1::wallet_service_client::WalletServiceClient;
use tonic_health::pb::health_client::HealthClient;

pub use config::GatewayConfig;
use state::{AppState, OpsClient, Services};

/// Largest gRPC message to or from a service: a cover upload, a chunk of a book, a
/// manuscript's files (at most `manuscript_limit_bytes`, kept below this).
const MAX_GRPC_MESSAGE: usize = 64 * 1024 * 1024;

pub struct Application {
    port: u16,
    admin_port: u16,
    server: Server,
    admin: Server,
    /// Keeps the rate limits in step with auth while the gateway serves.
    _limits_refresh: live_limits::RefreshTask,
    /// Keeps the token keys in step with auth's JWKS while the gateway serves.
    _keys_refresh: keys::RefreshTask,
}

impl Application {
    /// Connects to Redis and the services and binds the port (0 picks a free one). Redis
    /// or a service that is down at start is not a failed start: the gateway serves what
    /// it can, and picks the part up when it answers.
    pub async fn build(config: GatewayConfig) -> anyhow::Result<Self> {
        // Each service's replicas, every call balanced over them (quire_kit::upstream).
        let auth_endpoint = Address::parse("auth", &config.auth_url)?;
        let catalog_endpoint = Address::parse("catalog", &config.catalog_url)?;
        let wallet_endpoint = Address::parse("wallet", &config.wallet_url)?;
        let manuscript_endpoint = Address::parse("manuscript", &config.manuscript_url)?;
        let chat_endpoint = Address::parse("chat", &config.chat_url)?;
        if config.manuscript_limit_bytes + 4 * 1024 * 1024 > MAX_GRPC_MESSAGE {
            anyhow::bail!("manuscript_limit_bytes must be at most 60 MiB");
        }
        if config.settings_refresh_ms == 0 {
            anyhow::bail!("settings_refresh_ms must be at least 1");
        }
        let store = shared_store::SharedStore::open(config.redis_url.as_str())?;
        if !store.for_worker().ping().await {
            // Reads go on without it (see `auth_guard`); writes wait until it answers.
            tracing::warn!("redis unreachable at start: serving degraded until it answers");
        }
        let local_limits = Arc::new(local_limits::LocalLimits::default());
        let keys = keys::KeyStore::new(&config.auth_url)?;
        if let Err(error) = keys.refresh().await {
            // Auth may start after us: the refresh task keeps trying, and the first token
            // that needs the keys asks for them too.
            tracing::warn!(%error, "token keys not loaded yet");
        }
        let keys_refresh = keys.spawn_refresh();
        let listener = TcpListener::bind((config.http_host.as_str(), config.http_port))?;
        let port = listener.local_addr()?.port();
        let admin_listener = TcpListener::bind(config.admin_addr.as_str())?;
        let admin_port = admin_listener.local_addr()?.port();
        let limits = live_limits::Limits::new(&config);
        let limits_refresh = live_limits::spawn_refresh(
            limits.clone(),
            AuthServiceClient::new(auth_endpoint.connect()),
            std::time::Duration::from_millis(config.settings_refresh_ms),
        );
        let workers = config.http_workers.max(1);
        let json_limit = config.json_limit_bytes;
        let frontend = config.frontend_dir.clone();
        let config = Arc::new(config);
        let admin = {
            let (store, auth, wallet, catalog, manuscript, chat) = (
                store.clone(),
                auth_endpoint.clone(),
                wallet_endpoint.clone(),
                catalog_endpoint.clone(),
                manuscript_endpoint.clone(),
                chat_endpoint.clone(),
            );
            HttpServer::new(move || {
                let health = web::Data::new(ops::Health {
                    redis: store.for_worker(),
                    auth: HealthClient::new(auth.connect()),
                    wallet: HealthClient::new(wallet.connect()),
                    catalog: HealthClient::new(catalog.connect()),
                    manuscript: HealthClient::new(manuscript.connect()),
                    chat: HealthClient::new(chat.connect()),
                });
                App::new()
                    .app_data(health)
                    .service(ops::healthz)
                    .service(ops::readyz)
                    .service(ops::metrics_page)
            })
            .workers(1)
            .shutdown_timeout(10)
            .listen(admin_listener)?
            .run()
        };
        let server = HttpServer::new(move || {
            // This closure runs on each worker thread: each worker gets its own gRPC
            // connections, driven by its own runtime, instead of handing every call to a
            // connection task on another thread (that hop cost ~130 us per call).
            let ops = [
                ("auth", &auth_endpoint),
                ("catalog", &catalog_endpoint),
                ("wallet", &wallet_endpoint),
                ("manuscript", &manuscript_endpoint),
                ("chat", &chat_endpoint),
            ]
            .into_iter()
            .map(|(service, endpoint)| OpsClient {
                service,
                client: OpsServiceClient::new(endpoint.connect()),
            })
            .collect();
            let services = Services {
                auth: AuthServiceClient::new(auth_endpoint.connect()),
                // Book files are larger than gRPC's 4 MiB default message size.
                catalog: CatalogServiceClient::new(catalog_endpoint.connect())
                    .max_decoding_message_size(MAX_GRPC_MESSAGE)
                    .max_encoding_message_size(MAX_GRPC_MESSAGE),
                wallet: WalletServiceClient::new(wallet_endpoint.connect()),
                // A manuscript upload carries its files in one message.
                manuscript: ManuscriptServiceClient::new(manuscript_endpoint.connect())
                    .max_decoding_message_size(MAX_GRPC_MESSAGE)
                    .max_encoding_message_size(MAX_GRPC_MESSAGE),
                chat: ChatServiceClient::new(chat_endpoint.connect()),
                ops,
            };
            let state = web::Data::new(AppState::new(
                services,
                store.for_worker(),
                local_limits.clone(),
                keys.clone(),
                config.clone(),
                limits.clone(),
            ));
            // The last `wrap` runs first: the span and headers cover every answer, the
            // body deadline every read, the text and rate checks every `/api` call.
            App::new()
                .wrap(from_fn(rate_limit::anonymous))
                .wrap(from_fn(plain_text::middleware))
                .wrap(from_fn(body_deadline::middleware))
                .wrap(security_headers::headers())
                .wrap(from_fn(ops::observe))
                .wrap(Compress::default())
                .app_data(state)
                // Liveness alone stays on the public port too, for load balancers that
                // can only probe it; it says nothing about what runs behind.
                .service(ops::healthz)
                // The document's own pages, before the `/api` scope that would take them.
                .service(openapi::openapi_json)
                .service(openapi::docs)
                .configure(routes::configure(
                    json_limit,
                    web::to(unknown_route::unmatched),
                ))
                .configure(web_app::configure(frontend.clone()))
        })
        .workers(workers)
        .shutdown_timeout(10)
        .listen(listener)?
        .run();
        tracing::info!(port, admin_port, "gateway listening");
        Ok(Self {
            port,
            admin_port,
            server,
            admin,
            _limits_refresh: limits_refresh,
            _keys_refresh: keys_refresh,
        })
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    /// The port of `/healthz`, `/readyz` and `/metrics`.
    pub fn admin_port(&self) -> u16 {
        self.admin_port
    }

    /// Serves until SIGTERM or Ctrl-C (actix handles both), draining open requests.
    pub async fn run_until_stopped(self) -> std::io::Result<()> {
        let (api, admin) = futures::join!(self.server, self.admin);
        api.and(admin)
    }
}
