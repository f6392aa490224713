//! What the wallet tests share: wallet calls with raw JSON bodies (so `1e2` and `NaN`
//! reach the gateway as written) and an optional `Idempotency-Key`, the caller's balance,
//! and buying a book through `GET /api/trade`.

use quire_proto::catalog::v1 as pb;
use serde_json::{Value, json};

use crate::catalog_support::{NewBook, User};
use crate::support::TestApp;

/// A book for sale and the two sides of its sale.
pub struct Sale {
    pub writer: User,
    /// A reader whose wallet is open and holds the balance asked for.
    pub buyer: User,
    /// Listed, by `writer`.
    pub book: pb::Book,
}

/// A wallet answer: status, JSON body, and its Cache-Control header.
pub struct Answer {
    pub status: u16,
    pub body: Value,
    pub cache_control: Option<String>,
}

impl TestApp {
    /// A writer's listed book at `price_cents` and a buyer holding `balance`.
    pub async fn sale(&self, price_cents: i64, balance: f64) -> Sale {
        let writer = self.writer().await;
        let buyer = self.reader_user().await;
        let book = NewBook {
            price_cents,
            ..NewBook::default()
        };
        let book = self.create_book(&writer, book).await;
        self.open_wallet(&buyer).await;
        if balance > 0.0 {
            self.recharge(&buyer, balance).await;
        }
        Sale {
            writer,
            buyer,
            book,
        }
    }

    /// POSTs `body` (raw JSON text) to `path` with an optional `Idempotency-Key`.
    pub async fn post_raw(
        &self,
        path: &str,
        body: &str,
        token: Option<&str>,
        key: Option<&str>,
    ) -> (u16, Value) {
        let mut rb = self
            .http
            .post(self.url(path))
            .header("content-type", "application/json")
            .body(body.to_owned());
        if let Some(t) = token {
            rb = rb.bearer_auth(t);
        }
        if let Some(k) = key {
            rb = rb.header("idempotency-key", k);
        }
        self.send(rb).await
    }

    /// Opens `user`'s wallet (a no-op when it is open).
    pub async fn open_wallet(&self, user: &User) -> Value {
        let (s, body) = self
            .post("/api/wallet/open", json!({}), Some(&user.token))
            .await;
        assert_eq!(s, 200, "{body}");
        body["data"]["wallet"].clone()
    }

    /// `user`'s wallet as `wallet/info` shows it.
    pub async fn wallet_of(&self, user: &User) -> Value {
        let (s, body) = self
            .post("/api/wallet/info", json!({}), Some(&user.token))
            .await;
        assert_eq!(s, 200, "{body}");
        body["data"]["wallet"].clone()
    }

    pub async fn balance(&self, user: &User) -> f64 {
        self.wallet_of(user).await["balance"].as_f64().unwrap()
    }

    /// Recharges `amount` into `user`'s wallet.
    pub async fn recharge(&self, user: &User, amount: f64) -> Value {
        let (s, body) = self
            .post(
                "/api/wallet/recharge",
                json!({ "amount": amount }),
                Some(&user.token),
            )
            .await;
        assert_eq!(s, 200, "{body}");
        body["data"].clone()
    }

    /// `GET /api/trade?buyer_uid=&book_id=` as `user`.
    pub async fn buy(&self, user: &User, buyer_uid: &str, book_id: &str) -> Answer {
        self.buy_with_key(user, buyer_uid, book_id, None).await
    }

    pub async fn buy_with_key(
        &self,
        user: &User,
        buyer_uid: &str,
        book_id: &str,
        key: Option<&str>,
    ) -> Answer {
        let mut rb = self
            .http
            .get(self.url("/api/trade"))
            .query(&[("buyer_uid", buyer_uid), ("book_id", book_id)])
            .bearer_auth(&user.token);
        if let Some(k) = key {
            rb = rb.header("idempotency-key", k);
        }
        let r = rb.send().await.expect("request reaches the gateway");
        let status = r.status().as_u16();
        let cache_control = r
            .headers()
            .get("cache-control")
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        let text = r.text().await.unwrap();
        let body =
            serde_json::from_str(&text).unwrap_or_else(|_| panic!("not JSON ({status}): {text}"));
        Answer {
            status,
            body,
            cache_control,
        }
    }

    /// The `result` of a records call (`top_up_records`, `get_trade_records`) as `user`.
    pub async fn records(&self, path: &str, user: &User) -> Vec<Value> {
        let (s, body) = self.post(path, json!({}), Some(&user.token)).await;
        assert_eq!(s, 200, "{path}: {body}");
        body["data"]["result"].as_array().unwrap().clone()
    }
}

/// Two decimals compared as cents.
pub fn cents(amount: &Value) -> i64 {
    (amount
        .as_f64()
        .unwrap_or_else(|| panic!("not an amount: {amount}"))
        * 100.0)
        .round() as i64
}
