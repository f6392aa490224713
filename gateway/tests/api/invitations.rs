use serde_json::json;

use crate::support::{TestApp, assert_failure, unique_email};

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
