use serde_json::json;

use crate::support::{TestApp, assert_failure, unique_email};

#[tokio::test(flavor = "multi_thread")]
async fn a_user_adds_a_role_switches_to_it_and_gets_a_token_acting_in_it() {
    let app = TestApp::spawn().await;
    let (_, token, _) = app.reader().await;
    let (s, body) = app
        .post(
            "/api/users/me/switch-role/",
            json!({"new_role": "writer"}),
            Some(&token),
        )
        .await;
    assert_failure(s, &body, 403, Some("You do not hold the role writer"));

    let (s, body) = app
        .post(
            "/api/users/add-role/",
            json!({"role": "writer"}),
            Some(&token),
        )
        .await;
    assert_eq!(s, 200, "{body}");
    assert_eq!(body["data"]["roles"], json!(["reader", "writer"]));
    let (s, body) = app
        .post(
            "/api/users/me/switch-role/",
            json!({"new_role": "writer"}),
            Some(&token),
        )
        .await;
    assert_eq!(s, 200, "{body}");
    let writer_token = body["data"]["access_token"].as_str().unwrap().to_owned();
    let (_, me) = app.get("/api/users/me/", Some(&writer_token)).await;
    assert_eq!(me["data"]["current_role"], "writer");
    let claims = jsonwebtoken::dangerous::insecure_decode::<serde_json::Value>(&writer_token)
        .unwrap()
        .claims;
    assert_eq!(claims["role"], "writer");
}

#[tokio::test(flavor = "multi_thread")]
async fn nobody_makes_themselves_admin_and_unknown_roles_are_refused() {
    let app = TestApp::spawn().await;
    let (_, token, _) = app.reader().await;
    let (s, body) = app
        .post(
            "/api/users/add-role/",
            json!({"role": "admin"}),
            Some(&token),
        )
        .await;
    assert_failure(s, &body, 403, None);
    let (s, body) = app
        .post(
            "/api/users/me/switch-role/",
            json!({"new_role": "admin"}),
            Some(&token),
        )
        .await;
    assert_failure(s, &body, 403, None);
    let (s, body) = app
        .post(
            "/api/users/add-role/",
            json!({"role": "emperor"}),
            Some(&token),
        )
        .await;
    assert_failure(s, &body, 400, None);
    let (_, me) = app.get("/api/users/me/", Some(&token)).await;
    assert_eq!(me["data"]["roles"], json!(["reader"]));
}

#[tokio::test(flavor = "multi_thread")]
async fn roles_are_listed_with_what_each_is_for() {
    let app = TestApp::spawn().await;
    let (s, body) = app.get("/api/roles/", None).await;
    assert_eq!(s, 200);
    let names: Vec<&str> = body["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["reader", "writer", "publisher", "admin"]);
    assert_eq!(body["data"][3]["self_service"], false);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_reader_calling_admin_routes_is_refused() {
    let app = TestApp::spawn().await;
    let (_, token, _) = app.reader().await;
    for path in ["/api/users/", "/api/users/recent"] {
        let (s, body) = app.get(path, Some(&token)).await;
        assert_failure(s, &body, 403, Some("Admin role required"));
    }
    let (s, body) = app
        .post("/api/users/", json!({"email": unique_email(), "username": "x", "password": "password-1", "roles": ["admin"]}), Some(&token))
        .await;
    assert_failure(s, &body, 403, None);
    // Without the gateway's own check, the service refuses too.
    use quire_proto::auth::v1 as pb;
    let mut client = pb::auth_service_client::AuthServiceClient::connect(app.auth_grpc.clone())
        .await
        .unwrap();
    let mut req = tonic::Request::new(pb::ListUsersRequest::default());
    req.metadata_mut()
        .insert("authorization", format!("Bearer {token}").parse().unwrap());
    let status = client.list_users(req).await.unwrap_err();
    assert_eq!(status.code(), tonic::Code::PermissionDenied);
}

#[tokio::test(flavor = "multi_thread")]
async fn the_admin_lists_creates_and_finds_users() {
    let app = TestApp::spawn().await;
    let admin = app.admin_token().await;
    let email = unique_email();
    let (s, body) = app
        .post("/api/users/", json!({"email": email, "username": "Pub Lisher", "password": "password-1", "roles": ["publisher"]}), Some(&admin))
        .await;
    assert_eq!(s, 200, "{body}");
    assert_eq!(body["data"]["roles"], json!(["publisher"]));
    // The new account logs in with the password the admin chose.
    app.login(&email, "password-1").await;

    let (s, body) = app
        .get("/api/users/?page=1&page_size=1", Some(&admin))
        .await;
    assert_eq!(s, 200, "{body}");
    assert_eq!(body["data"]["total"], 2);
    assert_eq!(body["data"]["page_size"], 1);
    assert_eq!(body["data"]["result"].as_array().unwrap().len(), 1);
    let (_, body) = app
        .get(&format!("/api/users/?query={}", &email[..10]), Some(&admin))
        .await;
    assert_eq!(body["data"]["total"], 1);
    assert_eq!(body["data"]["result"][0]["email"], email);
    let (_, body) = app.get("/api/users/recent", Some(&admin)).await;
    assert_eq!(body["data"][0]["email"], email, "newest first");

    let (s, body) = app.get("/api/users/?page_size=1000", Some(&admin)).await;
    assert_failure(s, &body, 400, None);
    let (s, body) = app
        .post(
            "/api/users/",
            json!({"email": email, "username": "again", "password": "password-1"}),
            Some(&admin),
        )
        .await;
    assert_failure(s, &body, 409, Some("Email already registered"));
}

#[tokio::test(flavor = "multi_thread")]
async fn a_user_edits_their_profile_within_limits() {
    let app = TestApp::spawn().await;
    let (_, token, _) = app.reader().await;
    let (s, body) = app
        .post("/api/users/me/", json!({"username": "Grace", "bio": "Reads at night", "avatar_url": "https://img.example/a.png"}), Some(&token))
        .await;
    assert_eq!(s, 200, "{body}");
    assert_eq!(body["data"]["username"], "Grace");
    assert_eq!(body["data"]["bio"], "Reads at night");
    let (s, body) = app
        .post(
            "/api/users/me/",
            json!({"avatar_url": "javascript:alert(1)"}),
            Some(&token),
        )
        .await;
    assert_failure(s, &body, 400, None);
    let (s, body) = app
        .post(
            "/api/users/me/",
            json!({"username": "x".repeat(41)}),
            Some(&token),
        )
        .await;
    assert_failure(s, &body, 400, None);
    let (_, me) = app.get("/api/users/me/", Some(&token)).await;
    assert_eq!(
        me["data"]["username"], "Grace",
        "a refused edit changes nothing"
    );
}
