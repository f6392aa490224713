//! The public keys that verify access tokens, fetched from auth's JWKS and fetched again
//! when a token names a key we have not seen (auth rotated its key), at most every 10 s.

use std::sync::Arc;
use std::time::{Duration, Instant};

use quire_kit::ApiError;
use quire_kit::caller::{Caller, TokenVerifier};
use quire_proto::auth::v1::GetJwksRequest;
use quire_proto::auth::v1::auth_service_client::AuthServiceClient;
use tokio::sync::Mutex;
use tonic::transport::Channel;

#[derive(Clone)]
pub struct KeyStore {
    verifier: TokenVerifier,
    auth: AuthServiceClient<Channel>,
    last_fetch: Arc<Mutex<Option<Instant>>>,
}

const MIN_REFETCH: Duration = Duration::from_secs(10);

impl KeyStore {
    pub fn new(auth: AuthServiceClient<Channel>) -> Self {
        Self {
            verifier: TokenVerifier::default(),
            auth,
            last_fetch: Arc::new(Mutex::new(None)),
        }
    }

    /// Fetches the JWKS now (start-up), unless fetched within the last 10 s.
    pub async fn refresh(&self) -> Result<(), ApiError> {
        let mut last = self.last_fetch.lock().await;
        if last.is_some_and(|t| t.elapsed() < MIN_REFETCH) {
            return Ok(());
        }
        *last = Some(Instant::now());
        let request = quire_kit::grpc::outgoing(GetJwksRequest {}, None, Duration::from_secs(5));
        let jwks = self
            .auth
            .clone()
            .get_jwks(request)
            .await
            .map_err(|s| ApiError::from_status(&s))?;
        let n = self.verifier.load_jwks(&jwks.into_inner().jwks_json)?;
        tracing::info!(keys = n, "token keys loaded");
        Ok(())
    }

    pub async fn verify(&self, token: &str) -> Result<Caller, ApiError> {
        if let Some(kid) = TokenVerifier::kid_of(token)
            && !self.verifier.knows(&kid)
            && let Err(error) = self.refresh().await
        {
            tracing::warn!(%error, "cannot refresh token keys");
        }
        self.verifier.verify(token)
    }
}
