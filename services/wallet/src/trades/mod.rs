//! Buying a book: price and seller from catalog, then in one transaction the trade row,
//! the transfer (buyer -price, writer +floor(price * share), platform the rest) and the
//! `trade.completed` event. A buyer buys a book once: UNIQUE(buyer_uid, book_id) decides
//! any race, and a second attempt answers the first trade, charging nothing. The share is
//! the admin's setting as the trade's transaction reads it (see `crate::settings`), so a
//! change applies to the next sale.

pub mod flight;

use chrono::Utc;
use diesel::OptionalExtension;
use diesel::prelude::*;
use diesel::result::QueryResult;
use diesel::sql_types::{self, BigInt, Nullable, Text, Timestamptz};
use diesel_async::scoped_futures::ScopedFutureExt;
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use futures::FutureExt;
use futures::future::{BoxFuture, OptionFuture};
use quire_kit::caller::Caller;
use quire_kit::db::prepared;
use quire_kit::events::{topics, types};
use quire_proto::events::v1 as ev;
use quire_proto::wallet::v1 as pb;
use uuid::Uuid;

use crate::catalog::{self, Sale};
use crate::db::rfc3339;
use crate::db::schema::trades;
use crate::db::trade::TradeRow;
use crate::error::{CommonErrors, Result, WalletError};
use crate::idempotency::{self, Key};
use crate::input::{self, Page};
use crate::ledger::{self, Account, Posting, Recorded, TransferKind};
use crate::settings::SellerShare;
use crate::{AppState, SOURCE};

/// The writer's and the platform's parts of `price`: the writer gets the floor of
/// `price * share_percent / 100`, the platform the rest, so nothing is lost to rounding.
pub fn split(price_cents: i64, share_percent: u8) -> (i64, i64) {
    let seller = price_cents * i64::from(share_percent.min(100)) / 100;
    (seller, price_cents - seller)
}

pub fn to_pb(row: &TradeRow, replayed: bool) -> pb::Trade {
    pb::Trade {
        trade_id: row.id.to_string(),
        buyer_uid: row.buyer_uid.to_string(),
        book_id: row.book_id.to_string(),
        seller_uid: row.seller_uid.to_string(),
        title: row.title.clone(),
        price_cents: row.price_cents,
        seller_cents: row.seller_cents,
        platform_cents: row.platform_cents,
        created_at: rfc3339(row.created_at),
        replayed,
    }
}

pub async fn trade(state: &AppState, caller: &Caller, req: &pb::TradeRequest) -> Result<pb::Trade> {
    let buyer = input::acting_for(caller, "buyer_uid", &req.buyer_uid)?;
    let book = input::uuid("book_id", &req.book_id)?;
    let fields = [buyer.to_string(), book.to_string()];
    let key = Key::parse(
        caller.user_id(),
        &req.idempotency_key,
        "Trade",
        &fields.each_ref().map(String::as_str),
    )?;
    let setting = SellerShare::new(state.config.seller_share_percent);
    // A finished retry or a book already bought is answered whatever catalog says, as soon
    // as it is found; catalog is asked meanwhile rather than after, as most trades are new
    // (a replay wastes the call, a new trade saves the wait). The seller's share comes with
    // them, for the flight to price the trade at and confirm in its transaction.
    let earlier = async {
        let mut conn = state.conn().await?;
        // The reads in one round trip (see quire_kit::db, Pipelining).
        let used = key
            .as_ref()
            .map(|key| idempotency::lookup_statement(&mut conn, key));
        let bought = find_statement(&mut conn, buyer, book);
        let share = setting.statement(&mut conn);
        let (used, bought, share) = futures::join!(OptionFuture::from(used), bought, share);
        if let (Some(key), Some(used)) = (&key, used) {
            // A key looked up (not claimed) is never fresh: it answers or refuses.
            if let Some(earlier) = idempotency::earlier(key, used?)? {
                return idempotency::replay(earlier)
                    .unwrap_or_else(|| Err(WalletError::internal("a looked-up key is fresh")))
                    .map(Before::Answered);
            }
        }
        Ok(match bought? {
            Some(first) => Before::Answered(to_pb(&first, true)),
            None => Before::New { share: share? },
        })
    };
    let sale = catalog::book_for_sale(state, caller, book);
    tokio::pin!(earlier, sale);
    let (sale, share) = tokio::select! {
        found = &mut earlier => match found? {
            Before::Answered(answer) => return Ok(answer),
            Before::New { share } => (sale.await?, share),
        },
        sale = &mut sale => match earlier.await? {
            Before::Answered(answer) => return Ok(answer),
            Before::New { share } => (sale?, share),
        },
    };
    if sale.seller == buyer {
        return Err(WalletError::OwnBook);
    }
    let mut conn = state.conn().await?;
    let flown = flight::trade(&mut conn, key.as_ref(), buyer, &sale, share, setting).await?;
    let answer = match flown {
        Some(answer) => answer,
        // Not the usual way: statement by statement, which handles every case.
        None => {
            idempotency::run_settling(&mut conn, key.as_ref(), |conn| {
                async move {
                    let share = setting.read(conn).await?;
                    record(conn, buyer, &sale, share).await
                }
                .scope_boxed()
            })
            .await?
        }
    };
    // The trade wrote its event and the writer's pending credit: the relay sends the one
    // now, the folder takes the other in soon.
    state.outbox.wake();
    state.folder.ring();
    Ok(answer)
}

