use serde_json::json;

use crate::support::{TestApp, assert_failure, unique_email};

#[tokio::test(flavor = "multi_thread")]
async fn a_new_user_registers_with_the_mailed_code_and_logs_in() {
    let app = TestApp::spawn().await;
    let email = unique_email();
    let user = app.register(&email, "s3cret-pass", None).await;
    assert_eq!(user["email"], email);
    assert_eq!(user["username"], "Ada");
    assert_eq!(user["roles"], json!(["reader"]));
    assert_eq!(user["current_role"], "reader");
    assert_eq!(user["invite_code"].as_str().unwrap().len(), 8);

    let (token, refresh, logged) = app.login(&email.to_uppercase(), "s3cret-pass").await;
    assert!(!token.is_empty() && !refresh.is_empty());
    assert_eq!(logged["user_id"], user["user_id"]);
    let (s, me) = app.get("/api/users/me/", Some(&token)).await;
    assert_eq!(s, 200);
    assert_eq!(me["success"], true);
    assert_eq!(me["message"], "OK");
    assert_eq!(me["data"]["email"], email);
}

#[tokio::test(flavor = "multi_thread")]
async fn checking_a_code_marks_it_verified_and_registration_then_uses_it() {
    let app = TestApp::spawn().await;
    let email = unique_email();
    let code = app.mailed_code(&email).await;
    let (s, body) = app
        .post(
            &format!("/api/check_verify_code?email={email}&verify_code={code}"),
            json!({}),
            None,
        )
        .await;
    assert_eq!(s, 200, "{body}");
    assert_eq!(body["data"]["verified"], true);
    let (s, body) = app
        .post(
            "/api/register/",
            json!({"email": email, "password": "long-enough", "verify_code": code}),
            None,
        )
        .await;
    assert_eq!(s, 200, "{body}");
    // Without a username, the address's local part is used.
    assert_eq!(body["data"]["username"], email.split('@').next().unwrap());
    // The code is spent.
    let (s, body) = app
        .post(
            "/api/register/",
            json!({"email": email, "password": "long-enough", "verify_code": code}),
            None,
        )
        .await;
    assert_failure(s, &body, 409, Some("Email already registered"));
}

#[tokio::test(flavor = "multi_thread")]
async fn a_registered_email_cannot_register_or_ask_for_a_code_again() {
    let app = TestApp::spawn().await;
    let email = unique_email();
    app.register(&email, "s3cret-pass", None).await;
    let (s, body) = app
        .post(
            &format!("/api/send_verify_email?email={email}"),
            json!({}),
            None,
        )
        .await;
    assert_failure(s, &body, 409, Some("Email already registered"));
    assert_eq!(body["error"], "email_already_registered");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_wrong_code_is_refused_and_five_wrong_codes_exhaust_it() {
    let app = TestApp::spawn().await;
    let email = unique_email();
    let code = app.mailed_code(&email).await;
    let wrong = if code == "000000" { "111111" } else { "000000" };
    for _ in 0..5 {
        let (s, body) = app
            .post(
                &format!("/api/check_verify_code?email={email}&verify_code={wrong}"),
                json!({}),
                None,
            )
            .await;
        assert_failure(s, &body, 400, Some("Invalid verification code"));
    }
    // Even the right code no longer works: a new one must be requested.
    let (s, body) = app
        .post(
            &format!("/api/check_verify_code?email={email}&verify_code={code}"),
            json!({}),
            None,
        )
        .await;
    assert_failure(
        s,
        &body,
        400,
        Some("Too many wrong codes, request a new one"),
    );
    let (s, body) = app
        .post(
            "/api/register/",
            json!({"email": email, "password": "long-enough", "verify_code": code}),
            None,
        )
        .await;
    assert_failure(s, &body, 400, None);
    assert_eq!(body["error"], "verify_code_exhausted");
}

#[tokio::test(flavor = "multi_thread")]
async fn an_expired_code_is_refused() {
    let app = TestApp::spawn().await;
    let email = unique_email();
    let code = app.mailed_code(&email).await;
    // Age the code past its ten minutes, as the clock would.
    let mut conn = diesel_conn(&app).await;
    diesel_async::RunQueryDsl::execute(
        diesel::sql_query(format!(
            "UPDATE {}.email_codes SET expires_at = now() - interval '1 second' WHERE email = '{email}'",
            app.schema
        )),
        &mut conn,
    )
    .await
    .unwrap();
    let (s, body) = app
        .post(
            &format!("/api/check_verify_code?email={email}&verify_code={code}"),
            json!({}),
            None,
        )
        .await;
    assert_failure(
        s,
        &body,
        400,
        Some("Verification code expired, request a new one"),
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_second_code_within_the_resend_delay_is_refused_with_retry_after() {
    let app = TestApp::spawn().await;
    let email = unique_email();
    let (s, _) = app
        .post(
            &format!("/api/send_verify_email?email={email}"),
            json!({}),
            None,
        )
        .await;
    assert_eq!(s, 200);
    let r = app
        .http
        .post(app.url(&format!("/api/send_verify_email?email={email}")))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 429);
    let wait: u64 = r.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=60).contains(&wait), "retry-after {wait}");
    assert_eq!(app.mails.count_for(&email), 1, "only one mail goes out");
}

#[tokio::test(flavor = "multi_thread")]
async fn registration_without_a_code_or_with_a_short_password_changes_nothing() {
    let app = TestApp::spawn().await;
    let email = unique_email();
    let (s, body) = app
        .post(
            "/api/register/",
            json!({"email": email, "password": "long-enough", "verify_code": "123456"}),
            None,
        )
        .await;
    assert_failure(
        s,
        &body,
        400,
        Some("No verification code was sent to this e-mail"),
    );
    let code = app.mailed_code(&email).await;
    let (s, body) = app
        .post(
            "/api/register/",
            json!({"email": email, "password": "short", "verify_code": code}),
            None,
        )
        .await;
    assert_failure(s, &body, 400, None);
    assert!(
        body["message"].as_str().unwrap().starts_with("password"),
        "{body}"
    );
    let (s, body) = app
        .post(
            "/api/login/",
            json!({"email": email, "password": "long-enough"}),
            None,
        )
        .await;
    assert_failure(s, &body, 404, Some("User not found"));
}

pub async fn diesel_conn(app: &TestApp) -> diesel_async::AsyncPgConnection {
    use diesel_async::AsyncConnection;
    diesel_async::AsyncPgConnection::establish(&app.database_url)
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread")]
async fn one_address_asking_for_many_codes_is_slowed_down() {
    let app = crate::support::TestApp::spawn_with(crate::support::Limits {
        verify_per_min: 2,
        ..Default::default()
    })
    .await;
    for _ in 0..2 {
        let email = unique_email();
        let (s, body) = app
            .post(
                &format!("/api/send_verify_email?email={email}"),
                json!({}),
                None,
            )
            .await;
        assert_eq!(s, 200, "{body}");
    }
    let email = unique_email();
    let (s, body) = app
        .post(
            &format!("/api/send_verify_email?email={email}"),
            json!({}),
            None,
        )
        .await;
    assert_failure(s, &body, 429, None);
    assert_eq!(
        app.mails.count_for(&email),
        0,
        "no mail leaves past the limit"
    );
}
