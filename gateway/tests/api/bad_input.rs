use serde_json::json;

use crate::support::{Limits, TestApp, assert_failure};

#[tokio::test(flavor = "multi_thread")]
async fn malformed_json_and_wrong_types_are_400s_naming_the_problem() {
    let app = TestApp::spawn().await;
    let r = app
        .http
        .post(app.url("/api/login/"))
        .header("content-type", "application/json")
        .body("{\"email\": ")
        .send()
        .await
        .unwrap();
    let status = r.status().as_u16();
    let body: serde_json::Value = r.json().await.unwrap();
    assert_failure(status, &body, 400, None);
    assert_eq!(body["error"], "invalid_json");

    let (s, body) = app
        .post(
            "/api/register/",
            json!({"email": 12, "password": "x"}),
            None,
        )
        .await;
    assert_failure(s, &body, 400, Some("email: must be text, not 12"));

    let (s, body) = app
        .post("/api/register/", json!({"email": "a@b.org"}), None)
        .await;
    assert_failure(s, &body, 400, Some("password: required"));

    let (s, body) = app.post("/api/send_verify_email", json!({}), None).await;
    assert_failure(s, &body, 400, None);
    assert!(
        body["message"].as_str().unwrap().contains("email"),
        "{body}"
    );

    let (s, body) = app
        .post(
            "/api/send_verify_email?email=not-an-address",
            json!({}),
            None,
        )
        .await;
    assert_failure(s, &body, 400, Some("email: not a valid address"));

    let r = app
        .http
        .post(app.url("/api/login/"))
        .header("content-type", "text/plain")
        .body("hi")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 400);
}

#[tokio::test(flavor = "multi_thread")]
async fn an_oversized_body_is_a_413_envelope() {
    let app = TestApp::spawn_with(Limits {
        json_limit: 4096,
        ..Limits::default()
    })
    .await;
    let (s, body) = app
        .post(
            "/api/login/",
            json!({"email": "a@b.org", "password": "x".repeat(10_000)}),
            None,
        )
        .await;
    assert_failure(s, &body, 413, Some("Request body too large"));
}

#[tokio::test(flavor = "multi_thread")]
async fn an_unknown_api_route_is_a_404_envelope() {
    let app = TestApp::spawn().await;
    let (s, body) = app.get("/api/no/such/thing", None).await;
    assert_failure(s, &body, 404, Some("No such API route"));
}

#[tokio::test(flavor = "multi_thread")]
async fn a_bad_user_id_parameter_is_a_400_not_a_500() {
    let app = TestApp::spawn().await;
    let (_, token, _) = app.reader().await;
    let (s, body) = app
        .get(
            "/api/users/get_invited_by_me?user_id=%27;drop",
            Some(&token),
        )
        .await;
    assert_failure(s, &body, 400, None);
}
