//! The bank's customers as a careful client is written: every call that moves money carries
//! an `Idempotency-Key`, and any answer that is not definite (no connection, a timeout, a
//! 5xx) is sent again with the same key and body until it is: 200 (done), 402 (refused
//! for lack of money) or, for a pledge, 409 `campaign_closed`. Anything else is a bug of
//! the stack, and fails the test.

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::stack::{Book, Campaign, User};

/// A call that moves money, as the client means it.
#[derive(Clone, Debug)]
pub enum Op {
    Recharge {
        cents: i64,
    },
    Consume {
        cents: i64,
    },
    /// Buy a book of the shop, as the caller.
    Trade {
        book: Book,
    },
    /// An admin credits `user`.
    TopUp {
        user: uuid::Uuid,
        cents: i64,
    },
    /// Back a crowd-funding campaign.
    Pledge {
        campaign: Campaign,
        cents: i64,
    },
    /// Settle a campaign now (its writer or the admin); idempotent by nature.
    Close {
        campaign: Campaign,
    },
}

/// A definite answer.
#[derive(Clone, Debug)]
pub enum Answer {
    /// 200: the envelope's `data`.
    Done(Value),
    /// 402: nothing moved.
    Refused,
    /// 409 `campaign_closed` (a pledge to a settled campaign): nothing moved.
    Closed,
}

/// How long one call may take to get a definite answer, retries included. The wallet is
/// never down for long, so running out of it means something hangs.
const PATIENCE: Duration = Duration::from_secs(90);

pub struct Bank {
    http: reqwest::Client,
    base: String,
    /// What the attempts that were not definite ended in ("io", "503", ...) and how many.
    pub retried: Mutex<BTreeMap<String, u64>>,
}

/// Cents as the REST surface writes money.
fn decimal(cents: i64) -> String {
    format!("{}.{:02}", cents / 100, cents % 100)
}

impl Bank {
    pub fn new(http: reqwest::Client, base: String) -> Self {
        Self {
            http,
            base,
            retried: Mutex::default(),
        }
    }

    fn request(&self, who: &User, key: &str, op: &Op) -> reqwest::RequestBuilder {
        let url = |path: &str| format!("{}/api/{path}", self.base);
        let request = match op {
            Op::Recharge { cents } => self
                .http
                .post(url("wallet/recharge"))
                .json(&json!({"amount": decimal(*cents)})),
            Op::Consume { cents } => self
                .http
                .post(url("wallet/consume"))
                .json(&json!({"amount": decimal(*cents), "memo": "bank test"})),
            Op::Trade { book } => self.http.get(url("trade")).query(&[
                ("buyer_uid", who.id.to_string()),
                ("book_id", book.id.to_string()),
            ]),
            Op::TopUp { user, cents } => self.http.post(url("top_up")).query(&[
                ("uid", user.to_string()),
                ("amount", decimal(*cents)),
                ("note", "bank test".into()),
            ]),
            Op::Pledge { campaign, cents } => self
                .http
                .post(url(&format!("crowdfunding/{}/pledge", campaign.id)))
                .json(&json!({"amount": decimal(*cents)})),
            Op::Close { campaign } => self
                .http
                .post(url(&format!("crowdfunding/{}/close", campaign.id))),
        };
        request
            .bearer_auth(&who.token)
            .header("Idempotency-Key", key)
    }

    /// Sends `op` as `who` with `key` until the answer is definite.
    pub async fn call(&self, who: &User, key: &str, op: &Op) -> Answer {
        let until = Instant::now() + PATIENCE;
        let mut pause = Duration::from_millis(50);
        loop {
            let outcome = match self.request(who, key, op).send().await {
                Ok(reply) => {
                    let status = reply.status().as_u16();
                    let body = reply.json::<Value>().await;
                    match (status, body) {
                        (200, Ok(body)) if settled(op, &body) => {
                            return Answer::Done(body["data"].clone());
                        }
                        (402, Ok(_)) => return Answer::Refused,
                        (409, Ok(body))
                            if matches!(op, Op::Pledge { .. })
                                && body["error"] == "campaign_closed" =>
                        {
                            return Answer::Closed;
                        }
                        (200, Ok(_)) => "200 pending".to_owned(),
                        (s, Ok(body)) if s < 500 && s != 429 => {
                            panic!("{op:?} with key {key}: {s} {body}")
                        }
                        (s, Ok(body)) => format!("{s} {}", body["message"]),
                        // The connection broke while the body came.
                        (_, Err(_)) => "io".to_owned(),
                    }
                }
                Err(e) if e.is_timeout() => "timeout".to_owned(),
                Err(_) => "io".to_owned(),
            };
            *self.retried.lock().unwrap().entry(outcome).or_default() += 1;
            assert!(
                Instant::now() < until,
                "{op:?} with key {key}: no definite answer within {PATIENCE:?}"
            );
            tokio::time::sleep(pause).await;
            pause = (pause * 2).min(Duration::from_millis(800));
        }
    }
}

/// A recharge is done once settled; a pending one (the provider has not answered) is
/// asked about again with the same key.
fn settled(op: &Op, body: &Value) -> bool {
    !matches!(op, Op::Recharge { .. }) || body["data"]["record"]["status"] == "settled"
}

/// Two decimals on the wire, as cents.
pub fn cents(amount: &Value) -> i64 {
    let text = amount.to_string();
    let (whole, fraction) = text.split_once('.').unwrap_or((&text, "0"));
    let fraction = format!("{fraction:0<2}");
    whole.parse::<i64>().unwrap() * 100 + fraction[..2].parse::<i64>().unwrap()
}
