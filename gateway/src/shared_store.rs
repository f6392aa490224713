//! The state every gateway replica shares, kept in Redis: the rate-limit windows and the
//! revoked tokens and ended sessions that auth writes.
//!
//! Redis is a part that can be down while the rest of Quire serves, so every use of it
//! here is bounded: a connection attempt and an answer each give up after
//! [`TIMEOUT`], one retry at most, and after a failure the store does not try again for
//! [`PAUSE`], so that while Redis is down a request pays nothing for it instead of a
//! timeout each. What the caller does without Redis is the caller's choice
//! ([`crate::rate_limit`] counts locally, [`crate::auth_guard`] lets reads on and refuses
//! writes); a caller that cannot do without it answers [`Unreachable`] as a 503.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use quire_kit::{ApiError, ErrorCode};
use redis::aio::{ConnectionManager, ConnectionManagerConfig};

/// How long one connection attempt or one answer may take. Redis answers in well under
/// a millisecond on a healthy network: a third of a second is a Redis that is not there.
pub const TIMEOUT: Duration = Duration::from_millis(300);

/// How long one request may spend on Redis in all: a connection and an answer. The
/// connection's one retry comes only after a delay of a second or more (the backoff's
/// first step), so a request gives up before it; a reconnection that Redis's connection
/// manager started in the background keeps its retry, for the requests after.
pub const BOUND: Duration = Duration::from_millis(600);

/// How long the store skips Redis after it failed.
pub const PAUSE: Duration = Duration::from_secs(2);

/// What `Retry-After` says when Redis is down: a few pauses, time for a restart.
pub const RETRY_AFTER_SECS: u64 = 5;

/// Redis did not answer (or is being skipped after it did not).
#[derive(Debug, Clone, Copy, thiserror::Error)]
#[error("redis unreachable")]
pub struct Unreachable;

impl From<Unreachable> for ApiError {
    fn from(_: Unreachable) -> Self {
        Self {
            retry_after_secs: Some(RETRY_AFTER_SECS),
            ..Self::new(
                ErrorCode::Unavailable,
                "cache_unavailable",
                "This needs a part of Quire that is down for a moment; try again shortly",
            )
        }
    }
}

impl From<Unreachable> for crate::envelope::Failure {
    fn from(e: Unreachable) -> Self {
        Self(e.into())
    }
}

/// The process's view of Redis: whether it is being skipped, shared by every worker.
struct Health {
    origin: Instant,
    /// Milliseconds after `origin` until which Redis is skipped (0: not skipped).
    down_until: AtomicU64,
}

impl Health {
    fn now_ms(&self) -> u64 {
        self.origin.elapsed().as_millis() as u64
    }
}

/// A handle on Redis. Clones share the down-or-up view; [`SharedStore::for_worker`] gives
/// an HTTP worker its own connection, driven by that worker's runtime.
#[derive(Clone)]
pub struct SharedStore {
    client: redis::Client,
    health: Arc<Health>,
    connection: Arc<tokio::sync::OnceCell<ConnectionManager>>,
}

impl SharedStore {
    /// Parses `url`; connects on first use, so a Redis that is down does not stop a start.
    pub fn open(url: &str) -> redis::RedisResult<Self> {
        Ok(Self {
            client: redis::Client::open(url)?,
            health: Arc::new(Health {
                origin: Instant::now(),
                down_until: AtomicU64::new(0),
            }),
            connection: Arc::default(),
        })
    }

    /// The same store with a connection of its own, opened on first use by the worker
    /// that calls it.
    pub fn for_worker(&self) -> Self {
        Self {
            client: self.client.clone(),
            health: self.health.clone(),
            connection: Arc::default(),
        }
    }

    /// Whether Redis is being skipped now after a failure.
    pub fn is_down(&self) -> bool {
        self.health.now_ms() < self.health.down_until.load(Ordering::Relaxed)
    }

    /// Runs `pipe` and reads its answer, or says at once that Redis is down.
    pub async fn query<T: redis::FromRedisValue>(
        &self,
        pipe: &redis::Pipeline,
    ) -> Result<T, Unreachable> {
        if self.is_down() {
            return Err(Unreachable);
        }
        // The timeouts of the connection bound each step; this bounds the whole (a
        // reconnection in progress, a retry).
        let asked = async {
            let mut connection = self.connection().await?;
            pipe.query_async::<T>(&mut connection).await
        };
        match tokio::time::timeout(BOUND, asked).await {
            Ok(Ok(answer)) => Ok(answer),
            Ok(Err(error)) => {
                if is_about_the_command(&error) {
                    tracing::error!(%error, "redis refused a command");
                } else {
                    self.mark_down(&error);
                }
                Err(Unreachable)
            }
            Err(_) => {
                self.mark_down(&"no answer in time");
                Err(Unreachable)
            }
        }
    }

    /// Whether Redis answers a PING now (for `/readyz` and the start).
    pub async fn ping(&self) -> bool {
        let mut pipe = redis::pipe();
        pipe.cmd("PING");
        self.query::<(String,)>(&pipe).await.is_ok()
    }

    async fn connection(&self) -> redis::RedisResult<ConnectionManager> {
        let config = ConnectionManagerConfig::new()
            .set_connection_timeout(TIMEOUT)
            .set_response_timeout(TIMEOUT)
            .set_number_of_retries(1);
        self.connection
            .get_or_try_init(|| ConnectionManager::new_with_config(self.client.clone(), config))
            .await
            .cloned()
    }

    fn mark_down(&self, error: &dyn std::fmt::Display) {
        let until = self.health.now_ms() + PAUSE.as_millis() as u64;
        let before = self.health.down_until.swap(until, Ordering::Relaxed);
        // Once per outage in the log, not once per request.
        if before
            <= self
                .health
                .now_ms()
                .saturating_sub(PAUSE.as_millis() as u64)
        {
            tracing::warn!(%error, "redis unreachable: skipped for a while");
        }
        metrics::counter!("quire_gateway_redis_failures_total").increment(1);
    }
}

/// An error Redis answered about the command itself (a wrong type, a bad argument): Redis
/// is there, and skipping it would not help.
fn is_about_the_command(error: &redis::RedisError) -> bool {
    matches!(
        error.kind(),
        redis::ErrorKind::TypeError | redis::ErrorKind::ResponseError
    )
}
