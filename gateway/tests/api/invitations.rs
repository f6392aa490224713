//! Invitations: an invited user is listed by the inviter and counted on the code; the
//! inviter earns the invite rewards once the invited user buys a book with money they
//! recharged (not when they register, not with an admin's top-up).

use chrono::DateTime;
use serde_json::json;

use crate::catalog_support::{NewBook, User};
use crate::support::{REWARD_REGISTERED_CENTS, TestApp, assert_failure, unique_email};
use crate::wallet_support::cents;

/// The first-purchase reward (the wallet's default).
const REWARD_FIRST_PURCHASE_CENTS: i64 = 200;

#[tokio::test(flavor = "multi_thread")]
async fn an_invited_user_is_listed_by_the_inviter_and_counted_on_the_code() {
    let app = TestApp::spawn().await;
    let (_, token, inviter) = app.reader().await;
    let (s, body) = app.get("/api/get_invite_codes", Some(&token)).await;
    assert_eq!(s, 200, "{body}");
    let code = body["data"][0]["code"].as_str().unwrap().to_owned();
    assert_eq!(code, inviter["invite_code"]);
    assert_eq!(body["data"][0]["uses"], 0);

    let friend = unique_email();
    app.register(&friend, "friend-pass-1", Some(&code.to_lowercase()))
        .await;

    let (_, body) = app.get("/api/get_invite_codes", Some(&token)).await;
    assert_eq!(body["data"][0]["uses"], 1);
    let uid = inviter["user_id"].as_str().unwrap();
    let (s, body) = app
        .get(
            &format!("/api/users/get_invited_by_me?user_id={uid}"),
            Some(&token),
        )
        .await;
    assert_eq!(s, 200, "{body}");
    assert_eq!(body["data"].as_array().unwrap().len(), 1);
    assert_eq!(body["data"][0]["email"], friend);
}

#[tokio::test(flavor = "multi_thread")]
async fn one_user_cannot_read_another_users_invited_list_but_an_admin_can() {
    let app = TestApp::spawn().await;
    let (_, alice, _) = app.reader().await;
    let (_, _, bob) = app.reader().await;
    let bob_id = bob["user_id"].as_str().unwrap();
    let (s, body) = app
        .get(
            &format!("/api/users/get_invited_by_me?user_id={bob_id}"),
            Some(&alice),
        )
        .await;
    assert_failure(
        s,
        &body,
        403,
        Some("You can only see the users you invited"),
    );
    let admin = app.admin_token().await;
    let (s, _) = app
        .get(
            &format!("/api/users/get_invited_by_me?user_id={bob_id}"),
            Some(&admin),
        )
        .await;
    assert_eq!(s, 200);
}

#[tokio::test(flavor = "multi_thread")]
async fn an_unknown_invite_code_is_refused_and_nothing_is_created() {
    let app = TestApp::spawn().await;
    let email = unique_email();
    let code = app.mailed_code(&email).await;
    let (s, body) = app
        .post("/api/register/", json!({"email": email, "password": "long-enough", "verify_code": code, "invite_code": "NOPE2345"}), None)
        .await;
    assert_failure(s, &body, 400, Some("Unknown invite code"));
    let (s, _) = app
        .post(
            "/api/login/",
            json!({"email": email, "password": "long-enough"}),
            None,
        )
        .await;
    assert_eq!(s, 404);
}

#[tokio::test(flavor = "multi_thread")]
async fn an_inviter_earns_both_rewards_once_the_invited_user_buys_with_recharged_money() {
    let app = TestApp::spawn().await;
    let (_, token, inviter) = app.reader().await;
    let (s, body) = app.get("/api/get_invite_codes", Some(&token)).await;
    assert_eq!(s, 200, "{body}");
    let code = body["data"][0]["code"].as_str().unwrap().to_owned();
    let friend_email = unique_email();
    app.register(&friend_email, "friend-pass-1", Some(&code))
        .await;
    let (friend_token, _, friend) = app.login(&friend_email, "friend-pass-1").await;
    let friend = User {
        token: friend_token,
        id: friend["user_id"].as_str().unwrap().to_owned(),
    };
    let writer = app.writer().await;

    // A book bought with an admin's top-up, then one bought with a recharge.
    let admin = app.admin().await;
    let (s, body) = app
        .post(
            &format!("/api/top_up?uid={}&amount=10&password=x", friend.id),
            json!({}),
            Some(&admin.token),
        )
        .await;
    assert_eq!(s, 200, "{body}");
    for recharge in [None, Some(5.0)] {
        if let Some(amount) = recharge {
            app.recharge(&friend, amount).await;
        }
        let book = app.create_book(&writer, NewBook::default()).await;
        let bought = app.buy(&friend, &friend.id, &book.book_id).await;
        assert_eq!(bought.status, 200, "{}", bought.body);
    }
    let trades = app.records("/api/get_trade_records", &friend).await;
    let paid_with_recharge = trades
        .iter()
        .map(|t| DateTime::parse_from_rfc3339(t["created_at"].as_str().unwrap()).unwrap())
        .max()
        .unwrap();

    let page = app
        .eventually("the inviter's rewards", || async {
            let (s, body) = app.get("/api/rewards", Some(&token)).await;
            assert_eq!(s, 200, "{body}");
            (body["data"]["total"] == 2).then(|| body["data"].clone())
        })
        .await;
    assert_eq!(page["page"], 1);
    assert_eq!(page["page_size"], 10);
    assert_eq!(
        cents(&page["total_amount"]),
        REWARD_REGISTERED_CENTS + REWARD_FIRST_PURCHASE_CENTS
    );
    let mut paid: Vec<(String, i64)> = page["result"]
        .as_array()
        .unwrap()
        .iter()
        .map(|reward| {
            assert_eq!(reward["user_id"], inviter["user_id"]);
            assert_eq!(reward["invitee_id"], friend.id.as_str());
            assert!(reward["reward_id"].is_string());
            let at = DateTime::parse_from_rfc3339(reward["created_at"].as_str().unwrap()).unwrap();
            assert!(
                at >= paid_with_recharge,
                "paid for the purchase with recharged money, not before: {reward}"
            );
            (
                reward["reason"].as_str().unwrap().to_owned(),
                cents(&reward["amount"]),
            )
        })
        .collect();
    paid.sort();
    assert_eq!(
        paid,
        vec![
            ("first_purchase".to_owned(), REWARD_FIRST_PURCHASE_CENTS),
            ("registered".to_owned(), REWARD_REGISTERED_CENTS),
        ]
    );

    let (s, body) = app
        .get("/api/rewards?page_size=5", Some(&friend.token))
        .await;
    assert_eq!(s, 200, "{body}");
    assert_eq!(body["data"]["total"], 0, "the invited user earns nothing");
    let (s, body) = app.get("/api/rewards?page=0", Some(&token)).await;
    assert_failure(s, &body, 400, None);
}
