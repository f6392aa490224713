//! A trade's transaction in three round trips: BEGIN, then every statement at once (see
//! `quire_kit::db`, *Pipelining*), then COMMIT. Sent one by one, its ten statements cost
//! ten round trips, each a wake-up and a system call on both sides, and the wallets stayed
//! locked for the last ones. The statements are the careful path's (`super::record` and
//! `idempotency::run_settling`), in the same order, so the locks are taken in the same
//! order too.
//!
//! Sent at once, a statement cannot depend on what the one before answered. So the flight
//! only commits a trade that went the usual way: the seller's share it was priced at still
//! the setting its transaction reads, the key fresh, the book not bought before, both
//! wallets there and enough money. Anything else rolls the whole transaction back and the
//! caller runs the careful path, which handles every case (a share an admin just changed,
//! a replay, a concurrent purchase, a seller's first sale opening a wallet, too little
//! money with its refusal remembered under the key).

use diesel::result::Error as DieselError;
use diesel_async::scoped_futures::ScopedFutureExt;
use diesel_async::{AsyncConnection, AsyncPgConnection};
use futures::future::{OptionFuture, join_all};
use quire_kit::KitError;
use quire_kit::events::{topics, types};
use quire_proto::wallet::v1 as pb;
use uuid::Uuid;

use super::{completed, insert_statement, log_bought, new_trade, postings, to_pb};
use crate::SOURCE;
use crate::catalog::Sale;
use crate::error::{Result, WalletError};
use crate::idempotency::{self, Key};
use crate::ledger::{self, TransferKind};
use crate::settings::SellerShare;

/// Runs `buyer`'s purchase of `sale`, priced at the seller's `share_percent` (as read
/// before), as one flight of statements; `None` when it did not go the usual way, the
/// share `setting` reads in the transaction included, and nothing was committed (the
/// caller then takes the careful path).
pub async fn trade(
    conn: &mut AsyncPgConnection,
    key: Option<&Key>,
    buyer: Uuid,
    sale: &Sale,
    share_percent: u8,
    setting: SellerShare,
) -> Result<Option<pb::Trade>> {
    let row = &new_trade(buyer, sale, share_percent);
    let answer = to_pb(row, false);
    let event = &completed(row);
    let event_key = &row.id.to_string();
    let postings = &postings(row);
    let outcome = conn
        .transaction::<pb::Trade, WalletError, _>(|conn| {
            async move {
                // Listed in the order they must run: each only builds its statement, and
                // the join below sends them in this order.
                let share = setting.statement(conn);
                let claim = key.map(|key| idempotency::claim_statement(conn, key));
                let insert = insert_statement(conn, row);
                let (_, outbox) = quire_kit::outbox::enqueue_statement(
                    conn,
                    topics::TRADE,
                    event_key,
                    types::TRADE_COMPLETED,
                    SOURCE,
                    event,
                );
                let (transfer, writes) = match row.transfer_id {
                    Some(id) => {
                        let (recorded, writes) = ledger::record_statements(
                            conn,
                            id,
                            TransferKind::Trade,
                            &row.title,
                            postings,
                        )?;
                        (Some(recorded), writes.into())
                    }
                    None => (None, Vec::new()),
                };
                let store = key.map(|key| idempotency::store_statement(conn, key, &answer));
                // Last, as in the careful path: the wallets stay locked for the commit only.
                let moves = transfer
                    .as_ref()
                    .map(|t| t.settle_statements(conn))
                    .unwrap_or_default();
                let (share, claim, insert, outbox, writes, store, moves) = futures::join!(
                    share,
                    OptionFuture::from(claim),
                    insert,
                    outbox,
                    join_all(writes),
                    OptionFuture::from(store),
                    join_all(moves),
                );
                // In statement order: once one failed, the ones after it failed too.
                if share? != share_percent {
                    return Err(DieselError::RollbackTransaction.into());
                }
                let fresh = claim.transpose()?.is_none_or(|claimed| claimed == 1);
                let new = insert? == 1;
                if !(fresh && new) {
                    return Err(DieselError::RollbackTransaction.into());
                }
                outbox?;
                for write in writes {
                    write?;
                }
                store.transpose()?;
                if let Some(transfer) = transfer {
                    match transfer.settled(moves) {
                        Ok(Some(_)) => {}
                        // A wallet missing, or too little money.
                        Ok(None) | Err(WalletError::InsufficientFunds) => {
                            return Err(DieselError::RollbackTransaction.into());
                        }
                        Err(error) => return Err(error),
                    }
                }
                Ok(answer)
            }
            .scope_boxed()
        })
        .await;
    match outcome {
        Ok(answer) => {
            log_bought(row);
            Ok(Some(answer))
        }
        Err(WalletError::Kit(KitError::Query(DieselError::RollbackTransaction))) => Ok(None),
        Err(error) => Err(error),
    }
}
