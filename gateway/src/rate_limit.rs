//! Rate limits shared by every gateway replica, kept in Redis: a fixed one-minute window
//! per class of route and client, with `Retry-After` telling how long to wait.
//!
//! Signed-in callers are counted per user as their token is checked
//! ([`crate::auth_guard`]); every `/api` call without a token that verifies is counted per
//! client address here ([`anonymous`]), so that nobody goes uncounted. How many a class allows
//! is read from [`crate::live_limits`] on every request, so an admin's change applies at
//! once.
//!
//! The limits are applied through methods of [`AppState`] ([`AppState::limit`],
//! [`AppState::limit_user`]), written here beside the counting so that the state knows
//! nothing of it.
//!
//! While Redis is unreachable the windows are counted in this process instead
//! ([`crate::local_limits`]): a limit per replica rather than none, and rather than
//! refusing every request because the counter is away.

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::middleware::Next;
use actix_web::web;
use actix_web::{HttpMessage, HttpRequest};
use quire_kit::ApiError;
use quire_kit::caller::Caller;

use crate::live_limits::Class;

use crate::envelope::Failure;
use crate::shared_store::Unreachable;
use crate::state::AppState;

/// Adds to `pipe` the commands that count one request in the window of `key` and read
/// the window's remaining seconds: they answer (count, ttl).
pub fn count_in_window(pipe: &mut redis::Pipeline, key: &str) {
    // NX keeps the expiry set by the window's first request.
    pipe.incr(key, 1)
        .cmd("EXPIRE")
        .arg(key)
        .arg(60)
        .arg("NX")
        .ignore()
        .ttl(key);
}

/// Counts one request of `class` from `client`; refuses it past `per_minute`.
pub async fn check(
    state: &AppState,
    class: Class,
    client: &str,
    per_minute: u32,
) -> Result<(), ApiError> {
    let key = format!("quire:rl:{}:{client}", class.name());
    let mut pipe = redis::pipe();
    count_in_window(&mut pipe, &key);
    let (count, ttl) = match state.store.query::<(u32, i64)>(&pipe).await {
        Ok(answer) => answer,
        Err(Unreachable) => count_locally(state, &key),
    };
    refuse_past(class, count, ttl, per_minute)
}

/// Counts one request in this process's window of `key`, for when Redis is unreachable:
/// answers (count, seconds left) as the Redis commands would.
pub fn count_locally(state: &AppState, key: &str) -> (u32, i64) {
    metrics::counter!("quire_gateway_local_rate_limit_total").increment(1);
    let (count, left) = state.local_limits.count(key);
    (count, left as i64)
}

/// The limit's verdict on the `count`th request of a window with `ttl` seconds left.
pub fn refuse_past(class: Class, count: u32, ttl: i64, per_minute: u32) -> Result<(), ApiError> {
    if count > per_minute {
        metrics::counter!("quire_gateway_rate_limited_total", "class" => class.name()).increment(1);
        return Err(ApiError::rate_limited(ttl.max(1) as u64));
    }
    Ok(())
}

impl AppState {
    /// Applies the rate limit of `class` to the client of `req`.
    pub async fn limit(&self, req: &HttpRequest, class: Class) -> Result<(), ApiError> {
        check(self, class, &self.client(req), self.per_minute(class)).await
    }

    /// Applies the rate limit of `class` to the signed-in `caller`, from wherever they call.
    pub async fn limit_user(&self, caller: &Caller, class: Class) -> Result<(), ApiError> {
        check(
            self,
            class,
            &format!("user:{}", caller.user_id()),
            self.per_minute(class),
        )
        .await
    }
}

/// Counts every `/api` request whose bearer token does not verify (or that has none)
/// against its address's anonymous limit; a caller whose token verifies is counted per
/// user when the route checks it, and the verified caller is handed on to that check
/// ([`Verified`]) so the signature is checked once.
pub async fn anonymous(
    req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    if req.path().starts_with("/api/")
        && let Some(state) = req.app_data::<web::Data<AppState>>().cloned()
    {
        // A request is anonymous unless its token verifies: any `Bearer x` header must
        // not lift the limit of the routes that read no caller (the API document, moods).
        let token = req
            .headers()
            .get("authorization")
            .and_then(|v| v.to_str().ok())
            .and_then(quire_kit::caller::bearer)
            .map(str::to_owned);
        let verified = match token {
            Some(token) => state.keys.verify(&token).await.ok(),
            None => None,
        };
        match verified {
            Some(caller) => {
                req.extensions_mut().insert(Verified(caller));
            }
            None => state
                .limit(req.request(), Class::Anonymous)
                .await
                .map_err(Failure::from)?,
        }
    }
    next.call(req).await
}

/// The caller whose token [`anonymous`] verified, for [`crate::auth_guard`].
#[derive(Clone)]
pub struct Verified(pub Caller);
