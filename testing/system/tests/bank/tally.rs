//! What the client knows from its definite answers: the money that came in, went out and
//! where it is now. Effects are keyed by the ids the wallet answered (top-up, transfer,
//! trade), and one idempotency key must always answer the same id: a key that moved money
//! twice shows up here (two ids for one key) or in the audit (an id the client never saw).
//!
//! Crowd-funding: the pledges the client saw go through are in a campaign's escrow until it
//! is settled; once every campaign is closed, [`Tally::settle_campaigns`] pays them out or
//! back as the wallet must have, and checks each close's answer against them.

use std::collections::{HashMap, HashSet};

use serde_json::Value;
use uuid::Uuid;

use super::client::{Answer, Op, cents};
use super::stack::Campaign;

/// The writer's share of a sale, in percent (`QUIRE_SELLER_SHARE_PERCENT`).
pub const SELLER_SHARE: i64 = 90;

/// What `Tally::answered` holds for a key answered 402.
const REFUSED: &str = "refused";
/// What `Tally::answered` holds for a pledge answered 409 `campaign_closed`.
const CLOSED: &str = "closed";

/// What a close answered: the campaign as settled.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Closed {
    pub status: String,
    pub pledged: i64,
    pub writer: i64,
    pub platform: i64,
}

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
    /// Campaign -> backer -> what they pledged (the pledges that went through).
    pub pledged: HashMap<Uuid, HashMap<Uuid, i64>>,
    pub pledges: HashSet<Uuid>,
    /// Pledges refused because their campaign was settled.
    pub too_late: u64,
    /// Campaign -> what its closes answered (every close must answer the same).
    pub closes: HashMap<Uuid, Closed>,
    /// (backer, book) -> the price of the trade a funded campaign gave them.
    pub campaign_trades: HashMap<(Uuid, Uuid), i64>,
    /// Settled campaigns, funded and failed.
    pub funded: usize,
    pub failed: usize,
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
        let refusal = match answer {
            Answer::Done(_) => None,
            Answer::Refused => Some(REFUSED),
            Answer::Closed => Some(CLOSED),
        };
        let Answer::Done(data) = answer else {
            let refusal = refusal.unwrap_or(REFUSED);
            // A refused key is refused again whatever happened since: its client was told
            // nothing moved, so nothing may move for it later. (A pledge refused as too late
            // stays too late: a campaign is settled once.)
            if let Some(first) = self.answered.insert(key.to_owned(), refusal.to_owned()) {
                assert_eq!(
                    first, refusal,
                    "key {key} of {op:?} first answered {first}, then {refusal}"
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
            self.too_late += u64::from(refusal == CLOSED);
            return;
        };
        if let Op::Close { campaign } = op {
            self.closed(campaign, data);
            return;
        }
        // A top-up answers its record, a recharge the record and the wallet.
        let record = match op {
            Op::TopUp { .. } => data,
            _ => &data["record"],
        };
        let effect = match op {
            Op::Recharge { .. } | Op::TopUp { .. } => id(record, "id"),
            Op::Consume { .. } => id(data, "transfer_id"),
            Op::Trade { .. } => id(data, "trade_id"),
            Op::Pledge { .. } => id(data, "pledge_id"),
            Op::Close { .. } => unreachable!("handled above"),
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
            Op::Pledge { campaign, cents: c } => {
                assert_eq!(cents(&data["amount"]), *c, "{data}");
                assert_eq!(data["campaign"]["campaign_id"], campaign.id.to_string());
                if self.pledges.insert(effect) {
                    self.credit(who, -c);
                    *self
                        .pledged
                        .entry(campaign.id)
                        .or_default()
                        .entry(who)
                        .or_default() += c;
                }
            }
            Op::Close { .. } => {}
        }
    }

    /// Books what a close answered: every close of a campaign answers the same settlement.
    fn closed(&mut self, campaign: &Campaign, data: &Value) {
        assert_eq!(data["campaign_id"], campaign.id.to_string(), "{data}");
        let closed = Closed {
            status: data["status"].as_str().unwrap_or_default().to_owned(),
            pledged: cents(&data["pledged"]),
            writer: cents(&data["writer_earned"]),
            platform: cents(&data["platform_earned"]),
        };
        assert!(
            closed.status == "funded" || closed.status == "failed",
            "a close settles: {data}"
        );
        self.remember_close(campaign.id, closed);
    }

    fn remember_close(&mut self, campaign: Uuid, closed: Closed) {
        if let Some(first) = self.closes.get(&campaign) {
            assert_eq!(*first, closed, "campaign {campaign} settled twice");
        } else {
            self.closes.insert(campaign, closed);
        }
    }

    /// Once every campaign is closed: pays each one's pledges out (funded: per backer the
    /// writer's floor share, the platform the rest, the backer a trade of the book) or back
    /// (failed), as the wallet must have, and checks the closes' answers against them.
    pub fn settle_campaigns(&mut self, campaigns: &[Campaign]) {
        for campaign in campaigns {
            let closed = self
                .closes
                .get(&campaign.id)
                .unwrap_or_else(|| panic!("campaign {} was never closed", campaign.id))
                .clone();
            let backers = self.pledged.remove(&campaign.id).unwrap_or_default();
            let pledged: i64 = backers.values().sum();
            assert_eq!(closed.pledged, pledged, "campaign {}: pledged", campaign.id);
            if pledged >= campaign.goal_cents {
                assert_eq!(closed.status, "funded", "campaign {}", campaign.id);
                let mut writer = 0;
                for (backer, sum) in backers {
                    writer += sum * SELLER_SHARE / 100;
                    self.campaign_trades.insert((backer, campaign.book), sum);
                }
                assert_eq!(
                    (closed.writer, closed.platform),
                    (writer, pledged - writer),
                    "campaign {}: the payout",
                    campaign.id
                );
                self.credit(campaign.writer, writer);
                self.platform += pledged - writer;
                self.funded += 1;
            } else {
                assert_eq!(closed.status, "failed", "campaign {}", campaign.id);
                assert_eq!((closed.writer, closed.platform), (0, 0));
                for (backer, sum) in backers {
                    self.credit(backer, sum);
                }
                self.failed += 1;
            }
        }
        assert!(
            self.pledged.is_empty(),
            "pledges to no campaign of the bank's"
        );
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
        for (campaign, backers) in other.pledged {
            let mine = self.pledged.entry(campaign).or_default();
            for (backer, cents) in backers {
                *mine.entry(backer).or_default() += cents;
            }
        }
        self.pledges.extend(other.pledges);
        self.too_late += other.too_late;
        for (campaign, closed) in other.closes {
            self.remember_close(campaign, closed);
        }
    }
}
