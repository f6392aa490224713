//! The admin's account actions: a disabled account's tokens stop working at once and it
//! cannot sign in or refresh until enabled again; roles set by the admin hold from the
//! next sign-in and a removed one ends the sessions that carried it; an admin cannot lock
//! themself out; every action is audited with its value before and after.

use serde_json::json;

use crate::support::{TestApp, assert_failure, unique_email};

#[tokio::test(flavor = "multi_thread")]
async fn a_disabled_account_is_shut_out_at_once_and_enabled_again_signs_in() {
    let app = TestApp::spawn().await;
    let admin = app.admin().await;
    let email = unique_email();
    app.register(&email, "reader-pass-1", None).await;
    let (token, refresh, user) = app.login(&email, "reader-pass-1").await;
    let user_id = user["user_id"].as_str().unwrap().to_owned();
    assert_eq!(user["disabled"], false, "{user}");
    let (s, _) = app.get("/api/users/me/", Some(&token)).await;
    assert_eq!(s, 200);

    let (s, body) = app
        .post(
            &format!("/api/admin/users/{user_id}/disable"),
            json!({}),
            Some(&admin.token),
        )
        .await;
    assert_eq!(s, 200, "{body}");
    assert_eq!(body["data"]["user_id"], user_id.as_str());
    assert_eq!(body["data"]["disabled"], true, "{body}");

    // The token it holds is refused from the very next request, and so is its refresh.
    let (s, body) = app.get("/api/users/me/", Some(&token)).await;
    assert_failure(s, &body, 401, None);
    let (s, body) = app
        .post(
            "/api/users/refresh-token/",
            json!({"refresh_token": refresh}),
            None,
        )
        .await;
    assert!(s == 401 || s == 403, "refresh refused: {s} {body}");
    assert_failure(s, &body, s, None);
    let (s, body) = app
        .post(
            "/api/login/",
            json!({"email": email, "password": "reader-pass-1"}),
            None,
        )
        .await;
    assert_failure(s, &body, 403, Some("This account is disabled"));

    // The admin's list shows it.
    let (s, body) = app
        .get(&format!("/api/users/?query={email}"), Some(&admin.token))
        .await;
    assert_eq!(s, 200, "{body}");
    assert_eq!(body["data"]["result"][0]["disabled"], true, "{body}");
    let entry = app
        .audited(&admin, "user.disable", &format!("user:{user_id}"))
        .await;
    assert_eq!(entry["service"], "auth", "{entry}");
    assert_eq!(entry["before"], json!({"disabled": false}), "{entry}");
    assert_eq!(entry["after"], json!({"disabled": true}), "{entry}");

    let (s, body) = app
        .post(
            &format!("/api/admin/users/{user_id}/enable"),
            json!({}),
            Some(&admin.token),
        )
        .await;
    assert_eq!(s, 200, "{body}");
    assert_eq!(body["data"]["disabled"], false, "{body}");
    let (token, _, user) = app.login(&email, "reader-pass-1").await;
    assert_eq!(user["disabled"], false, "{user}");
    let (s, body) = app.get("/api/users/me/", Some(&token)).await;
    assert_eq!(s, 200, "{body}");
    let entry = app
        .audited(&admin, "user.enable", &format!("user:{user_id}"))
        .await;
    assert_eq!(entry["before"], json!({"disabled": true}), "{entry}");
    assert_eq!(entry["after"], json!({"disabled": false}), "{entry}");
}

#[tokio::test(flavor = "multi_thread")]
async fn the_admin_sets_roles_and_a_removed_role_ends_the_sessions_that_carried_it() {
    let app = TestApp::spawn().await;
    let admin = app.admin().await;
    let reader = app.reader_user().await;
    let path = format!("/api/admin/users/{}/roles", reader.id);

    let (s, body) = app
        .put(
            &path,
            json!({"roles": ["writer", "publisher"]}),
            Some(&admin.token),
        )
        .await;
    assert_eq!(s, 200, "{body}");
    assert_eq!(
        body["data"]["roles"],
        json!(["reader", "writer", "publisher"]),
        "reader is always kept: {body}"
    );
    // Adding roles ends nothing.
    let (s, me) = app.get("/api/users/me/", Some(&reader.token)).await;
    assert_eq!(s, 200, "{me}");
    assert_eq!(
        me["data"]["roles"],
        json!(["reader", "writer", "publisher"])
    );
    let entry = app
        .audited(&admin, "user.roles", &format!("user:{}", reader.id))
        .await;
    assert_eq!(entry["before"], json!({"roles": ["reader"]}), "{entry}");
    assert_eq!(
        entry["after"],
        json!({"roles": ["reader", "writer", "publisher"]}),
        "{entry}"
    );

    let (s, body) = app
        .put(&path, json!({"roles": ["reader"]}), Some(&admin.token))
        .await;
    assert_eq!(s, 200, "{body}");
    assert_eq!(body["data"]["roles"], json!(["reader"]), "{body}");
    let (s, body) = app.get("/api/users/me/", Some(&reader.token)).await;
    assert_failure(s, &body, 401, None);
}

#[tokio::test(flavor = "multi_thread")]
async fn an_admin_cannot_disable_themself_nor_drop_their_own_admin_role() {
    let app = TestApp::spawn().await;
    let admin = app.admin().await;
    let (s, body) = app
        .post(
            &format!("/api/admin/users/{}/disable", admin.id),
            json!({}),
            Some(&admin.token),
        )
        .await;
    assert_failure(s, &body, 409, Some("You cannot disable your own account"));
    assert_eq!(body["error"], "cannot_disable_self", "{body}");
    let (s, body) = app
        .put(
            &format!("/api/admin/users/{}/roles", admin.id),
            json!({"roles": ["reader"]}),
            Some(&admin.token),
        )
        .await;
    assert_failure(s, &body, 409, None);
    let (s, me) = app.get("/api/users/me/", Some(&admin.token)).await;
    assert_eq!(s, 200, "{me}");
    assert_eq!(me["data"]["disabled"], false);
    assert!(
        me["data"]["roles"]
            .as_array()
            .unwrap()
            .contains(&json!("admin")),
        "{me}"
    );
}
