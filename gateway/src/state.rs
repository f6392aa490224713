//! What every handler shares: the service clients, Redis, the token keys, the settings.

use std::sync::Arc;

use actix_web::HttpRequest;
use quire_proto::auth::v1::auth_service_client::AuthServiceClient;
use tonic::transport::Channel;

use crate::config::GatewayConfig;
use crate::keys::KeyStore;
use crate::rate_limit::{self, Class};

#[derive(Clone)]
pub struct AppState {
    pub auth: AuthServiceClient<Channel>,
    pub redis: redis::aio::ConnectionManager,
    pub keys: KeyStore,
    pub config: Arc<GatewayConfig>,
}

impl AppState {
    /// Applies the rate limit of `class` to the client of `req`.
    pub async fn limit(&self, req: &HttpRequest, class: Class) -> Result<(), quire_kit::ApiError> {
        let per_minute = match class {
            Class::Login => self.config.rate_login_per_min,
            Class::Verify => self.config.rate_verify_per_min,
            Class::Api => self.config.rate_api_per_min,
        };
        let client = crate::client_ip::of(req, self.config.trust_forwarded);
        rate_limit::check(&mut self.redis.clone(), class, &client, per_minute).await
    }
}
