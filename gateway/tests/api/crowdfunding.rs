//! Crowd-funding through the REST surface, the money story end to end: a writer opens a
//! campaign for their book, readers pledge from their wallets (a resend with the same
//! `Idempotency-Key` moves the money once), the writer closes it, and a funded campaign
//! pays the writer their share of each pledge (rounded down) and gives every backer the
//! whole book; a failed one returns every pledge exactly.

use serde_json::{Value, json};

use crate::catalog_support::{NewBook, User};
use crate::pricing_support::num;
use crate::support::{TestApp, assert_bad_input, assert_failure};
use crate::wallet_support::cents;

/// The writer's share the test stack's wallet runs with (90%).
const SHARE_PERCENT: i64 = 90;

impl TestApp {
    /// `POST /api/crowdfunding` as `user`, with an optional `Idempotency-Key`.
    async fn open_campaign(&self, user: &User, body: Value, key: Option<&str>) -> (u16, Value) {
        self.post_raw(
            "/api/crowdfunding",
            &body.to_string(),
            Some(&user.token),
            key,
        )
        .await
    }

    /// `POST /api/crowdfunding/{id}/pledge` with a raw JSON body.
    async fn pledge(&self, user: &User, id: &str, body: &str, key: Option<&str>) -> (u16, Value) {
        self.post_raw(
            &format!("/api/crowdfunding/{id}/pledge"),
            body,
            Some(&user.token),
            key,
        )
        .await
    }

    async fn close(&self, user: &User, id: &str) -> (u16, Value) {
        let rb = self
            .http
            .post(self.url(&format!("/api/crowdfunding/{id}/close")))
            .bearer_auth(&user.token);
        self.send(rb).await
    }

    async fn campaign(&self, id: &str, user: Option<&User>) -> Value {
        let (s, body) = self
            .get(
                &format!("/api/crowdfunding/{id}"),
                user.map(|u| u.token.as_str()),
            )
            .await;
        assert_eq!(s, 200, "{body}");
        body["data"].clone()
    }

    /// What `/api/books/{id}/content` gives `user`: full or trial.
    async fn access(&self, user: &User, book_id: &str) -> String {
        let r = self
            .raw(&format!("/api/books/{book_id}/content"), Some(&user.token))
            .await;
        assert_eq!(r.status, 200, "{}", r.text());
        r.header("x-quire-access").unwrap_or_default().to_owned()
    }

    /// A reader with an open wallet holding `balance`.
    async fn backer(&self, balance: f64) -> User {
        let reader = self.reader_user().await;
        self.open_wallet(&reader).await;
        if balance > 0.0 {
            self.recharge(&reader, balance).await;
        }
        reader
    }
}

/// The campaign of a 200 answer, checked for the shape every campaign has.
fn campaign_of(s: u16, body: &Value) -> Value {
    assert_eq!(s, 200, "{body}");
    let c = body["data"].clone();
    for id in ["campaign_id", "book_id", "writer_uid"] {
        assert!(
            c[id]
                .as_str()
                .is_some_and(|v| uuid::Uuid::parse_str(v).is_ok()),
            "{id}: {c}"
        );
    }
    assert!(
        c["deadline"].is_string() && c["created_at"].is_string(),
        "{c}"
    );
    let goal = num(&c["goal"]);
    assert!(goal > 0.0);
    assert!(
        (num(&c["progress"]) - num(&c["pledged"]) / goal).abs() < 1e-9,
        "{c}"
    );
    c
}

