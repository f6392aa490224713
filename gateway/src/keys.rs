//! The public keys that verify access tokens: kit's [`Keys`] (auth's JWKS, fetched at
//! start, every few minutes, and after a token names a key it has not seen), used the
//! gateway's way. The gateway is the first to see a token signed with a key new to it, so
//! such a request waits for one fetch (at most every 10 s) rather than failing.
//!
//! The verifier remembers a token that verified until it expires or the keys change (a
//! key withdrawn from the JWKS takes its tokens with it at the next fetch). Revocation is
//! not remembered; it is checked on every request.

use std::sync::Arc;
use std::time::{Duration, Instant};

use quire_kit::ApiError;
use quire_kit::caller::{Caller, TokenVerifier};
use quire_kit::jwks::Keys;
use tokio::sync::Mutex;

const MIN_REFETCH: Duration = Duration::from_secs(10);

#[derive(Clone)]
pub struct KeyStore {
    keys: Keys,
    last_fetch: Arc<Mutex<Option<Instant>>>,
}

/// Keeps the keys fresh while the gateway serves; stops when dropped.
pub struct RefreshTask(tokio::task::JoinHandle<()>);

impl Drop for RefreshTask {
    fn drop(&mut self) {
        self.0.abort();
    }
}

impl KeyStore {
    pub fn new(auth_url: &str) -> anyhow::Result<Self> {
        Ok(Self {
            keys: Keys::new(auth_url)?,
            last_fetch: Arc::new(Mutex::new(None)),
        })
    }

    /// Fetches the JWKS now (start-up, or a key we do not know), unless fetched within
    /// the last 10 s.
    pub async fn refresh(&self) -> anyhow::Result<()> {
        let mut last = self.last_fetch.lock().await;
        if last.is_some_and(|t| t.elapsed() < MIN_REFETCH) {
            return Ok(());
        }
        *last = Some(Instant::now());
        let n = self.keys.fetch().await?;
        tracing::info!(keys = n, "token keys loaded");
        Ok(())
    }

    /// Fetches the JWKS every few minutes (and, retrying, until auth first answers), so
    /// a key auth publishes as its next one is known before it signs, and a key it
    /// withdraws stops verifying.
    pub fn spawn_refresh(&self) -> RefreshTask {
        RefreshTask(tokio::spawn(
            self.keys.clone().run(std::future::pending::<()>()),
        ))
    }

    pub async fn verify(&self, token: &str) -> Result<Caller, ApiError> {
        if let Some(kid) = TokenVerifier::kid_of(token)
            && !self.keys.verifier.knows(&kid)
            && let Err(error) = self.refresh().await
        {
            tracing::warn!(%error, "cannot refresh token keys");
        }
        self.keys.verifier.verify(token)
    }
}
