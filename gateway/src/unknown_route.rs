//! What no `/api` route matched: a 405 with `Allow` for a known path asked with another
//! method, else a 404. The known paths are read from the OpenAPI document itself, so the
//! answers and the document cannot disagree.

use std::sync::LazyLock;

use actix_web::{HttpRequest, HttpResponse, ResponseError};
use utoipa::OpenApi;

use crate::envelope::{method_not_allowed, not_found};

/// Every `/api` path (split at `/`; a `{name}` segment matches any one) with the methods
/// it takes (`GET, POST`), read once from the OpenAPI document, so that the 405 answers
/// and the document cannot disagree.
static KNOWN_PATHS: LazyLock<Vec<(Vec<String>, String)>> = LazyLock::new(|| {
    let doc = crate::openapi::ApiDoc::openapi();
    let mut known: Vec<(Vec<String>, String)> = doc
        .paths
        .paths
        .iter()
        .map(|(path, item)| {
            let methods: Vec<&str> = [
                ("GET", item.get.is_some()),
                ("PUT", item.put.is_some()),
                ("POST", item.post.is_some()),
                ("DELETE", item.delete.is_some()),
                ("PATCH", item.patch.is_some()),
            ]
            .into_iter()
            .filter_map(|(method, taken)| taken.then_some(method))
            .collect();
            (segments(path), methods.join(", "))
        })
        .collect();
    // The document's own pages are not in it.
    for page in ["/api/openapi.json", "/api/docs"] {
        known.push((segments(page), "GET".to_owned()));
    }
    known
});

fn segments(path: &str) -> Vec<String> {
    path.split('/').map(str::to_owned).collect()
}

/// The methods a known path takes, or `None` for a path the API does not have.
fn methods_of(path: &str) -> Option<&'static str> {
    let asked: Vec<&str> = path.split('/').collect();
    KNOWN_PATHS
        .iter()
        .find(|(pattern, _)| {
            pattern.len() == asked.len()
                && pattern.iter().zip(&asked).all(|(p, a)| {
                    p == a || (p.starts_with('{') && p.ends_with('}') && !a.is_empty())
                })
        })
        .map(|(_, methods)| methods.as_str())
}

/// What no route matched: 405 (with `Allow`) for a known path asked with another method,
/// else 404.
pub async fn unmatched(req: HttpRequest) -> HttpResponse {
    let method = req.method().as_str();
    match methods_of(req.path()) {
        Some(methods) if !methods.split(", ").any(|m| m == method) => method_not_allowed(methods),
        _ => not_found().error_response(),
    }
}
