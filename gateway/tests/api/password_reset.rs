//! Resetting a forgotten password with a mailed code, through the real gateway and auth,
//! the mail caught by the SMTP sink.

use std::time::Duration;

use serde_json::{Value, json};

use crate::registration::diesel_conn;
use crate::support::{Limits, TestApp, assert_bad_input, assert_failure, unique_email};

const CODE_ROUTE: &str = "/api/users/password-reset/code/";
const RESET_ROUTE: &str = "/api/users/password-reset/";
const NEW_PASSWORD: &str = "brand-new-pass-2";

async fn ask_code(app: &TestApp, email: &str) -> (u16, Value) {
    app.post(CODE_ROUTE, json!({"email": email}), None).await
}

/// Asks for a reset code for `email` and reads it from the mail that follows.
async fn mailed_reset_code(app: &TestApp, email: &str) -> String {
    app.code_mailed_by(CODE_ROUTE, email).await
}

async fn reset(app: &TestApp, email: &str, code: &str, password: &str) -> (u16, Value) {
    app.post(
        RESET_ROUTE,
        json!({"email": email, "verify_code": code, "password": password}),
        None,
    )
    .await
}

fn other_than(code: &str) -> &'static str {
    if code == "000000" { "111111" } else { "000000" }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_reset_sets_the_new_password_and_ends_every_session_of_the_account() {
    let app = TestApp::spawn().await;
    let (email, first_access, _) = app.reader().await;
    let (second_access, second_refresh, _) = app.login(&email, "reader-pass-1").await;
    let (s, _) = app.get("/api/users/me/", Some(&first_access)).await;
    assert_eq!(s, 200);

    let code = mailed_reset_code(&app, &email).await;
    let (s, body) = reset(&app, &email, &code, NEW_PASSWORD).await;
    assert_eq!(s, 200, "{body}");
    assert_eq!(body["data"]["reset"], true);

    // Every access token and refresh token issued before is refused.
    for token in [&first_access, &second_access] {
        let (s, body) = app.get("/api/users/me/", Some(token)).await;
        assert_failure(s, &body, 401, Some("Token revoked, log in again"));
    }
    let (s, body) = app
        .post(
            "/api/users/refresh-token/",
            json!({"refresh_token": second_refresh}),
            None,
        )
        .await;
    assert_failure(s, &body, 401, Some("Invalid or expired refresh token"));

    // The old password no longer opens a session; the new one does, at once, and its
    // tokens work.
    let (s, body) = app
        .post(
            "/api/login/",
            json!({"email": email, "password": "reader-pass-1"}),
            None,
        )
        .await;
    assert_failure(s, &body, 400, Some("Wrong password"));
    let (access, refresh, _) = app.login(&email, NEW_PASSWORD).await;
    let (s, body) = app.get("/api/users/me/", Some(&access)).await;
    assert_eq!(s, 200, "{body}");
    assert_eq!(body["data"]["email"], email);
    let (s, body) = app
        .post(
            "/api/users/refresh-token/",
            json!({"refresh_token": refresh}),
            None,
        )
        .await;
    assert_eq!(s, 200, "{body}");

    // The code is spent: it cannot set another password.
    let (s, body) = reset(&app, &email, &code, "yet-another-pass").await;
    assert_failure(
        s,
        &body,
        400,
        Some("This code was already used, request a new one"),
    );
    assert_eq!(body["error"], "verify_code_used");
    app.login(&email, NEW_PASSWORD).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn wrong_expired_and_exhausted_codes_are_refused_and_change_nothing() {
    let app = TestApp::spawn().await;
    let (email, access, _) = app.reader().await;
    let (s, body) = reset(&app, &email, "123456", NEW_PASSWORD).await;
    assert_failure(
        s,
        &body,
        400,
        Some("No verification code was sent to this e-mail"),
    );
    let code = mailed_reset_code(&app, &email).await;
    let wrong = other_than(&code);

    let (s, body) = reset(&app, &email, "12ab", NEW_PASSWORD).await;
    assert_bad_input(s, &body, "verify_code");
    let (s, body) = reset(&app, &email, wrong, NEW_PASSWORD).await;
    assert_failure(s, &body, 400, Some("Invalid verification code"));
    assert_eq!(body["error"], "wrong_verify_code");

    // Aged past its ten minutes, as the clock would.
    let mut conn = diesel_conn(&app).await;
    let age = |expires: &str| {
        diesel::sql_query(format!(
            "UPDATE {}.email_codes SET expires_at = {expires} WHERE email = '{email}' AND purpose = 'password_reset'",
            app.schema
        ))
    };
    diesel_async::RunQueryDsl::execute(age("now() - interval '1 second'"), &mut conn)
        .await
        .unwrap();
    let (s, body) = reset(&app, &email, &code, NEW_PASSWORD).await;
    assert_failure(
        s,
        &body,
        400,
        Some("Verification code expired, request a new one"),
    );

    // Fresh again, four more wrong tries make five: then even the right code is refused.
    diesel_async::RunQueryDsl::execute(age("now() + interval '5 minutes'"), &mut conn)
        .await
        .unwrap();
    for _ in 0..4 {
        let (s, body) = reset(&app, &email, wrong, NEW_PASSWORD).await;
        assert_failure(s, &body, 400, Some("Invalid verification code"));
    }
    let (s, body) = reset(&app, &email, &code, NEW_PASSWORD).await;
    assert_failure(
        s,
        &body,
        400,
        Some("Too many wrong codes, request a new one"),
    );

    // Nothing changed: the old password works and the session goes on.
    let (s, _) = app.get("/api/users/me/", Some(&access)).await;
    assert_eq!(s, 200);
    app.login(&email, "reader-pass-1").await;
}

#[tokio::test(flavor = "multi_thread")]
async fn the_new_password_follows_the_rules_of_registration_and_a_refused_one_spends_nothing() {
    let app = TestApp::spawn().await;
    let (email, access, _) = app.reader().await;
    let code = mailed_reset_code(&app, &email).await;
    for bad in ["short", &"x".repeat(129)] {
        let (s, body) = reset(&app, &email, &code, bad).await;
        assert_bad_input(s, &body, "password");
    }
    let (s, body) = app
        .post(
            RESET_ROUTE,
            json!({"email": email, "verify_code": code}),
            None,
        )
        .await;
    assert_failure(s, &body, 400, None);
    let (s, _) = app.get("/api/users/me/", Some(&access)).await;
    assert_eq!(s, 200, "a refused reset ends no session");
    let (s, body) = reset(&app, &email, &code, NEW_PASSWORD).await;
    assert_eq!(s, 200, "the code was not spent: {body}");
}

#[tokio::test(flavor = "multi_thread")]
async fn an_unknown_address_is_answered_like_a_known_one_and_gets_no_mail() {
    let app = TestApp::spawn().await;
    let (known, ..) = app.reader().await;
    let unknown = unique_email();

    let (s_known, known_body) = ask_code(&app, &known).await;
    let (s_unknown, unknown_body) = ask_code(&app, &unknown).await;
    assert_eq!((s_known, s_unknown), (200, 200), "{unknown_body}");
    assert_eq!(known_body, unknown_body);
    assert_eq!(known_body["data"]["expires_in_secs"], 600);

    // Asking again at once is refused the same way for both.
    let (s_known, known_body) = ask_code(&app, &known).await;
    let (s_unknown, unknown_body) = ask_code(&app, &unknown).await;
    assert_failure(s_known, &known_body, 429, None);
    assert_failure(s_unknown, &unknown_body, 429, None);
    assert_eq!(known_body["message"], unknown_body["message"]);

    // A guess is a wrong code for both, and so is the "right" one nobody was sent.
    let (s, body) = reset(&app, &unknown, "123456", NEW_PASSWORD).await;
    assert_failure(s, &body, 400, Some("Invalid verification code"));
    let (s, body) = reset(&app, &unique_email(), "123456", NEW_PASSWORD).await;
    assert_failure(
        s,
        &body,
        400,
        Some("No verification code was sent to this e-mail"),
    );

    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(
        app.mails.count_for(&unknown),
        0,
        "no mail to an unknown address"
    );
    let (s, body) = app
        .post(
            "/api/login/",
            json!({"email": unknown, "password": NEW_PASSWORD}),
            None,
        )
        .await;
    assert_failure(s, &body, 404, Some("User not found"));
}

#[tokio::test(flavor = "multi_thread")]
async fn a_registration_code_cannot_reset_a_password() {
    let app = TestApp::spawn().await;
    let email = unique_email();
    let registration_code = app.mailed_code(&email).await;
    // The address gets an account without using the code (an admin creates it).
    let admin = app.admin_token().await;
    let (s, body) = app
        .post(
            "/api/users/",
            json!({"email": email, "username": "Made", "password": "made-by-admin"}),
            Some(&admin),
        )
        .await;
    assert_eq!(s, 200, "{body}");
    let (s, body) = reset(&app, &email, &registration_code, NEW_PASSWORD).await;
    assert_failure(
        s,
        &body,
        400,
        Some("No verification code was sent to this e-mail"),
    );
    app.login(&email, "made-by-admin").await;
}

#[tokio::test(flavor = "multi_thread")]
async fn two_resets_with_one_code_at_once_change_the_password_once() {
    let app = TestApp::spawn().await;
    let (email, ..) = app.reader().await;
    let code = mailed_reset_code(&app, &email).await;
    let (a, b) = tokio::join!(
        reset(&app, &email, &code, "first-new-pass"),
        reset(&app, &email, &code, "second-new-pass"),
    );
    let mut statuses = [a.0, b.0];
    statuses.sort_unstable();
    assert_eq!(statuses, [200, 400], "{} / {}", a.1, b.1);
    let (winner, loser) = if a.0 == 200 {
        ("first-new-pass", b.1)
    } else {
        ("second-new-pass", a.1)
    };
    assert_eq!(
        loser["message"], "This code was already used, request a new one",
        "{loser}"
    );
    app.login(&email, winner).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn codes_and_resets_are_rate_limited_per_address() {
    let app = TestApp::spawn_with(Limits {
        verify_per_min: 2,
        login_per_min: 2,
        ..Default::default()
    })
    .await;
    for _ in 0..2 {
        let (s, body) = ask_code(&app, &unique_email()).await;
        assert_eq!(s, 200, "{body}");
    }
    let (s, body) = ask_code(&app, &unique_email()).await;
    assert_failure(s, &body, 429, None);

    for _ in 0..2 {
        let (s, body) = reset(&app, &unique_email(), "123456", NEW_PASSWORD).await;
        assert_eq!(s, 400, "{body}");
    }
    let r = app
        .http
        .post(app.url(RESET_ROUTE))
        .json(&json!({"email": unique_email(), "verify_code": "123456", "password": NEW_PASSWORD}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 429);
    assert!(r.headers().contains_key("retry-after"));
}
