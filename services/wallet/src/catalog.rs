//! What the wallet asks catalog before a trade (the book's price, seller and title) and
//! before a crowd-funding campaign opens (the book's writer and title). The client's word
//! is never taken for any of them.

use std::time::Duration;

use quire_kit::caller::Caller;
use quire_kit::{ApiError, ErrorCode};
use quire_proto::catalog::v1 as pb;
use uuid::Uuid;

use crate::AppState;
use crate::error::{CommonErrors, Result, WalletError};

/// A book in the shop, as catalog sees it now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sale {
    pub book_id: Uuid,
    pub title: String,
    pub price_cents: i64,
    pub seller: Uuid,
}

/// Asks catalog for `book` on behalf of `caller` (its token and the trace go along):
/// catalog's 404 (unknown book) and 409 (not in the shop) pass through, anything else
/// that goes wrong there is a 503.
pub async fn book_for_sale(state: &AppState, caller: &Caller, book: Uuid) -> Result<Sale> {
    let request = quire_kit::grpc::outgoing(
        pb::GetBookForSaleRequest {
            book_id: book.to_string(),
        },
        Some(caller),
        Duration::from_millis(state.config.catalog_timeout_ms),
    );
    let reply = state
        .catalog
        .clone()
        .get_book_for_sale(request)
        .await
        .map_err(|status| from_catalog(&status))?
        .into_inner();
    let seller = Uuid::parse_str(&reply.seller_uid).map_err(|_| {
        WalletError::internal(format!("catalog named seller {:?}", reply.seller_uid))
    })?;
    if reply.price_cents < 0 {
        return Err(WalletError::internal(format!(
            "catalog priced book {book} below zero"
        )));
    }
    Ok(Sale {
        book_id: book,
        title: reply.title,
        price_cents: reply.price_cents,
        seller,
    })
}

/// A book as its writer sees it (listed or not).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Book {
    pub book_id: Uuid,
    pub title: String,
    pub writer: Uuid,
}

/// Asks catalog for `book` on behalf of `caller` (none: an anonymous visitor): its writer
/// sees it listed or not; for anyone else a book catalog hides is catalog's 404, passed
/// through as it is.
pub async fn book(state: &AppState, caller: Option<&Caller>, book: Uuid) -> Result<Book> {
    let request = quire_kit::grpc::outgoing(
        pb::GetBookRequest {
            book_id: book.to_string(),
        },
        caller,
        Duration::from_millis(state.config.catalog_timeout_ms),
    );
    let reply = state
        .catalog
        .clone()
        .get_book(request)
        .await
        .map_err(|status| from_catalog(&status))?
        .into_inner();
    let writer = Uuid::parse_str(&reply.upload_writer_id).map_err(|_| {
        WalletError::internal(format!(
            "catalog named writer {:?} of book {book}",
            reply.upload_writer_id
        ))
    })?;
    Ok(Book {
        book_id: book,
        title: reply.title,
        writer,
    })
}

fn from_catalog(status: &tonic::Status) -> WalletError {
    let error = ApiError::from_status(status);
    match error.code {
        ErrorCode::NotFound
        | ErrorCode::Conflict
        | ErrorCode::BadRequest
        | ErrorCode::Unauthenticated => WalletError::from(error),
        _ => {
            tracing::warn!(code = ?status.code(), message = status.message(), "catalog call failed");
            WalletError::from(ApiError::unavailable("Catalog temporarily unavailable"))
        }
    }
}
