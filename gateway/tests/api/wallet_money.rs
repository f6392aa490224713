//! A user's own wallet through the REST surface: opening it, reading it, money in and
//! out, strict amounts and the `Idempotency-Key` replays.

use serde_json::json;

use crate::support::{TestApp, assert_bad_input, assert_failure};
use crate::wallet_support::cents;

#[tokio::test(flavor = "multi_thread")]
async fn info_before_open_is_a_404_wallet_not_found_and_opening_twice_opens_one_wallet() {
    let app = TestApp::spawn().await;
    let reader = app.reader_user().await;

    let (s, body) = app
        .post("/api/wallet/info", json!({}), Some(&reader.token))
        .await;
    assert_failure(s, &body, 404, Some("Wallet not found"));
    assert_eq!(body["error"], "wallet_not_found", "{body}");
    assert_eq!(body["data"]["reason"], "Wallet not found", "{body}");

    // The browser posts without a body at all.
    let bare = app
        .http
        .post(app.url("/api/wallet/open"))
        .bearer_auth(&reader.token);
    let (s, first) = app.send(bare).await;
    assert_eq!(s, 200, "{first}");
    let wallet = &first["data"]["wallet"];
    assert_eq!(wallet["user_id"], reader.id.as_str());
    assert_eq!(cents(&wallet["balance"]), 0);
    assert!(
        wallet["currency"].as_str().is_some_and(|c| c.len() == 3),
        "{wallet}"
    );
    for field in ["recharged", "earned", "spent"] {
        assert_eq!(cents(&wallet[field]), 0, "{field}: {wallet}");
    }
    assert!(wallet["created_at"].is_string() && wallet["updated_at"].is_string());

    let (s, again) = app
        .post("/api/wallet/open", json!({}), Some(&reader.token))
        .await;
    assert_eq!(s, 200, "{again}");
    assert_eq!(again["data"]["wallet"]["created_at"], wallet["created_at"]);
    assert_eq!(app.wallet_of(&reader).await, again["data"]["wallet"]);

    // Opening with an amount recharges the new wallet.
    let other = app.reader_user().await;
    let (s, body) = app
        .post(
            "/api/wallet/open",
            json!({"amount": "5.5"}),
            Some(&other.token),
        )
        .await;
    assert_eq!(s, 200, "{body}");
    assert_eq!(cents(&body["data"]["wallet"]["balance"]), 550);
    assert_eq!(app.balance(&other).await, 5.5);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_recharge_shows_in_the_balance_and_in_the_callers_top_up_records() {
    let app = TestApp::spawn().await;
    let reader = app.reader_user().await;
    app.open_wallet(&reader).await;

    let reply = app.recharge(&reader, 12.34).await;
    assert_eq!(cents(&reply["wallet"]["balance"]), 1234, "{reply}");
    let record = &reply["record"];
    assert_eq!(cents(&record["amount"]), 1234, "{record}");
    assert_eq!(record["kind"], "recharge");
    assert_eq!(record["status"], "settled");
    assert_eq!(record["user_id"], reader.id.as_str());
    assert!(record["id"].is_string() && record["created_at"].is_string());

    let wallet = app.wallet_of(&reader).await;
    assert_eq!(cents(&wallet["balance"]), 1234);
    assert_eq!(cents(&wallet["recharged"]), 1234);

    let (s, body) = app
        .post("/api/top_up_records", json!({}), Some(&reader.token))
        .await;
    assert_eq!(s, 200, "{body}");
    let page = &body["data"];
    assert_eq!(page["total"], 1, "{page}");
    assert_eq!(page["page"], 1);
    assert_eq!(page["page_size"], 10);
    assert_eq!(page["result"][0]["id"], record["id"]);
}

#[tokio::test(flavor = "multi_thread")]
async fn spending_more_than_the_balance_is_a_402_and_leaves_the_balance_as_it_was() {
    let app = TestApp::spawn().await;
    let reader = app.reader_user().await;
    app.open_wallet(&reader).await;
    app.recharge(&reader, 5.0).await;

    let (s, body) = app
        .post(
            "/api/wallet/consume",
            json!({"amount": 6}),
            Some(&reader.token),
        )
        .await;
    assert_failure(s, &body, 402, None);
    assert_eq!(body["error"], "insufficient_funds", "{body}");
    assert_eq!(app.balance(&reader).await, 5.0);

    let (s, body) = app
        .post(
            "/api/wallet/consume",
            json!({"amount": "2", "memo": "a bookmark ribbon"}),
            Some(&reader.token),
        )
        .await;
    assert_eq!(s, 200, "{body}");
    let d = &body["data"];
    assert_eq!(cents(&d["amount"]), 200);
    assert!(
        d["transfer_id"].as_str().is_some_and(|t| !t.is_empty()),
        "{d}"
    );
    assert!(d["created_at"].is_string());
    assert_eq!(cents(&d["wallet"]["balance"]), 300);
    let wallet = app.wallet_of(&reader).await;
    assert_eq!(cents(&wallet["balance"]), 300);
    assert_eq!(cents(&wallet["spent"]), 200);

    // No wallet, nothing to spend.
    let stranger = app.reader_user().await;
    let (s, body) = app
        .post(
            "/api/wallet/consume",
            json!({"amount": 1}),
            Some(&stranger.token),
        )
        .await;
    assert_failure(s, &body, 404, Some("Wallet not found"));
}

#[tokio::test(flavor = "multi_thread")]
async fn bad_amounts_are_400s_naming_the_field_and_move_no_money() {
    let app = TestApp::spawn().await;
    let reader = app.reader_user().await;
    let admin = app.admin().await;
    app.open_wallet(&reader).await;
    app.recharge(&reader, 3.0).await;
    let before = app.wallet_of(&reader).await;

    let bad_values = [
        "-1",
        "-0.01",
        "NaN",
        "\"NaN\"",
        "1e2",
        "\"1e2\"",
        "1.234",
        "10000000",
        "1000000.01",
        "\"abc\"",
        "true",
        "[1]",
        "{}",
        "\"\"",
        "null",
    ];
    for path in [
        "/api/wallet/recharge",
        "/api/wallet/consume",
        "/api/wallet/open",
    ] {
        for value in bad_values {
            // Open takes no amount at all, or an empty one, as "no recharge".
            if path == "/api/wallet/open" && matches!(value, "\"\"" | "null") {
                continue;
            }
            let (s, body) = app
                .post_raw(
                    path,
                    &format!("{{\"amount\": {value}}}"),
                    Some(&reader.token),
                    None,
                )
                .await;
            assert_bad_input(s, &body, "amount");
        }
    }
    for path in ["/api/wallet/recharge", "/api/wallet/consume"] {
        for body in ["{}", "{\"amount\": 0}", "{\"amount\": \"0.00\"}"] {
            let (s, reply) = app.post_raw(path, body, Some(&reader.token), None).await;
            assert_bad_input(s, &reply, "amount");
        }
        // Not JSON at all.
        let (s, reply) = app
            .post_raw(path, "amount=5", Some(&reader.token), None)
            .await;
        assert_failure(s, &reply, 400, None);
    }
    let (s, body) = app
        .post_raw(
            "/api/wallet/consume",
            &format!("{{\"amount\": 1, \"memo\": \"{}\"}}", "m".repeat(201)),
            Some(&reader.token),
            None,
        )
        .await;
    assert_bad_input(s, &body, "memo");

    // The admin's top-up takes its amount as a parameter: the same rules.
    for amount in [
        "&amount=-1",
        "&amount=0",
        "&amount=NaN",
        "&amount=1e2",
        "&amount=1.234",
        "&amount=10000000",
        "&amount=abc",
        "&amount=true",
        "&amount=",
        "",
    ] {
        let (s, body) = app
            .post(
                &format!("/api/top_up?uid={}{amount}", reader.id),
                json!({}),
                Some(&admin.token),
            )
            .await;
        assert_bad_input(s, &body, "amount");
    }

    assert_eq!(
        app.wallet_of(&reader).await,
        before,
        "refused calls move no money"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn the_same_idempotency_key_moves_money_once_and_another_body_under_it_is_a_409() {
    let app = TestApp::spawn().await;
    let reader = app.reader_user().await;
    app.open_wallet(&reader).await;
    let key = uuid::Uuid::new_v4().to_string();
    let recharge = "/api/wallet/recharge";

    let mut ids = vec![];
    for _ in 0..2 {
        let (s, reply) = app
            .post_raw(
                recharge,
                "{\"amount\": 10}",
                Some(&reader.token),
                Some(&key),
            )
            .await;
        assert_eq!(s, 200, "{reply}");
        ids.push(reply["data"]["record"]["id"].clone());
    }
    assert_eq!(ids[0], ids[1], "the second answer replays the first");
    assert_eq!(app.balance(&reader).await, 10.0, "moved once");

    let (s, body) = app
        .post_raw(
            recharge,
            "{\"amount\": 11}",
            Some(&reader.token),
            Some(&key),
        )
        .await;
    assert_failure(s, &body, 409, None);
    assert_eq!(body["error"], "idempotency_key_reused", "{body}");
    assert_eq!(app.balance(&reader).await, 10.0);

    // Spending replays the same way.
    let spend = uuid::Uuid::new_v4().to_string();
    for _ in 0..2 {
        let (s, body) = app
            .post_raw(
                "/api/wallet/consume",
                "{\"amount\": 4}",
                Some(&reader.token),
                Some(&spend),
            )
            .await;
        assert_eq!(s, 200, "{body}");
    }
    assert_eq!(app.balance(&reader).await, 6.0, "spent once");

    let long = "k".repeat(201);
    for bad in ["", long.as_str()] {
        let (s, body) = app
            .post_raw(recharge, "{\"amount\": 1}", Some(&reader.token), Some(bad))
            .await;
        assert_bad_input(s, &body, "Idempotency-Key");
    }
    let non_ascii = app
        .http
        .post(app.url(recharge))
        .bearer_auth(&reader.token)
        .header(
            "idempotency-key",
            reqwest::header::HeaderValue::from_bytes("clé".as_bytes()).unwrap(),
        )
        .json(&json!({"amount": 1}));
    let (s, body) = app.send(non_ascii).await;
    assert_bad_input(s, &body, "Idempotency-Key");
    assert_eq!(
        app.balance(&reader).await,
        6.0,
        "refused keys move no money"
    );
}
