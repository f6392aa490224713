//! Read-your-writes for purchases. The purchases projection learns of a trade from
//! `trade.completed`, a moment after the wallet committed it; a buyer who opens the book
//! in that moment must already get it whole. So when the projection does not list a
//! purchase, catalog asks the wallet (the source of truth) and records what it answers in
//! the projection, where the event, when it comes, changes nothing.
//!
//! It only ever widens access for a caller who really bought the book: an unreachable or
//! slow wallet leaves the answer at "not bought", which serves the trial, never an error.

use std::time::Duration;

use diesel_async::AsyncPgConnection;
use quire_kit::caller::Caller;
use quire_kit::upstream::Upstream;
use quire_proto::wallet::v1 as pb;
use quire_proto::wallet::v1::wallet_service_client::WalletServiceClient;
use uuid::Uuid;

use crate::db::purchase::PurchaseRow;
use crate::error::Result;
use crate::projections;

#[derive(Clone)]
pub struct WalletPurchases {
    client: WalletServiceClient<Upstream>,
    timeout: Duration,
}

impl WalletPurchases {
    pub fn new(url: &str, timeout: Duration) -> anyhow::Result<Self> {
        Ok(Self {
            client: WalletServiceClient::new(Upstream::new("wallet", url)?),
            timeout,
        })
    }

    /// Did `caller` buy `book_id`, by the wallet's word? A yes is recorded in the
    /// projection so the next read is answered locally.
    pub async fn confirm(
        &self,
        conn: &mut AsyncPgConnection,
        caller: &Caller,
        book_id: Uuid,
    ) -> Result<bool> {
        let request = quire_kit::grpc::outgoing(
            pb::GetPurchaseRequest {
                user_id: caller.user_id().to_string(),
                book_id: book_id.to_string(),
            },
            Some(caller),
            self.timeout,
        );
        let reply = match self.client.clone().get_purchase(request).await {
            Ok(reply) => reply.into_inner(),
            Err(status) => {
                tracing::warn!(code = ?status.code(), message = status.message(), %book_id, "wallet did not say whether the book was bought; serving the trial");
                return Ok(false);
            }
        };
        let Some(row) = reply
            .trade
            .as_ref()
            .and_then(|t| purchase_row(t, caller, book_id))
        else {
            return Ok(false);
        };
        projections::record_purchase(conn, row).await?;
        tracing::info!(%book_id, "purchase confirmed by the wallet before its event arrived");
        Ok(true)
    }
}

/// The projection row of a trade the wallet answered, if it is the caller's trade of the
/// book asked about (anything else is not trusted).
fn purchase_row(trade: &pb::Trade, caller: &Caller, book_id: Uuid) -> Option<PurchaseRow> {
    let buyer = Uuid::parse_str(&trade.buyer_uid).ok()?;
    let book = Uuid::parse_str(&trade.book_id).ok()?;
    if buyer != caller.user_id() || book != book_id {
        return None;
    }
    Some(PurchaseRow {
        user_id: buyer,
        book_id: book,
        trade_id: Uuid::parse_str(&trade.trade_id).ok()?,
        price_cents: trade.price_cents,
        purchased_at: chrono::DateTime::parse_from_rfc3339(&trade.created_at)
            .map(|t| t.with_timezone(&chrono::Utc))
            .unwrap_or_else(|_| chrono::Utc::now()),
    })
}