/// What the reads before a trade found: its answer already (a retry, a book bought
/// before), or the seller's share a new trade is priced at.
enum Before {
    Answered(pb::Trade),
    New { share: u8 },
}

/// The row of `buyer`'s new trade of `sale`: the writer's and the platform's parts, and a
/// transfer id when money moves.
fn new_trade(buyer: Uuid, sale: &Sale, share_percent: u8) -> TradeRow {
    let (seller_cents, platform_cents) = split(sale.price_cents, share_percent);
    TradeRow {
        id: Uuid::now_v7(),
        buyer_uid: buyer,
        book_id: sale.book_id,
        seller_uid: sale.seller,
        title: sale.title.clone(),
        price_cents: sale.price_cents,
        seller_cents,
        platform_cents,
        transfer_id: (sale.price_cents > 0).then(Uuid::now_v7),
        created_at: Utc::now(),
        campaign_id: None,
    }
}

/// The `trade.completed` event of `row`.
pub(crate) fn completed(row: &TradeRow) -> ev::TradeCompleted {
    ev::TradeCompleted {
        trade_id: row.id.to_string(),
        buyer_uid: row.buyer_uid.to_string(),
        book_id: row.book_id.to_string(),
        seller_uid: row.seller_uid.to_string(),
        price_cents: row.price_cents,
        seller_cents: row.seller_cents,
        platform_cents: row.platform_cents,
        completed_at: rfc3339(row.created_at),
        campaign_id: row.campaign_id.map(|c| c.to_string()).unwrap_or_default(),
    }
}

/// What `row`'s money does: the buyer pays the price, the writer and the platform get
/// their parts.
fn postings(row: &TradeRow) -> [Posting; 3] {
    [
        Posting::new(Account::User(row.buyer_uid), -row.price_cents),
        Posting::new(Account::User(row.seller_uid), row.seller_cents),
        Posting::new(Account::Platform, row.platform_cents),
    ]
}

/// The log line of a trade recorded, whichever way it was written.
fn log_bought(row: &TradeRow) {
    tracing::info!(trade_id = %row.id, book_id = %row.book_id, buyer_uid = %row.buyer_uid, price_cents = row.price_cents, "book bought");
}

/// Writes `row` unless the buyer has this book already (no row then). Not yet awaited.
fn insert_statement<'q>(
    conn: &mut AsyncPgConnection,
    row: &'q TradeRow,
) -> BoxFuture<'q, QueryResult<usize>> {
    // A statement that stays prepared (see quire_kit::db::prepared).
    prepared(
        "INSERT INTO trades (id, buyer_uid, book_id, seller_uid, title, price_cents, \
         seller_cents, platform_cents, transfer_id, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (buyer_uid, book_id) DO NOTHING",
    )
    .bind::<sql_types::Uuid, _>(row.id)
    .bind::<sql_types::Uuid, _>(row.buyer_uid)
    .bind::<sql_types::Uuid, _>(row.book_id)
    .bind::<sql_types::Uuid, _>(row.seller_uid)
    .bind::<Text, _>(&row.title)
    .bind::<BigInt, _>(row.price_cents)
    .bind::<BigInt, _>(row.seller_cents)
    .bind::<BigInt, _>(row.platform_cents)
    .bind::<Nullable<sql_types::Uuid>, _>(row.transfer_id)
    .bind::<Timestamptz, _>(row.created_at)
    .execute(conn)
}

