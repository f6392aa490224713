//! What Quinn asks catalog: its full-text search for the request's words within the price
//! bounds, the candidates the ranking starts from; and which of the ranked books are in
//! the shop now, as lists show them to the caller (the index is a copy fed by events: a
//! book may have left the shop a moment ago, or its title and price changed). A short
//! deadline on both: when catalog does not answer in time the index alone answers.

use std::collections::HashMap;
use std::time::Duration;

use quire_kit::caller::Caller;
use quire_kit::upstream::Upstream;
use quire_proto::catalog::v1 as pb;
use quire_proto::catalog::v1::catalog_service_client::CatalogServiceClient;

use crate::ranking::SearchHit;
use crate::understanding::Request;

/// Hits asked for: enough candidates to re-rank.
pub const PAGE_SIZE: u32 = 50;

#[derive(Clone)]
pub struct Catalog {
    client: CatalogServiceClient<Upstream>,
    timeout: Duration,
}

impl Catalog {
    pub fn new(url: &str, timeout: Duration) -> anyhow::Result<Self> {
        let client = CatalogServiceClient::new(Upstream::new("catalog", url)?);
        Ok(Self { client, timeout })
    }

    /// Catalog's hits for `request`, best first; none when catalog failed or was late
    /// (logged: the ranking then works from the index alone).
    pub async fn search(&self, caller: &Caller, request: &Request) -> Vec<SearchHit> {
        let query = pb::SearchRequest {
            query: request
                .query_string()
                .chars()
                .take(crate::MAX_INPUT_CHARS)
                .collect(),
            price_min_cents: request.min_price_cents.map_or(-1, i64::from),
            price_max_cents: request.max_price_cents.map_or(-1, i64::from),
            page: 1,
            page_size: PAGE_SIZE,
            ..pb::SearchRequest::default()
        };
        let call = quire_kit::grpc::outgoing(query, Some(caller), self.timeout);
        match self.client.clone().search(call).await {
            Ok(reply) => reply
                .into_inner()
                .hits
                .into_iter()
                .filter_map(|h| {
                    h.book.map(|b| SearchHit {
                        book_id: b.book_id,
                        score: h.score,
                    })
                })
                .collect(),
            Err(status) => {
                tracing::warn!(code = ?status.code(), message = status.message(), "catalog search failed: ranking from the index alone");
                Vec::new()
            }
        }
    }

    /// The books among `ids` that catalog lists now, by id, as lists show them to
    /// `caller` (their `bought` mark included); `None` when catalog failed or was late
    /// (logged: the index's copy answers then).
    pub async fn listed(
        &self,
        caller: &Caller,
        ids: &[String],
    ) -> Option<HashMap<String, pb::Book>> {
        if ids.is_empty() {
            return Some(HashMap::new());
        }
        let ask = pb::GetBooksRequest {
            book_ids: ids.to_vec(),
            ..pb::GetBooksRequest::default()
        };
        let call = quire_kit::grpc::outgoing(ask, Some(caller), self.timeout);
        match self.client.clone().get_books(call).await {
            Ok(reply) => Some(
                reply
                    .into_inner()
                    .books
                    .into_iter()
                    .map(|b| (b.book_id.clone(), b))
                    .collect(),
            ),
            Err(status) => {
                tracing::warn!(code = ?status.code(), message = status.message(), "catalog did not confirm the picks: answering from the index");
                None
            }
        }
    }
}
