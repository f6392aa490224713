//! Who may do what with wallets: top-ups and the list of wallets are the admin's whatever
//! `password` says, another user's records are the admin's too; every wallet route needs a
//! token; a wallet service that is down is a 503. (Invite rewards: `invitations.rs`.)

use serde_json::json;

use crate::support::{TestApp, assert_bad_input, assert_failure, closed_port};
use crate::wallet_support::cents;

#[tokio::test(flavor = "multi_thread")]
async fn a_top_up_needs_an_admin_token_whatever_the_password_and_shows_in_the_records() {
    let app = TestApp::spawn().await;
    let reader = app.reader_user().await;
    let admin = app.admin().await;
    app.open_wallet(&reader).await;

    for password in ["", "admin", "123456", "the-fixed-password"] {
        let (s, body) = app
            .post(
                &format!(
                    "/api/top_up?uid={}&amount=50&password={password}",
                    reader.id
                ),
                json!({}),
                Some(&reader.token),
            )
            .await;
        assert_failure(s, &body, 403, None);
    }
    assert_eq!(
        app.balance(&reader).await,
        0.0,
        "a refused top-up moves nothing"
    );

    let path = format!(
        "/api/top_up?uid={}&amount=7.5&note=welcome%20gift&password=whatever",
        reader.id
    );
    let key = uuid::Uuid::new_v4().to_string();
    let mut ids = vec![];
    for _ in 0..2 {
        let r = app
            .http
            .post(app.url(&path))
            .bearer_auth(&admin.token)
            .header("idempotency-key", &key);
        let (s, body) = app.send(r).await;
        assert_eq!(s, 200, "{body}");
        let record = &body["data"];
        assert_eq!(record["kind"], "top_up");
        assert_eq!(record["user_id"], reader.id.as_str());
        assert_eq!(record["note"], "welcome gift");
        assert_eq!(record["created_by"], admin.id.as_str());
        assert_eq!(cents(&record["amount"]), 750);
        ids.push(record["id"].clone());
    }
    assert_eq!(ids[0], ids[1], "the same key tops up once");
    assert_eq!(app.balance(&reader).await, 7.5);

    let mine = app.records("/api/top_up_records", &reader).await;
    assert_eq!(mine.len(), 1, "{mine:?}");
    assert_eq!(mine[0]["id"], ids[0]);
    let (s, body) = app
        .post(
            &format!("/api/top_up_records?uid={}", reader.id),
            json!({}),
            Some(&admin.token),
        )
        .await;
    assert_eq!(s, 200, "{body}");
    assert_eq!(body["data"]["result"][0]["id"], ids[0]);
    // An admin naming nobody sees everyone's.
    let everyone = app.records("/api/top_up_records", &admin).await;
    assert!(everyone.iter().any(|r| r["id"] == ids[0]), "{everyone:?}");

    for (query, field) in [
        ("amount=1".to_owned(), "uid"),
        ("uid=nope&amount=1".to_owned(), "uid"),
        (
            format!("uid={}&amount=1&note={}", reader.id, "n".repeat(201)),
            "note",
        ),
    ] {
        let (s, body) = app
            .post(
                &format!("/api/top_up?{query}"),
                json!({}),
                Some(&admin.token),
            )
            .await;
        assert_bad_input(s, &body, field);
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn another_users_records_are_403_for_a_reader_and_200_for_an_admin() {
    let app = TestApp::spawn().await;
    let alice = app.reader_user().await;
    let bob = app.reader_user().await;
    let admin = app.admin().await;
    app.open_wallet(&bob).await;
    app.recharge(&bob, 3.0).await;

    for path in ["/api/top_up_records", "/api/get_trade_records"] {
        for password in ["", "&password=admin"] {
            let (s, body) = app
                .post(
                    &format!("{path}?uid={}{password}", bob.id),
                    json!({}),
                    Some(&alice.token),
                )
                .await;
            assert_failure(s, &body, 403, None);
        }
        let (s, body) = app
            .post(
                &format!("{path}?uid={}", bob.id),
                json!({}),
                Some(&admin.token),
            )
            .await;
        assert_eq!(s, 200, "{path}: {body}");
        // Naming oneself is fine.
        let (s, body) = app
            .post(
                &format!("{path}?uid={}&password=x", bob.id),
                json!({}),
                Some(&bob.token),
            )
            .await;
        assert_eq!(s, 200, "{path}: {body}");
        for (query, field) in [
            ("uid=nope", "uid"),
            ("page=0", "page"),
            ("page_size=1000", "page_size"),
            ("page_size=x", "page_size"),
        ] {
            let (s, body) = app
                .post(&format!("{path}?{query}"), json!({}), Some(&bob.token))
                .await;
            assert_bad_input(s, &body, field);
        }
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn the_list_of_every_wallet_is_for_admins_only() {
    let app = TestApp::spawn().await;
    let reader = app.reader_user().await;
    let admin = app.admin().await;
    app.open_wallet(&reader).await;

    let (s, body) = app
        .post("/api/wallet/all", json!({}), Some(&reader.token))
        .await;
    assert_failure(s, &body, 403, None);

    let (s, body) = app
        .post(
            "/api/wallet/all?page=1&page_size=100",
            json!({}),
            Some(&admin.token),
        )
        .await;
    assert_eq!(s, 200, "{body}");
    let page = &body["data"];
    assert_eq!(page["page"], 1);
    assert_eq!(page["page_size"], 100);
    assert!(page["total"].as_u64().unwrap() >= 1, "{page}");
    assert!(
        page["result"]
            .as_array()
            .unwrap()
            .iter()
            .any(|w| w["user_id"] == reader.id.as_str()),
        "{page}"
    );
    let (s, body) = app
        .post("/api/wallet/all?page_size=0", json!({}), Some(&admin.token))
        .await;
    assert_failure(s, &body, 400, None);

    // Only an admin reads another user's wallet.
    let other = app.reader_user().await;
    let (s, body) = app
        .post(
            "/api/wallet/info",
            json!({"user_id": reader.id}),
            Some(&other.token),
        )
        .await;
    assert_failure(s, &body, 403, None);
    let (s, body) = app
        .post(
            "/api/wallet/info",
            json!({"user_id": reader.id}),
            Some(&admin.token),
        )
        .await;
    assert_eq!(s, 200, "{body}");
    assert_eq!(body["data"]["wallet"]["user_id"], reader.id.as_str());
}

#[tokio::test(flavor = "multi_thread")]
async fn every_wallet_route_needs_a_token() {
    let app = TestApp::spawn().await;
    let book = uuid::Uuid::new_v4();
    let user = uuid::Uuid::new_v4();
    let posts = [
        "/api/wallet/open".to_owned(),
        "/api/wallet/info".to_owned(),
        "/api/wallet/recharge".to_owned(),
        "/api/wallet/consume".to_owned(),
        "/api/wallet/all".to_owned(),
        format!("/api/top_up?uid={user}&amount=1&password=admin"),
        "/api/top_up_records?password=admin".to_owned(),
        "/api/get_trade_records?password=admin".to_owned(),
    ];
    let gets = [
        format!("/api/trade?buyer_uid={user}&book_id={book}"),
        "/api/rewards".to_owned(),
    ];
    for token in [None, Some("not-a-token")] {
        for path in &posts {
            let (s, body) = app.post(path, json!({"amount": 1}), token).await;
            assert_failure(s, &body, 401, None);
        }
        for path in &gets {
            let (s, body) = app.get(path, token).await;
            assert_failure(s, &body, 401, None);
        }
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn with_the_wallet_service_down_wallet_routes_are_503_and_the_gateway_stays_ready() {
    let app = TestApp::spawn().await;
    let reader = app.reader_user().await;
    let closed = closed_port();
    let gateway = quire_gateway::Application::build(quire_gateway::GatewayConfig {
        wallet_url: format!("http://127.0.0.1:{closed}"),
        ..app.gateway_config.clone()
    })
    .await
    .unwrap();
    let base = format!("http://127.0.0.1:{}", gateway.port());
    let admin = format!("http://127.0.0.1:{}", gateway.admin_port());
    tokio::spawn(gateway.run_until_stopped());

    let r = app
        .http
        .get(format!("{admin}/readyz"))
        .send()
        .await
        .unwrap();
    // Ready: the rest of the platform serves through it; the body says what is down.
    assert_eq!(r.status().as_u16(), 200);
    let ready: serde_json::Value = r.json().await.unwrap();
    assert_eq!(ready["parts"]["wallet"], "down", "{ready}");
    assert_eq!(ready["parts"]["auth"], "up", "{ready}");
    assert_eq!(ready["degraded"], json!(["wallet"]), "{ready}");

    let r = app
        .http
        .post(format!("{base}/api/wallet/recharge"))
        .bearer_auth(&reader.token)
        .json(&json!({"amount": 1}));
    let r = r.send().await.unwrap();
    assert_eq!(r.headers()["retry-after"], "5");
    let s = r.status().as_u16();
    let body: serde_json::Value = r.json().await.unwrap();
    assert_failure(s, &body, 503, None);
    assert_eq!(body["error"], "wallet_unavailable", "{body}");
    // The rest of the platform still answers.
    let r = app
        .http
        .get(format!("{base}/api/users/me/"))
        .bearer_auth(&reader.token);
    let (s, body) = app.send(r).await;
    assert_eq!(s, 200, "{body}");
}
