//! The public keys that verify access tokens, fetched from auth's JWKS and fetched again
//! when a token names a key we have not seen (auth rotated its key), at most every 10 s.
//!
//! A verified token is remembered until it expires: a browser sends the same token with
//! every request, and checking an Ed25519 signature each time is the largest part of what
//! the gateway adds to a call. Revocation is not cached; it is checked on every request.

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
    verified: Arc<quick_cache::sync::Cache<String, Caller>>,
}

const VERIFIED_CAPACITY: usize = 100_000;

const MIN_REFETCH: Duration = Duration::from_secs(10);

impl KeyStore {
    pub fn new(auth: AuthServiceClient<Channel>) -> Self {
        Self {
            verifier: TokenVerifier::default(),
            auth,
            last_fetch: Arc::new(Mutex::new(None)),
            verified: Arc::new(quick_cache::sync::Cache::new(VERIFIED_CAPACITY)),
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
        if let Some(caller) = self.verified.get(token) {
            if caller.claims.exp > chrono::Utc::now().timestamp() {
                return Ok(caller);
            }
            self.verified.remove(token);
        }
        if let Some(kid) = TokenVerifier::kid_of(token)
            && !self.verifier.knows(&kid)
            && let Err(error) = self.refresh().await
        {
            tracing::warn!(%error, "cannot refresh token keys");
        }
        let caller = self.verifier.verify(token)?;
        self.verified.insert(token.to_owned(), caller.clone());
        Ok(caller)
    }
}