/// Records `buyer`'s purchase of `sale` in the caller's transaction: the trade, its event
/// and the transfer's entries. The money moves when the transfer returned settles, which
/// the caller does last (see [`ledger::Recorded`]); a buyer without a wallet has a balance
/// of 0 there. A free book moves no money; a book the buyer already has answers the first
/// trade and moves nothing.
pub async fn record(
    conn: &mut AsyncPgConnection,
    buyer: Uuid,
    sale: &Sale,
    share_percent: u8,
) -> Result<(pb::Trade, Option<Recorded>)> {
    let row = new_trade(buyer, sale, share_percent);
    if insert_statement(conn, &row).await? == 0 {
        // A concurrent purchase of the same book won; it is the answer.
        let first = find(conn, buyer, sale.book_id)
            .await?
            .ok_or_else(|| WalletError::internal("conflicting trade not found"))?;
        return Ok((to_pb(&first, true), None));
    }
    let key = row.id.to_string();
    quire_kit::outbox::enqueue(
        conn,
        topics::TRADE,
        &key,
        types::TRADE_COMPLETED,
        SOURCE,
        &completed(&row),
    )
    .await?;
    let transfer = match row.transfer_id {
        Some(transfer) => Some(
            ledger::record(
                conn,
                transfer,
                TransferKind::Trade,
                &row.title,
                &postings(&row),
            )
            .await?
            // A buyer without a wallet has a balance of 0.
            .without_wallet_no_money(),
        ),
        None => None,
    };
    log_bought(&row);
    Ok((to_pb(&row, false), transfer))
}

/// `buyer`'s trade of `book`, if any.
pub async fn find(
    conn: &mut AsyncPgConnection,
    buyer: Uuid,
    book: Uuid,
) -> Result<Option<TradeRow>> {
    Ok(find_statement(conn, buyer, book).await?)
}

/// The read of [`find`], not yet awaited.
fn find_statement(
    conn: &mut AsyncPgConnection,
    buyer: Uuid,
    book: Uuid,
) -> BoxFuture<'static, QueryResult<Option<TradeRow>>> {
    trades::table
        .filter(trades::buyer_uid.eq(buyer))
        .filter(trades::book_id.eq(book))
        .select(TradeRow::as_select())
        .first(conn)
        .map(OptionalExtension::optional)
        .boxed()
}

/// Has `user_id` bought `book_id`? (catalog asks before its projection saw the event)
pub async fn purchase(
    state: &AppState,
    caller: &Caller,
    req: &pb::GetPurchaseRequest,
) -> Result<pb::Purchase> {
    let user = input::acting_for(caller, "user_id", &req.user_id)?;
    let book = input::uuid("book_id", &req.book_id)?;
    let mut conn = state.conn().await?;
    let first = find(&mut conn, user, book).await?;
    Ok(pb::Purchase {
        bought: first.is_some(),
        trade: first.map(|t| to_pb(&t, false)),
    })
}

/// Trades where a user bought or sold (or every trade, for an admin asking `all`),
/// newest first.
pub async fn list(
    state: &AppState,
    caller: &Caller,
    req: &pb::ListTradesRequest,
) -> Result<pb::TradePage> {
    let page = Page::parse(req.page, req.page_size)?;
    let user = input::whose(caller, req.all, &req.user_id)?;
    let query = || {
        let mut q = trades::table.into_boxed();
        if let Some(user) = user {
            q = q.filter(trades::buyer_uid.eq(user).or(trades::seller_uid.eq(user)));
        }
        q
    };
    let mut conn = state.conn().await?;
    let total: i64 = query().count().get_result(&mut conn).await?;
    let rows: Vec<TradeRow> = query()
        .order((trades::created_at.desc(), trades::id.desc()))
        .limit(page.limit())
        .offset(page.offset())
        .select(TradeRow::as_select())
        .load(&mut conn)
        .await?;
    Ok(pb::TradePage {
        total: input::total(total),
        page: page.number,
        page_size: page.size,
        trades: rows.iter().map(|t| to_pb(t, false)).collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::split;

    #[test]
    fn the_writer_gets_the_floor_of_the_share_and_nothing_is_lost() {
        assert_eq!(split(499, 90), (449, 50));
        assert_eq!(split(1000, 90), (900, 100));
        assert_eq!(split(1, 90), (0, 1));
        assert_eq!(split(0, 90), (0, 0));
        assert_eq!(split(999, 100), (999, 0));
        assert_eq!(split(999, 0), (0, 999));
        for price in 0..2000 {
            let (s, p) = split(price, 90);
            assert_eq!(s + p, price);
            assert!(s >= 0 && p >= 0);
        }
    }
}
