//! The client's address, for rate limits: the peer, or the first `X-Forwarded-For` hop
//! when the gateway runs behind a proxy it trusts.

use actix_web::HttpRequest;

pub fn of(req: &HttpRequest, trust_forwarded: bool) -> String {
    if trust_forwarded
        && let Some(first) = req
            .headers()
            .get("x-forwarded-for")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.split(',').next())
        && !first.trim().is_empty()
    {
        return first.trim().to_owned();
    }
    req.peer_addr()
        .map(|a| a.ip().to_string())
        .unwrap_or_else(|| "unknown".into())
}
