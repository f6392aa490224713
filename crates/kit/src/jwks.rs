//! The public keys that verify callers' tokens: auth's JWKS, fetched over gRPC at start
//! (auth may come up later, so it is retried), every few minutes, and soon after a token
//! names a key we have not seen (auth rotated its key).

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::upstream::Upstream;
use quire_proto::auth::v1::GetJwksRequest;
use quire_proto::auth::v1::auth_service_client::AuthServiceClient;
use tokio::sync::Notify;

use crate::caller::TokenVerifier;

const REFRESH_EVERY: Duration = Duration::from_secs(300);
const MIN_REFETCH: Duration = Duration::from_secs(5);

#[derive(Clone)]
pub struct Keys {
    pub verifier: TokenVerifier,
    auth: AuthServiceClient<Upstream>,
    unknown_kid: Arc<Notify>,
    loaded: Arc<std::sync::atomic::AtomicBool>,
}

impl Keys {
    pub fn new(auth_url: &str) -> anyhow::Result<Self> {
        let channel = Upstream::new("auth", auth_url)?;
        Ok(Self {
            verifier: TokenVerifier::default(),
            auth: AuthServiceClient::new(channel),
            unknown_kid: Arc::new(Notify::new()),
            loaded: Arc::new(std::sync::atomic::AtomicBool::new(false)),
        })
    }

    /// Keys for `auth_url`, loaded now when auth answers within a few seconds. Auth may
    /// start after the service: then [`Self::run`] keeps trying in the background.
    pub async fn start(auth_url: &str) -> anyhow::Result<Self> {
        let keys = Self::new(auth_url)?;
        match tokio::time::timeout(Duration::from_secs(3), keys.fetch()).await {
            Ok(Ok(_)) => {}
            Ok(Err(error)) => tracing::warn!(%error, "token keys not loaded yet, will retry"),
            Err(_) => tracing::warn!("token keys not loaded yet (timed out), will retry"),
        }
        Ok(keys)
    }

    pub fn loaded(&self) -> bool {
        self.loaded.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Fetches the JWKS once.
    pub async fn fetch(&self) -> anyhow::Result<usize> {
        let request = crate::grpc::outgoing(GetJwksRequest {}, None, Duration::from_secs(5));
        let jwks = self.auth.clone().get_jwks(request).await?.into_inner();
        let n = self
            .verifier
            .load_jwks(&jwks.jwks_json)
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        self.loaded
            .store(true, std::sync::atomic::Ordering::Relaxed);
        tracing::debug!(keys = n, "token keys loaded");
        Ok(n)
    }

    /// Keeps the keys fresh until `stop` resolves.
    pub async fn run(self, stop: impl std::future::Future<Output = ()>) {
        tokio::pin!(stop);
        let mut backoff = Duration::from_millis(200);
        let mut last = Instant::now();
        loop {
            let wait = if self.loaded() {
                REFRESH_EVERY
            } else {
                backoff
            };
            tokio::select! {
                () = &mut stop => return,
                () = tokio::time::sleep(wait) => {}
                () = self.unknown_kid.notified() => {
                    if last.elapsed() < MIN_REFETCH {
                        continue;
                    }
                }
            }
            last = Instant::now();
            match self.fetch().await {
                Ok(_) => backoff = Duration::from_millis(200),
                Err(error) => {
                    tracing::warn!(%error, "cannot load token keys from auth, will retry");
                    backoff = (backoff * 2).min(Duration::from_secs(10));
                }
            }
        }
    }

    /// The identity interceptor ([`crate::grpc::identity`]), which also asks for a refresh
    /// when a token names a key we do not know (that call fails; the next one succeeds).
    pub fn interceptor(&self) -> impl tonic::service::Interceptor + Clone + use<> {
        let mut inner = crate::grpc::identity(self.verifier.clone());
        let verifier = self.verifier.clone();
        let notify = self.unknown_kid.clone();
        move |request: tonic::Request<()>| {
            let kid = request
                .metadata()
                .get("authorization")
                .and_then(|v| v.to_str().ok())
                .and_then(crate::caller::bearer)
                .and_then(TokenVerifier::kid_of);
            if let Some(kid) = kid
                && !verifier.knows(&kid)
            {
                notify.notify_one();
            }
            tonic::service::Interceptor::call(&mut inner, request)
        }
    }
}
