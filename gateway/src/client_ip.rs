//! The client's address, for rate limits and login throttling.
//!
//! Every proxy appends the address it received the request from to `X-Forwarded-For`, so
//! only the hops on the right were written by proxies we run; everything to their left
//! came from the client and can say anything. With `hops` trusted proxies in front of the
//! gateway, the client is the `hops`-th address from the right: the one the outermost
//! trusted proxy saw. With no trusted proxy it is the peer address.

use std::net::IpAddr;

use actix_web::HttpRequest;

pub fn of(req: &HttpRequest, trusted_proxy_hops: usize) -> String {
    let forwarded = req
        .headers()
        .get_all("x-forwarded-for")
        .filter_map(|v| v.to_str().ok())
        .collect::<Vec<_>>()
        .join(",");
    from_forwarded(&forwarded, trusted_proxy_hops).unwrap_or_else(|| {
        req.peer_addr()
            .map(|a| a.ip().to_string())
            .unwrap_or_else(|| "unknown".into())
    })
}

/// The address `hops` from the right of a forwarded-for list, when there is one and it
/// is an address. A list shorter than `hops` was written by our proxies alone (a request
/// that entered past the outermost one), so its leftmost entry is taken.
fn from_forwarded(list: &str, hops: usize) -> Option<String> {
    if hops == 0 {
        return None;
    }
    let entries: Vec<&str> = list
        .split(',')
        .map(str::trim)
        .filter(|e| !e.is_empty())
        .collect();
    let index = entries.len().saturating_sub(hops);
    let entry = entries.get(index)?;
    parse(entry).map(|ip| ip.to_string())
}

/// An address as proxies write it: bare, or `[v6]:port`, or `v4:port`.
fn parse(entry: &str) -> Option<IpAddr> {
    if let Ok(ip) = entry.parse() {
        return Some(ip);
    }
    if let Some(rest) = entry.strip_prefix('[') {
        return rest.split(']').next()?.parse().ok();
    }
    entry.rsplit_once(':')?.0.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_trusted_proxies_the_header_is_ignored() {
        assert_eq!(from_forwarded("203.0.113.9", 0), None);
    }

    #[test]
    fn the_hop_our_proxy_appended_wins_over_what_the_client_wrote() {
        // The client wrote "198.51.100.7, 192.0.2.1"; our ingress appended 203.0.113.9.
        let list = "198.51.100.7, 192.0.2.1, 203.0.113.9";
        assert_eq!(from_forwarded(list, 1).as_deref(), Some("203.0.113.9"));
        assert_eq!(from_forwarded(list, 2).as_deref(), Some("192.0.2.1"));
    }

    #[test]
    fn a_short_list_gives_its_leftmost_entry() {
        assert_eq!(
            from_forwarded("203.0.113.9", 2).as_deref(),
            Some("203.0.113.9")
        );
    }

    #[test]
    fn garbage_or_ports_are_handled() {
        assert_eq!(from_forwarded("x, not-an-ip", 1), None);
        assert_eq!(
            from_forwarded("203.0.113.9:4431", 1).as_deref(),
            Some("203.0.113.9")
        );
        assert_eq!(
            from_forwarded("[2001:db8::1]:443", 1).as_deref(),
            Some("2001:db8::1")
        );
        assert_eq!(
            from_forwarded("2001:db8::1", 1).as_deref(),
            Some("2001:db8::1")
        );
    }
}
