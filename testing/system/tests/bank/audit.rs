//! After the day: wait until every event has left its outbox and reached every consumer,
//! then hold the books against the client's tally, the ledger against itself, the broker
//! against the trades and the catalog's purchases against the trades.

use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};

use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use quire_kit::db::PgPool;
use quire_kit::db::schema::{outbox, processed_events};
use quire_kit::events::topics;
use quire_test_stack::ledger::WalletLedger;
use quire_wallet::db::schema::{
    accounts, campaigns, entries, idempotency_keys, pledges, rewards, top_ups, trades, transfers,
};
use quire_wallet::db::wallet::wallet_balances;
use quire_wallet::ledger::Account;
use serde_json::Value;
use uuid::Uuid;

use super::client::cents;
use super::stack::TestApp;
use super::tally::{SELLER_SHARE, Tally};

async fn conn(pool: &PgPool) -> quire_kit::db::PgConn {
    quire_kit::db::conn(pool).await.unwrap()
}

async fn unsent(pool: &PgPool) -> i64 {
    outbox::table
        .filter(outbox::published_at.is_null())
        .count()
        .get_result(&mut conn(pool).await)
        .await
        .unwrap()
}

const WALLET_CONSUMER: &str = "trades the wallet's consumer applied";

/// What has not arrived yet: (what, how many now, how many expected).
#[derive(Debug)]
pub struct Undelivered(Vec<(&'static str, i64, i64)>);

impl Undelivered {
    /// Only the wallet's own consumer is behind (the outboxes are sent, the catalog has
    /// everything).
    pub fn only_the_wallet_consumer(&self) -> bool {
        self.0.iter().all(|(what, ..)| *what == WALLET_CONSUMER)
    }
}

/// How many of `events` consumer group `group` has applied (per its own schema).
async fn applied(pool: &PgPool, group: &str, events: &[Uuid]) -> i64 {
    processed_events::table
        .filter(processed_events::consumer.eq(group))
        .filter(processed_events::event_id.eq_any(events))
        .count()
        .get_result(&mut conn(pool).await)
        .await
        .unwrap()
}

impl TestApp {
    /// trade id -> the id of its `trade.completed`, from the wallet's outbox.
    async fn trade_outbox(&self) -> HashMap<Uuid, Uuid> {
        let rows: Vec<(String, Uuid)> = outbox::table
            .filter(outbox::topic.eq(topics::TRADE))
            .select((outbox::event_key, outbox::event_id))
            .load(&mut self.conn().await)
            .await
            .unwrap();
        let n = rows.len();
        let events: HashMap<Uuid, Uuid> = rows
            .into_iter()
            .map(|(trade, event)| (trade.parse().unwrap(), event))
            .collect();
        assert_eq!(
            events.len(),
            n,
            "one trade.completed per trade in the outbox"
        );
        events
    }

    /// Waits until every outbox is sent and both consumers of `quire.trade.v1` applied
    /// every trade's event; what is still missing when `within` is over.
    pub async fn until_delivered(&self, within: Duration) -> Result<(), Undelivered> {
        let until = Instant::now() + within;
        loop {
            let events: Vec<Uuid> = self.trade_outbox().await.into_values().collect();
            let trades = events.len() as i64;
            let parts = vec![
                ("unsent in auth's outbox", unsent(&self.auth_db).await, 0),
                (
                    "unsent in catalog's outbox",
                    unsent(&self.catalog_db).await,
                    0,
                ),
                ("unsent in wallet's outbox", unsent(&self.pool).await, 0),
                (
                    WALLET_CONSUMER,
                    applied(&self.pool, &self.wallet_group, &events).await,
                    trades,
                ),
                (
                    "trades the catalog's consumer applied",
                    applied(&self.catalog_db, &self.catalog_group, &events).await,
                    trades,
                ),
            ];
            let behind: Vec<_> = parts
                .into_iter()
                .filter(|(_, now, want)| now != want)
                .collect();
            if behind.is_empty() {
                return Ok(());
            }
            if Instant::now() > until {
                return Err(Undelivered(behind));
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }

    /// What the campaigns' escrow accounts hold together (the sum of their entries).
    async fn escrowed(&self) -> i64 {
        entries::table
            .inner_join(accounts::table)
            .filter(accounts::kind.eq("escrow"))
            .select(diesel::dsl::sql::<diesel::sql_types::BigInt>(
                "COALESCE(sum(amount_cents), 0)::bigint",
            ))
            .first(&mut self.conn().await)
            .await
            .unwrap()
    }

    /// Money in = money held + money consumed + the platform's revenue + the escrows', by
    /// the client's count and by the ledger; every balance as the client computed it; every
    /// campaign closed, so every escrow empty.
    pub async fn audit_money(&self, tally: &Tally) {
        self.assert_ledger_balances().await;
        let world = self.ledger_balance(Account::World).await;
        let consumed = self.ledger_balance(Account::Spent).await;
        let platform = self.ledger_balance(Account::Platform).await;
        let escrow = self.escrowed().await;
        let mut conn = self.conn().await;
        let held: Vec<(Uuid, i64)> = wallet_balances::table
            .select((wallet_balances::user_id, wallet_balances::balance_cents))
            .load(&mut conn)
            .await
            .unwrap();
        let total: i64 = held.iter().map(|(_, b)| b).sum();
        assert_eq!(
            -world, tally.money_in,
            "money in: the world account vs the client"
        );
        assert_eq!(
            tally.money_in,
            total + consumed + platform + escrow,
            "money in = held {total} + consumed {consumed} + platform {platform} + escrow {escrow}"
        );
        assert_eq!(escrow, 0, "every campaign settled: every escrow is empty");
        let open: i64 = campaigns::table
            .filter(campaigns::status.eq("open"))
            .count()
            .get_result(&mut conn)
            .await
            .unwrap();
        assert_eq!(open, 0, "every campaign settled");
        assert_eq!(consumed, tally.consumed, "consumed: ledger vs client");
        assert_eq!(
            platform, tally.platform,
            "platform revenue: ledger vs client"
        );
        let paid: i64 = rewards::table.count().get_result(&mut conn).await.unwrap();
        assert_eq!(paid, 0, "nobody was invited, so no reward was paid");
        assert_eq!(self.ledger_balance(Account::Promotions).await, 0);

        let held: HashMap<Uuid, i64> = held.into_iter().collect();
        let wrong: Vec<_> = tally
            .balances
            .iter()
            .filter(|(user, cents)| held.get(user) != Some(cents))
            .map(|(user, cents)| (user, *cents, held.get(user)))
            .collect();
        assert!(
            wrong.is_empty(),
            "balances (user, client, wallet): {wrong:?}"
        );
        assert!(
            held.iter()
                .all(|(u, b)| *b == 0 || tally.balances.contains_key(u)),
            "a wallet holds money the client never put there"
        );
        assert_eq!(
            self.api_balances().await,
            held,
            "wallet/all shows the ledger"
        );
    }

    /// Every wallet's balance as an admin sees it through `wallet/all`.
    async fn api_balances(&self) -> HashMap<Uuid, i64> {
        let reply: Value = self
            .http
            .post(format!("{}/api/wallet/all?page_size=100", self.base))
            .bearer_auth(&self.admin.token)
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let page = &reply["data"];
        let list = page["result"].as_array().expect("a page of wallets");
        assert_eq!(page["total"], list.len(), "one page holds every wallet");
        list.iter()
            .map(|w| {
                let user = w["user_id"].as_str().unwrap().parse().unwrap();
                (user, cents(&w["balance"]))
            })
            .collect()
    }

    /// Every recharge and top-up the client saw settled, no other; every spending the
    /// client saw, no other; one transfer per movement; no key left without its answer.
    pub async fn audit_movements(&self, tally: &Tally) {
        let mut conn = self.conn().await;
        let kinds: Vec<(String, Uuid)> = transfers::table
            .select((transfers::kind, transfers::id))
            .load(&mut conn)
            .await
            .unwrap();
        let of = |kind: &'static str| kinds.iter().filter(move |k| k.0 == kind).map(|k| k.1);
        let consumes: HashSet<Uuid> = of("consume").collect();
        assert_eq!(consumes, tally.consumes, "spendings: wallet vs client");
        assert_eq!(
            of("recharge").count() + of("top_up").count(),
            tally.top_ups.len(),
            "one transfer per settled recharge or top-up"
        );
        assert_eq!(
            of("trade").count(),
            tally.trades.len(),
            "one transfer per trade"
        );
        assert_eq!(of("reward").count(), 0, "no reward without an invitation");
        assert_eq!(
            of("pledge").count(),
            tally.pledges.len(),
            "one transfer per pledge"
        );
        let pledged: HashSet<Uuid> = pledges::table
            .select(pledges::id)
            .load::<Uuid>(&mut conn)
            .await
            .unwrap()
            .into_iter()
            .collect();
        assert_eq!(pledged, tally.pledges, "pledges: wallet vs client");
        assert_eq!(
            of("campaign_payout").count(),
            tally.funded,
            "one payout per funded campaign"
        );
        assert!(
            of("campaign_refund").count() <= tally.failed,
            "at most one refund per failed campaign"
        );

        let rows: Vec<(Uuid, String, i64)> = top_ups::table
            .select((top_ups::id, top_ups::status, top_ups::amount_cents))
            .load(&mut conn)
            .await
            .unwrap();
        let unsettled: Vec<_> = rows.iter().filter(|r| r.1 != "settled").collect();
        assert!(unsettled.is_empty(), "top-ups not settled: {unsettled:?}");
        let ids: HashSet<Uuid> = rows.iter().map(|r| r.0).collect();
        assert_eq!(ids, tally.top_ups, "settled top-ups: wallet vs client");
        let open: i64 = idempotency_keys::table
            .filter(idempotency_keys::answer.is_null())
            .filter(idempotency_keys::refusal.is_null())
            .count()
            .get_result(&mut conn)
            .await
            .unwrap();
        assert_eq!(
            open, 0,
            "idempotency keys left without an answer or a refusal"
        );
    }

    /// One trade per (buyer, book) the client bought, charged by exactly one transfer; one
    /// per backer of each funded campaign at the price of their pledges, paid by the
    /// campaign's payout.
    pub async fn audit_trades(&self, tally: &Tally) {
        type Row = (Uuid, Uuid, Uuid, Uuid, i64, i64, i64, Option<Uuid>);
        /// Buyer, book, price, seller's part, the trade's transfer, the campaign's.
        type Backed = (Uuid, Uuid, i64, i64, Option<Uuid>, Option<Uuid>);
        let mut conn = self.conn().await;
        let backed: Vec<Backed> = trades::table
            .inner_join(campaigns::table)
            .select((
                trades::buyer_uid,
                trades::book_id,
                trades::price_cents,
                trades::seller_cents,
                trades::transfer_id,
                campaigns::transfer_id,
            ))
            .load(&mut conn)
            .await
            .unwrap();
        let prices: HashMap<(Uuid, Uuid), i64> = backed.iter().map(|r| ((r.0, r.1), r.2)).collect();
        assert_eq!(prices.len(), backed.len(), "one trade per backer and book");
        assert_eq!(
            prices, tally.campaign_trades,
            "campaign trades: wallet vs client"
        );
        for (buyer, book, price, seller, transfer, payout) in &backed {
            assert_eq!(*seller, price * SELLER_SHARE / 100, "{buyer}'s {book}");
            assert!(
                transfer.is_some() && transfer == payout,
                "{buyer}'s {book}: paid by the campaign's payout"
            );
        }
        let rows: Vec<Row> = trades::table
            .filter(trades::campaign_id.is_null())
            .select((
                trades::id,
                trades::buyer_uid,
                trades::book_id,
                trades::seller_uid,
                trades::price_cents,
                trades::seller_cents,
                trades::platform_cents,
                trades::transfer_id,
            ))
            .load(&mut conn)
            .await
            .unwrap();
        let bought: HashMap<(Uuid, Uuid), Uuid> = rows.iter().map(|r| ((r.1, r.2), r.0)).collect();
        assert_eq!(bought.len(), rows.len(), "one trade per buyer and book");
        assert_eq!(bought, tally.trades, "trades: wallet vs client");

        let transfers: Vec<Uuid> = rows.iter().filter_map(|r| r.7).collect();
        assert_eq!(
            transfers.len(),
            rows.len(),
            "every priced trade has a transfer"
        );
        let moved: Vec<(Uuid, Uuid, i64)> = entries::table
            .filter(entries::transfer_id.eq_any(&transfers))
            .select((
                entries::transfer_id,
                entries::account_id,
                entries::amount_cents,
            ))
            .load(&mut conn)
            .await
            .unwrap();
        let mut by_transfer: HashMap<Uuid, HashMap<Uuid, i64>> = HashMap::new();
        for (transfer, account, cents) in moved {
            let legs = by_transfer.entry(transfer).or_default();
            assert!(
                legs.insert(account, cents).is_none(),
                "{transfer}: one leg per account"
            );
        }
        for (id, buyer, _, seller, price, seller_cents, platform_cents, transfer) in &rows {
            assert_eq!(*seller_cents, price * SELLER_SHARE / 100, "trade {id}");
            let want = HashMap::from([
                (*buyer, -price),
                (*seller, *seller_cents),
                (Account::Platform.id(), *platform_cents),
            ]);
            let legs = transfer.and_then(|t| by_transfer.remove(&t));
            assert_eq!(legs, Some(want), "the transfer of trade {id}");
        }
    }

    /// Exactly one `trade.completed` per trade on the broker (a resend repeats its event
    /// id, never a new event), and one purchase per trade in the catalog, of the same book
    /// by the same buyer. Answers how many records the topic holds, and for how many
    /// events.
    pub async fn audit_trade_effects(&self, tally: &Tally) -> (usize, usize) {
        // The shop's trades and the funded campaigns' (those were checked against the
        // client's count by `audit_trades`).
        let backed: Vec<((Uuid, Uuid), Uuid)> = trades::table
            .filter(trades::campaign_id.is_not_null())
            .select(((trades::buyer_uid, trades::book_id), trades::id))
            .load(&mut self.conn().await)
            .await
            .unwrap();
        let mut everything = tally.trades.clone();
        everything.extend(backed);
        let trades: &HashSet<Uuid> = &everything.values().copied().collect();
        let outbox = self.trade_outbox().await;
        assert_eq!(outbox.keys().copied().collect::<HashSet<_>>(), *trades);
        let (on_broker, records) = self.broker.trade_events().await;
        let on_broker: HashMap<Uuid, HashSet<Uuid>> = on_broker
            .into_iter()
            .map(|(trade, events)| (trade.parse().unwrap(), events))
            .collect();
        let ids: HashSet<Uuid> = on_broker.keys().copied().collect();
        let missing: Vec<_> = trades.difference(&ids).collect();
        let unknown: Vec<_> = ids.difference(trades).collect();
        assert!(missing.is_empty(), "trades without an event: {missing:?}");
        assert!(unknown.is_empty(), "events of no trade: {unknown:?}");
        for (trade, events) in &on_broker {
            let first = HashSet::from([outbox[trade]]);
            assert_eq!(*events, first, "the events of trade {trade}");
        }

        let purchases = purchases_of(&self.catalog_db).await;
        assert_eq!(purchases.len(), trades.len(), "one purchase per trade");
        let by_buyer: HashMap<(Uuid, Uuid), Uuid> = purchases.into_iter().collect();
        assert_eq!(
            by_buyer, everything,
            "the catalog's purchases are the trades"
        );
        (records, on_broker.len())
    }
}

/// The catalog's purchases: ((buyer, book), trade).
async fn purchases_of(pool: &PgPool) -> Vec<((Uuid, Uuid), Uuid)> {
    use quire_catalog::db::schema::purchases;
    purchases::table
        .select((
            (purchases::user_id, purchases::book_id),
            purchases::trade_id,
        ))
        .load(&mut conn(pool).await)
        .await
        .unwrap()
}
