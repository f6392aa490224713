//! Who is calling. [`Authenticated`] refuses a request without a valid, unrevoked bearer
//! token; [`MaybeAuthenticated`] lets anonymous callers through. One Redis round trip per
//! request both checks revocation (the token itself at logout, its session at logout or
//! when a refresh token was replayed, or every session ended by a password reset) and
//! counts the caller's API rate limit.
//!
//! While Redis is unreachable revocation cannot be checked. A read (GET, HEAD, but for the
//! spec's purchase by GET: [`WRITES_BY_GET`]) goes on
//! with the token's signature and expiry checked, counted by the local rate limit, and the
//! skipped check logged and counted (`quire_gateway_degraded_total{part="redis"}`): a
//! revoked token can read its own account for at most its remaining lifetime, which is
//! what it could do before the logout anyway, while every reader keeps their shelf. A write
//! (POST, PUT, PATCH, DELETE, but for the few POST routes that only read: [`READS_BY_POST`])
//! is refused with 503 and `Retry-After`: a stolen token that was revoked must not be able
//! to spend money, publish or change a password while nobody can tell that it was revoked.

use std::future::Future;
use std::pin::Pin;

use actix_web::http::Method;
use actix_web::{FromRequest, HttpMessage, HttpRequest, web};
use quire_kit::ApiError;
use quire_kit::caller::{Caller, bearer, revoked_key, session_ended_key, sessions_ended_key};

use crate::envelope::Failure;
use crate::state::AppState;

/// A caller whose token verified and is not revoked.
pub struct Authenticated(pub Caller);

/// A caller if the request carries a token (a bad token is still refused).
pub struct MaybeAuthenticated(pub Option<Caller>);

fn token_of(req: &HttpRequest) -> Option<String> {
    req.headers()
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .and_then(bearer)
        .map(str::to_owned)
}

async fn authenticate(req: HttpRequest) -> Result<Option<Caller>, Failure> {
    let Some(state) = req.app_data::<web::Data<AppState>>().cloned() else {
        return Err(ApiError::internal(&"app state missing").into());
    };
    let Some(token) = token_of(&req) else {
        return Ok(None);
    };
    let verified = req
        .extensions()
        .get::<crate::rate_limit::Verified>()
        .map(|v| v.0.clone())
        .filter(|v| v.token == token);
    let caller = match verified {
        Some(caller) => caller,
        None => state.keys.verify(&token).await?,
    };
    let key = format!("quire:rl:user:{}", caller.user_id());
    let mut pipe = redis::pipe();
    crate::rate_limit::count_in_window(&mut pipe, &key);
    pipe.exists(revoked_key(&caller.claims.jti));
    // A token from before sessions had ids names none: the nil session, never ended.
    pipe.exists(session_ended_key(&caller.claims.sid.unwrap_or_default()));
    pipe.get(sessions_ended_key(&caller.user_id()));
    let answer = state
        .store
        .query::<(u32, i64, bool, bool, Option<i64>)>(&pipe)
        .await;
    let (count, ttl) = match answer {
        Ok((count, ttl, revoked, session_ended, ended)) => {
            if revoked
                || session_ended
                || ended.is_some_and(|at| caller.claims.issued_at_ms() <= at)
            {
                return Err(ApiError::unauthenticated("Token revoked, log in again").into());
            }
            (count, ttl)
        }
        Err(unreachable) => {
            if !is_read(&req) {
                return Err(unreachable.into());
            }
            metrics::counter!("quire_gateway_degraded_total", "part" => "redis").increment(1);
            tracing::warn!(
                user_id = %caller.user_id(),
                "revocation not checked on a read: redis unreachable"
            );
            crate::rate_limit::count_locally(&state, &key)
        }
    };
    let class = crate::live_limits::Class::Api;
    crate::rate_limit::refuse_past(class, count, ttl, state.per_minute(class))?;
    Ok(Some(caller))
}

/// The routes that take POST (the spec's, for their form or JSON bodies) but only read:
/// the shop, search, a wallet's balance and records, a price curve. A POST not listed here
/// counts as a write, so a route added without thought waits for Redis rather than
/// skipping the revocation check.
const READS_BY_POST: &[&str] = &[
    "/api/get_all_books/",
    "/api/search",
    "/api/wallet/info",
    "/api/wallet/all",
    "/api/top_up_records",
    "/api/get_trade_records",
    "/api/revenue_curve",
];

/// The routes that take GET (the spec's) but move money: a purchase.
const WRITES_BY_GET: &[&str] = &["/api/trade"];

/// Whether `req` only reads (see the module's comment on why only reads go on without
/// the revocation check).
fn is_read(req: &HttpRequest) -> bool {
    let method = req.method();
    let route_in = |routes: &[&str]| {
        req.match_pattern()
            .is_some_and(|route| routes.contains(&route.as_str()))
    };
    ((method == Method::GET || method == Method::HEAD) && !route_in(WRITES_BY_GET))
        || (method == Method::POST && route_in(READS_BY_POST))
}

impl FromRequest for Authenticated {
    type Error = Failure;
    type Future = Pin<Box<dyn Future<Output = Result<Self, Failure>>>>;

    fn from_request(req: &HttpRequest, _: &mut actix_web::dev::Payload) -> Self::Future {
        let req = req.clone();
        Box::pin(async move {
            authenticate(req)
                .await?
                .map(Authenticated)
                .ok_or_else(|| ApiError::unauthenticated("Authentication required").into())
        })
    }
}

impl FromRequest for MaybeAuthenticated {
    type Error = Failure;
    type Future = Pin<Box<dyn Future<Output = Result<Self, Failure>>>>;

    fn from_request(req: &HttpRequest, _: &mut actix_web::dev::Payload) -> Self::Future {
        let req = req.clone();
        Box::pin(async move { Ok(MaybeAuthenticated(authenticate(req).await?)) })
    }
}
