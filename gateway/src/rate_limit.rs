//! Rate limits shared by every gateway replica, kept in Redis: a fixed one-minute window
//! per class of route and client, with `Retry-After` telling how long to wait.

use quire_kit::ApiError;

/// Routes limited together.
#[derive(Debug, Clone, Copy)]
pub enum Class {
    Login,
    Verify,
    Api,
    /// Calls that carry a file (covers).
    Upload,
}

impl Class {
    fn name(self) -> &'static str {
        match self {
            Self::Login => "login",
            Self::Verify => "verify",
            Self::Api => "api",
            Self::Upload => "upload",
        }
    }
}

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
    redis: &mut redis::aio::ConnectionManager,
    class: Class,
    client: &str,
    per_minute: u32,
) -> Result<(), ApiError> {
    let key = format!("quire:rl:{}:{client}", class.name());
    let mut pipe = redis::pipe();
    count_in_window(&mut pipe, &key);
    let (count, ttl): (u32, i64) = pipe.query_async(redis).await.map_err(|e| {
        tracing::error!(error = %e, "rate limit store unreachable");
        ApiError::unavailable("Service temporarily unavailable")
    })?;
    if count > per_minute {
        metrics::counter!("quire_gateway_rate_limited_total", "class" => class.name()).increment(1);
        return Err(ApiError::rate_limited(ttl.max(1) as u64));
    }
    Ok(())
}
