//! Calls to a service that runs as several replicas, balanced per call, not per connection.
//!
//! A tonic channel to one address (a ClusterIP) balances per connection: each caller holds
//! one HTTP/2 connection, so every call it makes goes to one pod and the pods an autoscaler
//! adds get none. An [`Upstream`] instead knows the replicas themselves: the addresses its
//! URL's name resolves to (a headless Service in Kubernetes answers one address per ready
//! pod), resolved again every [`replicas::REFRESH`] as pods come and go; a URL may also list
//! several `host:port`s separated by commas. Each call goes to the next live replica in
//! turn, over that replica's own connection.
//!
//! tonic's `balance_channel` (tower's power-of-two-choices balancer) was the first choice
//! and is not used: a replica that is gone answers connection errors at once, so it looks
//! the least loaded and is picked ever more often, and nothing takes it out until its
//! address leaves the resolver's answer; neither says which service is down. Here:
//!
//! - a replica whose connection fails is left out and probed until it accepts
//!   connections again ([`replicas`]);
//! - a call that never reached a replica (its connection could not be made) goes to the
//!   next one; a read (a method that changes nothing, [`is_idempotent`]) or a write its
//!   service replays by key ([`replayed_by`]: the wallet's money methods) whose connection
//!   broke goes to the next one too. Other writes are never sent twice here: the change
//!   may have been made. A call sent again carries what is left of its deadline, not a
//!   new one;
//! - with no live replica the call fails at once, as `UNAVAILABLE` with the reason
//!   `<part>_unavailable` and a `Retry-After`, instead of waiting out its deadline.
//!
//! It never decides anything about a call's content: it only chooses where it goes.

mod replicas;

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Instant;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use tonic::body::Body;
use tower_service::Service;

use crate::error::{ApiError, ErrorCode};
use replicas::{Replica, Replicas};

/// Seconds a caller is asked to wait when a service has no live replica.
pub const RETRY_AFTER_SECS: u64 = 5;

/// How many replicas one call may be sent to at most.
const MAX_ATTEMPTS: usize = 3;

type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// A client transport over every replica of one service (see the module). Cheap to clone:
/// clones share the replicas and their connections.
#[derive(Clone)]
pub struct Upstream {
    replicas: Arc<Replicas>,
}

impl std::fmt::Debug for Upstream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Upstream")
            .field("part", &self.replicas.part())
            .finish_non_exhaustive()
    }
}

/// Where a service's replicas are, checked once: [`Address::connect`] makes an
/// [`Upstream`] from it on each runtime that needs one.
#[derive(Clone, Debug)]
pub struct Address {
    part: &'static str,
    targets: Vec<replicas::Target>,
}

impl Address {
    /// The replicas of `part` (the service's short name, as errors name it: `chat`) at
    /// `url`: `http://name:port`, or several such separated by commas.
    pub fn parse(part: &'static str, url: &str) -> Result<Self, UpstreamError> {
        Ok(Self {
            part,
            targets: replicas::targets(url)?,
        })
    }

    /// An upstream whose connections and upkeep run on the current runtime (it must be
    /// called inside one).
    pub fn connect(&self) -> Upstream {
        let replicas = Replicas::new(self.part, self.targets.clone());
        replicas::spawn_upkeep(&replicas);
        Upstream { replicas }
    }
}

impl Upstream {
    /// [`Address::parse`] and [`Address::connect`] at once.
    pub fn new(part: &'static str, url: &str) -> Result<Self, UpstreamError> {
        Ok(Address::parse(part, url)?.connect())
    }
}

/// A URL an [`Upstream`] cannot use.
#[derive(Debug, thiserror::Error)]
#[error("bad upstream URL {url:?}: {why}")]
pub struct UpstreamError {
    pub url: String,
    pub why: &'static str,
}

impl Service<http::Request<Body>> for Upstream {
    type Response = http::Response<Body>;
    type Error = BoxError;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Response, BoxError>> + Send>>;

    fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), BoxError>> {
        // Each replica's own channel is made ready in `call`, once a replica is chosen.
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: http::Request<Body>) -> Self::Future {
        let replicas = self.replicas.clone();
        Box::pin(send(replicas, request))
    }
}

/// The metadata a write carries when its service replays it by key (the wallet's money
/// methods with the REST call's `Idempotency-Key`): such a write, cut off by a replica's
/// death, is sent again to another replica, which answers the key's first answer or makes
/// the change that never committed.
pub const REPLAY_KEY: &str = "quire-idempotency-key";

/// Marks `request` as replayed by `key` ([`REPLAY_KEY`]); an empty key marks nothing, for
/// a write without a key must never be sent twice.
pub fn replayed_by<T>(request: &mut tonic::Request<T>, key: &str) {
    if key.is_empty() {
        return;
    }
    if let Ok(value) = tonic::metadata::MetadataValue::try_from(key) {
        request.metadata_mut().insert(REPLAY_KEY, value);
    }
}

/// True for the methods that change nothing, by the names Quire gives them: sending one
/// twice is harmless.
pub fn is_idempotent(path: &str) -> bool {
    let method = path.rsplit('/').next().unwrap_or_default();
    ["Get", "List", "Search", "AdminList", "Check"]
        .iter()
        .any(|p| method.starts_with(p))
        || method.ends_with("Stats")
        || ["RevenueCurve", "SalesReport", "RecentUsers"].contains(&method)
}

