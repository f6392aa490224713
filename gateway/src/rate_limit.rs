//! Rate limits shared by every gateway replica, kept in Redis: a fixed one-minute window
//! per class of route and client, with `Retry-After` telling how long to wait.

use quire_kit::ApiError;

/// Routes limited together.
#[derive(Debug, Clone, Copy)]
pub enum Class {
    Login,
    Verify,
    Api,
}

impl Class {
    fn name(self) -> &'static str {
        match self {
            Self::Login => "login",
            Self::Verify => "verify",
            Self::Api => "api",
        }
    }
}

/// Counts one request of `class` from `client`; refuses it past `per_minute`.
pub async fn check(
    redis: &mut redis::aio::ConnectionManager,
    class: Class,
    client: &str,
    per_minute: u32,
) -> Result<(), ApiError> {
    let key = format!("quire:rl:{}:{client}", class.name());
    // INCR and set the window's expiry together; NX keeps the first expiry of a window.
    let (count, ttl): (u32, i64) = redis::pipe()
        .atomic()
        .incr(&key, 1)
        .cmd("EXPIRE")
        .arg(&key)
        .arg(60)
        .arg("NX")
        .ignore()
        .ttl(&key)
        .query_async(redis)
        .await
        .map_err(|e| {
            tracing::error!(error = %e, "rate limit store unreachable");
            ApiError::unavailable("Service temporarily unavailable")
        })?;
    if count > per_minute {
        metrics::counter!("quire_gateway_rate_limited_total", "class" => class.name()).increment(1);
        return Err(ApiError::rate_limited(ttl.max(1) as u64));
    }
    Ok(())
}
