//! What the manuscript service asks catalog: to make a manuscript's book (on the writer's
//! behalf, with an id chosen here so that asking again is safe), for the sweeper whether a
//! book exists, and for pricing a book its projection has not seen yet.

use std::time::Duration;

use quire_kit::caller::Caller;
use quire_kit::upstream::Upstream;
use quire_kit::{ApiError, ErrorCode};
use quire_proto::catalog::v1 as pb;
use quire_proto::catalog::v1::catalog_service_client::CatalogServiceClient;
use uuid::Uuid;

/// Attempts at CreateBook before the outcome is left to the sweeper.
const ATTEMPTS: u32 = 3;
/// The deadline of a lookup a caller waits on (not the long one of CreateBook, which
/// stores and reads the book's file).
const LOOKUP_TIMEOUT: Duration = Duration::from_secs(5);

#[derive(Clone)]
pub struct Catalog {
    client: CatalogServiceClient<Upstream>,
    timeout: Duration,
}

/// How a CreateBook went.
#[derive(Debug)]
pub enum Created {
    Made,
    /// Catalog said no: nothing was made.
    Refused(ApiError),
    /// No answer came: the book may or may not exist.
    Unknown(ApiError),
}

/// Answers after which catalog certainly made nothing (its transaction did not commit).
/// Anything else (no answer, a deadline, an internal failure after the commit) may hide a
/// book that exists.
fn refused(code: ErrorCode) -> bool {
    matches!(
        code,
        ErrorCode::BadRequest
            | ErrorCode::Unauthenticated
            | ErrorCode::Forbidden
            | ErrorCode::NotFound
            | ErrorCode::Conflict
            | ErrorCode::PayloadTooLarge
            | ErrorCode::Unprocessable
    )
}

impl Catalog {
    /// `max_message` bounds the request (the book's file) this client sends.
    pub fn new(url: &str, timeout: Duration, max_message: usize) -> anyhow::Result<Self> {
        let client = CatalogServiceClient::new(Upstream::new("catalog", url)?)
            .max_encoding_message_size(max_message);
        Ok(Self { client, timeout })
    }

    /// Makes the book `request.book_id` for `caller`, asking again (the same id makes no
    /// second book) while no answer comes.
    pub async fn create_book(&self, caller: &Caller, request: pb::CreateBookRequest) -> Created {
        let mut last = ApiError::unavailable("Catalog temporarily unavailable");
        for attempt in 1..=ATTEMPTS {
            let call = quire_kit::grpc::outgoing(request.clone(), Some(caller), self.timeout);
            match self.client.clone().create_book(call).await {
                Ok(_) => return Created::Made,
                Err(status) => {
                    let error = ApiError::from_status(&status);
                    if refused(error.code) {
                        return Created::Refused(error);
                    }
                    tracing::warn!(attempt, code = ?status.code(), message = status.message(), "catalog did not make the book yet");
                    last = error;
                }
            }
            if attempt < ATTEMPTS {
                tokio::time::sleep(Duration::from_millis(500 * u64::from(attempt))).await;
            }
        }
        Created::Unknown(last)
    }

    /// Whether book `id` exists (listed or not); `None` when catalog does not say.
    pub async fn book_exists(&self, id: Uuid) -> Option<bool> {
        let call = quire_kit::grpc::outgoing(
            pb::GetBookForSaleRequest {
                book_id: id.to_string(),
            },
            None,
            self.timeout,
        );
        match self.client.clone().get_book_for_sale(call).await {
            Ok(_) => Some(true),
            Err(status) => match ApiError::from_status(&status).code {
                ErrorCode::NotFound => Some(false),
                // Not in the shop: it exists.
                ErrorCode::Conflict => Some(true),
                _ => None,
            },
        }
    }

    /// Book `id` as `caller` may see it (catalog hides an unlisted book from all but its
    /// writer, its publisher and admins): `Ok(None)` when it is not there for them.
    pub async fn get_book(&self, caller: &Caller, id: Uuid) -> Result<Option<pb::Book>, ApiError> {
        let call = quire_kit::grpc::outgoing(
            pb::GetBookRequest {
                book_id: id.to_string(),
            },
            Some(caller),
            LOOKUP_TIMEOUT,
        );
        match self.client.clone().get_book(call).await {
            Ok(reply) => Ok(Some(reply.into_inner())),
            Err(status) => {
                let error = ApiError::from_status(&status);
                match error.code {
                    ErrorCode::NotFound => Ok(None),
                    _ => Err(error),
                }
            }
        }
    }
}