/// True for a call that may go to a second replica after its connection broke: a read, or
/// a write replayed by its key.
fn may_send_again<B>(request: &http::Request<B>) -> bool {
    is_idempotent(request.uri().path()) || request.headers().contains_key(REPLAY_KEY)
}

async fn send(
    replicas: Arc<Replicas>,
    request: http::Request<Body>,
) -> Result<http::Response<Body>, BoxError> {
    replicas.resolved().await;
    let started = Instant::now();
    let timeout = request
        .headers()
        .get(crate::deadline::HEADER)
        .and_then(|v| v.to_str().ok())
        .and_then(crate::deadline::parse);
    let idempotent = may_send_again(&request);
    let (head, body) = request.into_parts();
    // A unary request's body is one message: kept, so that it can go to another replica.
    let body: Bytes = body.collect().await?.to_bytes();
    let mut tried: Vec<Arc<Replica>> = Vec::new();
    loop {
        let Some(replica) = replicas.pick(&tried) else {
            return Err(Box::new(unavailable(replicas.part())));
        };
        let mut head = head.clone();
        if let Some(timeout) = timeout {
            let left = timeout.saturating_sub(started.elapsed());
            if left.is_zero() {
                return Err(Box::new(tonic::Status::deadline_exceeded(
                    "the call's deadline passed before a replica answered",
                )));
            }
            if let Ok(v) = http::HeaderValue::try_from(crate::deadline::format(left)) {
                head.headers.insert(crate::deadline::HEADER, v);
            }
        }
        let attempt = http::Request::from_parts(head, Body::new(Full::new(body.clone())));
        let mut channel = replica.channel();
        let answer = async {
            std::future::poll_fn(|cx| channel.poll_ready(cx)).await?;
            channel.call(attempt).await
        }
        .await;
        match answer {
            Ok(response) => {
                replica.answered();
                return Ok(response);
            }
            Err(error) => {
                let unsent = never_sent(&error);
                replica.failed();
                tried.push(replica);
                let again = (unsent || idempotent) && tried.len() < MAX_ATTEMPTS;
                tracing::warn!(
                    part = replicas.part(),
                    error = %error,
                    unsent,
                    again,
                    "a replica failed a call"
                );
                if !again {
                    return Err(error.into());
                }
            }
        }
    }
}

/// True when the call's connection could not be made: the replica never saw it.
fn never_sent(error: &(dyn std::error::Error + 'static)) -> bool {
    let mut source = Some(error);
    while let Some(e) = source {
        if e.downcast_ref::<tonic::ConnectError>().is_some() {
            return true;
        }
        source = e.source();
    }
    false
}

/// The failure of a call no replica of `part` could take.
fn unavailable(part: &str) -> tonic::Status {
    let mut error = ApiError::new(
        ErrorCode::Unavailable,
        format!("{part}_unavailable"),
        format!("The {part} service is not answering right now; try again in a moment"),
    );
    error.retry_after_secs = Some(RETRY_AFTER_SECS);
    error.into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_are_sent_again_and_writes_never() {
        for read in [
            "/quire.catalog.v1.CatalogService/GetBook",
            "/quire.catalog.v1.CatalogService/ListBooks",
            "/quire.catalog.v1.CatalogService/Search",
            "/quire.chat.v1.ChatService/ChatStats",
            "/grpc.health.v1.Health/Check",
        ] {
            assert!(is_idempotent(read), "{read}");
        }
        for write in [
            "/quire.wallet.v1.WalletService/Trade",
            "/quire.wallet.v1.WalletService/Recharge",
            "/quire.catalog.v1.CatalogService/CreateBook",
            "/quire.chat.v1.ChatService/RecommendBooks",
            "/quire.auth.v1.AuthService/Login",
        ] {
            assert!(!is_idempotent(write), "{write}");
        }
    }

    #[test]
    fn a_write_goes_again_only_with_its_replay_key() {
        let trade = |key: &str| {
            let mut request = tonic::Request::new(());
            replayed_by(&mut request, key);
            let mut http = http::Request::new(());
            *http.uri_mut() = http::Uri::from_static("/quire.wallet.v1.WalletService/Trade");
            *http.headers_mut() = request.metadata().clone().into_headers();
            http
        };
        assert!(
            !may_send_again(&trade("")),
            "a write without a key goes once"
        );
        assert!(may_send_again(&trade("buy-42")));
        let mut read = http::Request::new(());
        *read.uri_mut() = http::Uri::from_static("/quire.wallet.v1.WalletService/GetWallet");
        assert!(may_send_again(&read));
    }

    #[test]
    fn no_replica_left_names_the_part_and_when_to_try_again() {
        let back = ApiError::from_status(&unavailable("chat"));
        assert_eq!(back.code, ErrorCode::Unavailable);
        assert_eq!(back.reason, "chat_unavailable");
        assert_eq!(back.retry_after_secs, Some(RETRY_AFTER_SECS));
        assert!(back.message.contains("chat service"), "{}", back.message);
    }
}