#[tokio::test(flavor = "multi_thread")]
async fn a_funded_campaign_pays_the_writer_their_share_and_gives_backers_the_book() {
    let app = TestApp::spawn().await;
    let writer = app.writer().await;
    app.open_wallet(&writer).await;
    let book = app.create_book(&writer, NewBook::default()).await;
    let book_id = book.book_id.as_str();

    // The writer opens a campaign; a resend with the same key is the same campaign.
    let key = uuid::Uuid::new_v4().to_string();
    let ask = json!({"book_id": book_id, "goal": "10", "days": 7});
    let (s, body) = app.open_campaign(&writer, ask.clone(), Some(&key)).await;
    let opened = campaign_of(s, &body);
    let id = opened["campaign_id"].as_str().unwrap().to_owned();
    assert_eq!(opened["book_id"], book_id);
    assert_eq!(opened["writer_uid"], writer.id.as_str());
    assert_eq!(opened["title"], book.title.as_str());
    assert_eq!(opened["status"], "open");
    assert_eq!(num(&opened["goal"]), 10.0);
    assert_eq!(num(&opened["pledged"]), 0.0);
    assert_eq!(opened["backers"], 0);
    assert!(opened["settled_at"].is_null(), "{opened}");
    let (s, body) = app.open_campaign(&writer, ask.clone(), Some(&key)).await;
    assert_eq!(campaign_of(s, &body)["campaign_id"], id.as_str());
    // Without the key it is a second campaign for a book that has an open one.
    let (s, body) = app.open_campaign(&writer, ask, None).await;
    assert_failure(s, &body, 409, None);

    // Two readers pledge; the first one's resend moves the money once.
    let (a, b) = (app.backer(20.0).await, app.backer(20.0).await);
    let pledge_key = uuid::Uuid::new_v4().to_string();
    let (s, first) = app
        .pledge(&a, &id, r#"{"amount": 6.35}"#, Some(&pledge_key))
        .await;
    assert_eq!(s, 200, "{first}");
    let p = &first["data"];
    assert_eq!(cents(&p["amount"]), 635);
    assert!(
        p["pledge_id"].is_string() && p["created_at"].is_string(),
        "{p}"
    );
    assert_eq!(cents(&p["wallet"]["balance"]), 2000 - 635);
    assert_eq!(cents(&p["campaign"]["pledged"]), 635);
    assert_eq!(cents(&p["campaign"]["my_pledged"]), 635);
    let (s, again) = app
        .pledge(&a, &id, r#"{"amount": 6.35}"#, Some(&pledge_key))
        .await;
    assert_eq!(s, 200, "{again}");
    assert_eq!(again["data"]["pledge_id"], p["pledge_id"]);
    assert_eq!(app.balance(&a).await, 13.65, "the resend moved nothing");
    let (s, body) = app.pledge(&b, &id, r#"{"amount": "4.99"}"#, None).await;
    assert_eq!(s, 200, "{body}");
    assert_eq!(app.balance(&b).await, 15.01);

    // Anyone reads the campaign; with a token it says what the caller pledged.
    let anonymous = app.campaign(&id, None).await;
    assert_eq!(cents(&anonymous["pledged"]), 635 + 499, "{anonymous}");
    assert_eq!(anonymous["backers"], 2);
    assert_eq!(cents(&anonymous["my_pledged"]), 0);
    assert_eq!(cents(&app.campaign(&id, Some(&a)).await["my_pledged"]), 635);
    assert_eq!(cents(&app.campaign(&id, Some(&b)).await["my_pledged"]), 499);
    assert!(
        (num(&anonymous["progress"]) - 1.134).abs() < 1e-9,
        "{anonymous}"
    );
    let (s, list) = app
        .get(&format!("/api/crowdfunding?book_id={book_id}"), None)
        .await;
    assert_eq!(s, 200, "{list}");
    let campaigns = list["data"]["campaigns"].as_array().unwrap();
    assert_eq!(campaigns.len(), 1, "{list}");
    assert_eq!(campaigns[0]["campaign_id"], id.as_str());

    // No money, bad amounts, the writer's own campaign: refused, nothing moves.
    let poor = app.backer(1.0).await;
    let (s, body) = app.pledge(&poor, &id, r#"{"amount": 5}"#, None).await;
    assert_failure(s, &body, 402, None);
    assert_eq!(body["error"], "insufficient_funds", "{body}");
    assert_eq!(app.balance(&poor).await, 1.0);
    for bad in [
        r#"{"amount": -1}"#,
        r#"{"amount": 0}"#,
        r#"{"amount": "0.00"}"#,
        r#"{"amount": 1.234}"#,
        r#"{"amount": 1e2}"#,
        r#"{"amount": "abc"}"#,
        r#"{"amount": 1000000.01}"#,
        r#"{"amount": null}"#,
        "{}",
    ] {
        let (s, body) = app.pledge(&a, &id, bad, None).await;
        assert_bad_input(s, &body, "amount");
    }
    let (s, body) = app.pledge(&writer, &id, r#"{"amount": 1}"#, None).await;
    assert_failure(s, &body, 409, None);
    let unknown = uuid::Uuid::new_v4();
    let (s, body) = app
        .pledge(&a, &unknown.to_string(), r#"{"amount": 1}"#, None)
        .await;
    assert_failure(s, &body, 404, None);
    assert_eq!(app.balance(&a).await, 13.65);
    assert_eq!(cents(&app.campaign(&id, None).await["pledged"]), 635 + 499);

    // Only the writer (or an admin) closes it; the backers still read the trial.
    let (s, body) = app.close(&a, &id).await;
    assert_failure(s, &body, 403, None);
    assert_eq!(app.campaign(&id, None).await["status"], "open");
    assert_eq!(app.access(&a, book_id).await, "trial");
    let earned_before = cents(&app.wallet_of(&writer).await["earned"]);

    let (s, body) = app.close(&writer, &id).await;
    let closed = campaign_of(s, &body);
    assert_eq!(closed["status"], "funded", "{closed}");
    assert!(closed["settled_at"].is_string(), "{closed}");
    let writer_cents = 635 * SHARE_PERCENT / 100 + 499 * SHARE_PERCENT / 100;
    assert_eq!(writer_cents, 571 + 449);
    assert_eq!(cents(&closed["writer_earned"]), writer_cents);
    assert_eq!(cents(&closed["platform_earned"]), 635 + 499 - writer_cents);
    let earnings = app.wallet_of(&writer).await;
    assert_eq!(
        cents(&earnings["earned"]) - earned_before,
        writer_cents,
        "the writer earned exactly their share of each pledge: {earnings}"
    );
    assert_eq!(cents(&earnings["balance"]), writer_cents);

    // Both backers now read the whole book.
    for backer in [&a, &b] {
        app.eventually("a backer reads the whole book", || async {
            (app.access(backer, book_id).await == "full").then_some(())
        })
        .await;
    }
    assert_eq!(app.access(&poor, book_id).await, "trial");

    // Settled once: closing again answers it as it is; pledging is over.
    let (s, body) = app.close(&writer, &id).await;
    let again = campaign_of(s, &body);
    assert_eq!(again["settled_at"], closed["settled_at"]);
    assert_eq!(again["writer_earned"], closed["writer_earned"]);
    let (s, body) = app.pledge(&b, &id, r#"{"amount": 1}"#, None).await;
    assert_failure(s, &body, 409, None);
    assert_eq!(body["error"], "campaign_closed", "{body}");
    assert_eq!(app.balance(&b).await, 15.01);
    assert_eq!(
        cents(&app.wallet_of(&writer).await["balance"]),
        writer_cents,
        "paid once"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_failed_campaign_returns_every_pledge_exactly() {
    let app = TestApp::spawn().await;
    let writer = app.writer().await;
    app.open_wallet(&writer).await;
    let book = app.create_book(&writer, NewBook::default()).await;
    let (s, body) = app
        .open_campaign(
            &writer,
            json!({"book_id": book.book_id, "goal": 100, "days": 90}),
            None,
        )
        .await;
    let id = campaign_of(s, &body)["campaign_id"]
        .as_str()
        .unwrap()
        .to_owned();
    let (a, b) = (app.backer(10.0).await, app.backer(3.33).await);
    for (backer, amount) in [(&a, "7.77"), (&b, "3.33")] {
        let (s, body) = app
            .pledge(backer, &id, &format!(r#"{{"amount": "{amount}"}}"#), None)
            .await;
        assert_eq!(s, 200, "{body}");
    }
    assert_eq!(app.balance(&a).await, 2.23);
    assert_eq!(app.balance(&b).await, 0.0);

    let admin = app.admin().await;
    let (s, body) = app.close(&admin, &id).await;
    let closed = campaign_of(s, &body);
    assert_eq!(closed["status"], "failed", "{closed}");
    assert_eq!(cents(&closed["writer_earned"]), 0);
    assert_eq!(cents(&closed["platform_earned"]), 0);
    assert_eq!(app.balance(&a).await, 10.0, "7.77 came back");
    assert_eq!(app.balance(&b).await, 3.33, "3.33 came back");
    let w = app.wallet_of(&writer).await;
    assert_eq!((cents(&w["balance"]), cents(&w["earned"])), (0, 0), "{w}");
    assert_eq!(app.access(&a, &book.book_id).await, "trial");
    let (s, body) = app.pledge(&a, &id, r#"{"amount": 1}"#, None).await;
    assert_failure(s, &body, 409, None);
    assert_eq!(body["error"], "campaign_closed", "{body}");

    // The book may run a new campaign now.
    let (s, body) = app
        .open_campaign(
            &writer,
            json!({"book_id": book.book_id, "goal": 5, "days": 1}),
            None,
        )
        .await;
    assert_eq!(campaign_of(s, &body)["status"], "open");
    let (s, list) = app
        .get(
            &format!("/api/crowdfunding?book_id={}", book.book_id),
            Some(&a.token),
        )
        .await;
    assert_eq!(s, 200, "{list}");
    let statuses: Vec<&Value> = list["data"]["campaigns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| &c["status"])
        .collect();
    assert_eq!(statuses, [&json!("open"), &json!("failed")], "newest first");
}

#[tokio::test(flavor = "multi_thread")]
async fn opening_a_campaign_takes_the_writers_book_a_goal_and_one_to_ninety_days() {
    let app = TestApp::spawn().await;
    let writer = app.writer().await;
    let other = app.writer().await;
    let book = app.create_book(&writer, NewBook::default()).await;
    let id = book.book_id.as_str();

    for (body, field) in [
        (json!({"book_id": id, "goal": 10, "days": 0}), "days"),
        (json!({"book_id": id, "goal": 10, "days": 91}), "days"),
        (json!({"book_id": id, "goal": 10, "days": -1}), "days"),
        (json!({"book_id": id, "goal": 10, "days": "x"}), "days"),
        (json!({"book_id": id, "goal": 10}), "days"),
        (json!({"book_id": id, "goal": 0, "days": 7}), "goal"),
        (json!({"book_id": id, "goal": -1, "days": 7}), "goal"),
        (json!({"book_id": id, "goal": "1.234", "days": 7}), "goal"),
        (
            json!({"book_id": id, "goal": "1000000.01", "days": 7}),
            "goal",
        ),
        (json!({"book_id": id, "days": 7}), "goal"),
        (json!({"book_id": "nope", "goal": 10, "days": 7}), "book_id"),
        (json!({"goal": 10, "days": 7}), "book_id"),
    ] {
        let (s, reply) = app.open_campaign(&writer, body, None).await;
        assert_bad_input(s, &reply, field);
    }
    let (s, body) = app
        .open_campaign(&other, json!({"book_id": id, "goal": 10, "days": 7}), None)
        .await;
    assert_failure(s, &body, 403, None);
    let unknown = uuid::Uuid::new_v4().to_string();
    let (s, body) = app
        .open_campaign(
            &writer,
            json!({"book_id": unknown, "goal": 10, "days": 7}),
            None,
        )
        .await;
    assert_failure(s, &body, 404, None);
    let (s, list) = app
        .get(&format!("/api/crowdfunding?book_id={id}"), None)
        .await;
    assert_eq!(s, 200, "{list}");
    assert_eq!(list["data"]["campaigns"], json!([]), "nothing opened");

    for path in ["/api/crowdfunding", "/api/crowdfunding?book_id=nope"] {
        let (s, body) = app.get(path, None).await;
        assert_bad_input(s, &body, "book_id");
    }
    let (s, body) = app.get("/api/crowdfunding/nope", None).await;
    assert_bad_input(s, &body, "campaign_id");
    let (s, body) = app.get(&format!("/api/crowdfunding/{unknown}"), None).await;
    assert_failure(s, &body, 404, None);
    let (s, body) = app
        .post(
            "/api/crowdfunding",
            json!({"book_id": id, "goal": 10, "days": 7}),
            None,
        )
        .await;
    assert_failure(s, &body, 401, None);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_campaign_shows_and_takes_pledges_only_where_its_book_shows() {
    let app = TestApp::spawn().await;
    let writer = app.writer().await;
    let book = app.create_book(&writer, NewBook::default()).await;
    let book_id = book.book_id.as_str();
    let (s, body) = app
        .open_campaign(
            &writer,
            json!({"book_id": book_id, "goal": "10", "days": 7}),
            None,
        )
        .await;
    let id = campaign_of(s, &body)["campaign_id"]
        .as_str()
        .unwrap()
        .to_owned();
    let backer = app.backer(20.0).await;
    let switch = |on: &str| {
        format!(
            "/api/publish_book_status?user_id={}&book_id={book_id}&on_or_off={on}",
            writer.id
        )
    };
    let (s, body) = app
        .post(&switch("off"), json!({}), Some(&writer.token))
        .await;
    assert_eq!(s, 200, "{body}");

    // The book is hidden: its campaign is not found, for visitors and backers alike, and
    // takes no pledge; nothing of the book (its title, its writer) is told.
    for token in [None, Some(backer.token.as_str())] {
        let (s, body) = app.get(&format!("/api/crowdfunding/{id}"), token).await;
        assert_failure(s, &body, 404, Some("Campaign not found"));
        assert!(!body.to_string().contains(&book.title), "{body}");
        let (s, body) = app
            .get(&format!("/api/crowdfunding?book_id={book_id}"), token)
            .await;
        assert_eq!(s, 200, "{body}");
        assert_eq!(body["data"]["campaigns"], json!([]), "{body}");
    }
    let (s, body) = app.pledge(&backer, &id, r#"{"amount": 5}"#, None).await;
    assert_failure(s, &body, 404, Some("Campaign not found"));
    assert_eq!(app.balance(&backer).await, 20.0, "no money moved");
    // Its writer still sees it.
    assert_eq!(
        app.campaign(&id, Some(&writer)).await["campaign_id"],
        id.as_str()
    );

    // Listed again, it is everyone's to see and back.
    let (s, body) = app
        .post(&switch("on"), json!({}), Some(&writer.token))
        .await;
    assert_eq!(s, 200, "{body}");
    assert_eq!(app.campaign(&id, None).await["title"], book.title.as_str());
    let (s, body) = app.pledge(&backer, &id, r#"{"amount": 5}"#, None).await;
    assert_eq!(s, 200, "{body}");
}
