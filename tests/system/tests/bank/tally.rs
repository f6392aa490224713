//! What the client knows from its definite answers: the money that came in, went out and
//! where it is now. Effects are keyed by the ids the wallet answered (top-up, transfer,
//! trade), and one idempotency key must always answer the same id: a key that moved money
//! twice shows up here (two ids for one key) or in the audit (an id the client never saw).

use std::collections::{HashMap, HashSet};

use serde_json::Value;
use uuid::Uuid;

use super::client::{Answer, Op, cents};

/// The writer's share of a sale, in percent (`QUIRE_SELLER_SHARE_PERCENT`).
pub const SELLER_SHARE: i64 = 90;

/// What `Tally::answered` holds for a key answered 402.
const REFUSED: &str = "refused";

#[derive(Default, Debug)]
pub struct Tally {
    /// Recharges and admin top-ups, as settled.
    pub money_in: i64,
    pub consumed: i64,
    pub platform: i64,
    /// Every user's balance by the client's count.
    pub balances: HashMap<Uuid, i64>,
    /// (buyer, book) -> the trade.
    pub trades: HashMap<(Uuid, Uuid), Uuid>,
    pub top_ups: HashSet<Uuid>,
    pub consumes: HashSet<Uuid>,
    /// The id each idempotency key answered with, or `REFUSED`.
    answered: HashMap<String, String>,
    /// Calls made (first sends), of which refused (402).
    pub calls: u64,
    pub refused: u64,
    /// Keys sent again after a definite answer (which must answer the same again).
    pub resends: u64,
    /// New keys for a book the buyer had already bought (must answer the first trade).
    pub rebuys: u64,
}

fn id(data: &Value, field: &str) -> String {
    data[field]
        .as_str()
        .unwrap_or_else(|| panic!("no {field} in {data}"))
        .to_owned()
}

impl Tally {
    fn credit(&mut self, user: Uuid, cents: i64) {
        *self.balances.entry(user).or_default() += cents;
    }

    /// Books the definite `answer` to `op`, sent by `who` with `key`.
    pub fn record(&mut self, who: Uuid, key: &str, op: &Op, answer: &Answer) {
        let Answer::Done(data) = answer else {
            // A refused key is refused again whatever happened since: its client was told
            // nothing moved, so nothing may move for it later.
            if let Some(first) = self.answered.insert(key.to_owned(), REFUSED.to_owned()) {
                assert_eq!(
                    first, REFUSED,
                    "key {key} of {op:?} first went through, then was refused"
                );
                // A resend answers as its first send did, even if the book was bought
                // under another key since.
                return;
            }
            if let Op::Trade { book } = op {
                assert!(
                    !self.trades.contains_key(&(who, book.id)),
                    "buying book {} again was refused for lack of money: it was bought already",
                    book.id
                );
            }
            return;
        };
        // A top-up answers its record, a recharge the record and the wallet.
        let record = match op {
            Op::TopUp { .. } => data,
            _ => &data["record"],
        };
        let effect = match op {
            Op::Recharge { .. } | Op::TopUp { .. } => id(record, "id"),
            Op::Consume { .. } => id(data, "transfer_id"),
            Op::Trade { .. } => id(data, "trade_id"),
        };
        if let Some(first) = self.answered.insert(key.to_owned(), effect.clone()) {
            assert_eq!(first, effect, "key {key} answered two different {op:?}");
        }
        let effect: Uuid = effect.parse().unwrap();
        match op {
            Op::Recharge { cents: c } | Op::TopUp { cents: c, .. } => {
                assert_eq!(cents(&record["amount"]), *c, "{data}");
                assert_eq!(record["status"], "settled", "{data}");
                let user = match op {
                    Op::TopUp { user, .. } => *user,
                    _ => who,
                };
                assert_eq!(record["user_id"], user.to_string(), "{data}");
                if self.top_ups.insert(effect) {
                    self.money_in += c;
                    self.credit(user, *c);
                }
            }
            Op::Consume { cents: c } => {
                assert_eq!(cents(&data["amount"]), *c, "{data}");
                if self.consumes.insert(effect) {
                    self.consumed += c;
                    self.credit(who, -c);
                }
            }
            Op::Trade { book } => {
                if let Some(first) = self.trades.get(&(who, book.id)) {
                    assert_eq!(
                        *first, effect,
                        "book {} bought twice by {who}: trades {first} and {effect}",
                        book.id
                    );
                    return;
                }
                assert_eq!(
                    data["replayed"], false,
                    "the first answer naming trade {effect} says it was bought before: {data}"
                );
                assert_eq!(cents(&data["price"]), book.price_cents, "{data}");
                assert_eq!(data["seller_uid"], book.seller.to_string(), "{data}");
                let seller = book.price_cents * SELLER_SHARE / 100;
                self.trades.insert((who, book.id), effect);
                self.credit(who, -book.price_cents);
                self.credit(book.seller, seller);
                self.platform += book.price_cents - seller;
            }
        }
    }

    /// Adds another client's books to these (their keys and effects never overlap).
    pub fn merge(&mut self, other: Tally) {
        self.money_in += other.money_in;
        self.consumed += other.consumed;
        self.platform += other.platform;
        for (user, cents) in other.balances {
            self.credit(user, cents);
        }
        self.trades.extend(other.trades);
        self.top_ups.extend(other.top_ups);
        self.consumes.extend(other.consumes);
        self.calls += other.calls;
        self.refused += other.refused;
        self.resends += other.resends;
        self.rebuys += other.rebuys;
    }
}
