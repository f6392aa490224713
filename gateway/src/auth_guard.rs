//! Who is calling. [`Authenticated`] refuses a request without a valid, unrevoked bearer
//! token; [`MaybeAuthenticated`] lets anonymous callers through. One Redis round trip per
//! request both checks revocation (the token itself at logout, its session at logout or
//! when a refresh token was replayed, or every session ended by a password reset) and
//! counts the caller's API rate limit.

use std::future::Future;
use std::pin::Pin;

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
    let (count, ttl, revoked, session_ended, ended): (u32, i64, bool, bool, Option<i64>) = pipe
        .query_async(&mut state.redis().await?)
        .await
        .map_err(|e| {
            tracing::error!(error = %e, "redis unreachable");
            ApiError::unavailable("Service temporarily unavailable")
        })?;
    if revoked || session_ended || ended.is_some_and(|at| caller.claims.issued_at_ms() <= at) {
        return Err(ApiError::unauthenticated("Token revoked, log in again").into());
    }
    if count > state.per_minute(crate::live_limits::Class::Api) {
        return Err(ApiError::rate_limited(ttl.max(1) as u64).into());
    }
    Ok(Some(caller))
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
