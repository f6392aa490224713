use jsonwebtoken::{Algorithm, EncodingKey, Header};
use quire_kit::caller::Claims;
use serde_json::json;

use crate::support::{Limits, TestApp, assert_failure, unique_email};

#[tokio::test(flavor = "multi_thread")]
async fn a_wrong_password_and_an_unknown_user_get_their_known_texts() {
    let app = TestApp::spawn().await;
    let (email, ..) = app.reader().await;
    let (s, body) = app
        .post(
            "/api/login/",
            json!({"email": email, "password": "not-it-at-all"}),
            None,
        )
        .await;
    assert_failure(s, &body, 400, Some("Wrong password"));
    let (s, body) = app
        .post(
            "/api/login/",
            json!({"email": unique_email(), "password": "whatever1"}),
            None,
        )
        .await;
    assert_failure(s, &body, 404, Some("User not found"));
}

#[tokio::test(flavor = "multi_thread")]
async fn repeated_wrong_passwords_lock_the_account_for_a_while() {
    let app = TestApp::spawn().await;
    let (email, ..) = app.reader().await;
    for _ in 0..5 {
        let (s, _) = app
            .post(
                "/api/login/",
                json!({"email": email, "password": "guess-guess"}),
                None,
            )
            .await;
        assert_eq!(s, 400);
    }
    let (s, body) = app
        .post(
            "/api/login/",
            json!({"email": email, "password": "reader-pass-1"}),
            None,
        )
        .await;
    assert_failure(
        s,
        &body,
        429,
        Some("Too many failed logins, try again later or sign in with a code mailed to you"),
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn protected_routes_refuse_missing_tampered_foreign_and_expired_tokens() {
    let app = TestApp::spawn().await;
    let (_, token, user) = app.reader().await;

    let (s, body) = app.get("/api/users/me/", None).await;
    assert_failure(s, &body, 401, Some("Authentication required"));

    // Flip one character of the signature.
    let mut tampered = token.clone().into_bytes();
    let last = tampered.len() - 3;
    tampered[last] = if tampered[last] == b'A' { b'B' } else { b'A' };
    let (s, body) = app
        .get(
            "/api/users/me/",
            Some(&String::from_utf8(tampered).unwrap()),
        )
        .await;
    assert_failure(s, &body, 401, Some("Invalid or expired token"));

    // A claim changed without re-signing (reader -> admin).
    let parts: Vec<&str> = token.split('.').collect();
    use base64::Engine;
    let engine = base64::engine::general_purpose::URL_SAFE_NO_PAD;
    let mut claims: serde_json::Value =
        serde_json::from_slice(&engine.decode(parts[1]).unwrap()).unwrap();
    claims["roles"] = json!(["reader", "admin"]);
    let forged = format!(
        "{}.{}.{}",
        parts[0],
        engine.encode(claims.to_string()),
        parts[2]
    );
    let (s, body) = app.get("/api/users/", Some(&forged)).await;
    assert_failure(s, &body, 401, None);

    // Properly signed with auth's own key, but expired an hour ago.
    let pem = std::fs::read(&app.key_file).unwrap();
    let kid = jsonwebtoken::decode_header(&token).unwrap().kid;
    let now = chrono::Utc::now().timestamp();
    let expired = Claims {
        sub: user["user_id"].as_str().unwrap().parse().unwrap(),
        role: "reader".into(),
        roles: vec!["reader".into()],
        jti: uuid::Uuid::new_v4(),
        sid: None,
        iat: now - 7200,
        exp: now - 3600,
        iss: "quire-auth".into(),
        aud: "quire".into(),
    };
    let mut header = Header::new(Algorithm::EdDSA);
    header.kid = kid;
    let expired =
        jsonwebtoken::encode(&header, &expired, &EncodingKey::from_ed_pem(&pem).unwrap()).unwrap();
    let (s, body) = app.get("/api/users/me/", Some(&expired)).await;
    assert_failure(s, &body, 401, Some("Invalid or expired token"));

    let (s, body) = app.get("/api/users/me/", Some("not-a-jwt")).await;
    assert_failure(s, &body, 401, None);
}

#[tokio::test(flavor = "multi_thread")]
async fn logout_revokes_the_access_token_and_its_refresh_token() {
    let app = TestApp::spawn().await;
    let (email, ..) = app.reader().await;
    let (token, refresh, _) = app.login(&email, "reader-pass-1").await;
    let (s, body) = app
        .post(
            "/api/users/logout",
            json!({"refresh_token": refresh}),
            Some(&token),
        )
        .await;
    assert_eq!(s, 200, "{body}");
    let (s, body) = app.get("/api/users/me/", Some(&token)).await;
    assert_failure(s, &body, 401, Some("Token revoked, log in again"));
    let (s, body) = app
        .post(
            "/api/users/refresh-token/",
            json!({"refresh_token": refresh}),
            None,
        )
        .await;
    assert_failure(s, &body, 401, Some("Invalid or expired refresh token"));
    // Logging in again works.
    let (fresh, ..) = app.login(&email, "reader-pass-1").await;
    assert_eq!(app.get("/api/users/me/", Some(&fresh)).await.0, 200);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_refresh_token_rotates_and_its_replay_revokes_the_family() {
    let app = TestApp::spawn().await;
    let (email, ..) = app.reader().await;
    let (_, first, _) = app.login(&email, "reader-pass-1").await;
    let (s, body) = app
        .post(
            "/api/users/refresh-token/",
            json!({"refresh_token": first}),
            None,
        )
        .await;
    assert_eq!(s, 200, "{body}");
    let second = body["data"]["refresh_token"].as_str().unwrap().to_owned();
    let access = body["data"]["access_token"].as_str().unwrap().to_owned();
    assert_ne!(first, second);
    assert_eq!(app.get("/api/users/me/", Some(&access)).await.0, 200);

    // The first token again: a replay. It fails, and so does the one it was rotated into.
    let (s, body) = app
        .post(
            "/api/users/refresh-token/",
            json!({"refresh_token": first}),
            None,
        )
        .await;
    assert_failure(s, &body, 401, None);
    let (s, body) = app
        .post(
            "/api/users/refresh-token/",
            json!({"refresh_token": second}),
            None,
        )
        .await;
    assert_failure(s, &body, 401, None);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_replayed_refresh_token_ends_the_access_tokens_of_its_session() {
    let app = TestApp::spawn().await;
    let (email, ..) = app.reader().await;
    let (login_access, first, _) = app.login(&email, "reader-pass-1").await;
    // Another session of the same user, on another device: it is not the one replayed.
    let (other_device, ..) = app.login(&email, "reader-pass-1").await;
    let (s, body) = app
        .post(
            "/api/users/refresh-token/",
            json!({"refresh_token": first}),
            None,
        )
        .await;
    assert_eq!(s, 200, "{body}");
    let rotated_access = body["data"]["access_token"].as_str().unwrap().to_owned();
    let (s, body) = app
        .post(
            "/api/users/refresh-token/",
            json!({"refresh_token": first}),
            None,
        )
        .await;
    assert_failure(s, &body, 401, None);
    // Whoever holds this session's access tokens (the thief's included) is out now.
    for token in [&login_access, &rotated_access] {
        let (s, body) = app.get("/api/users/me/", Some(token)).await;
        assert_failure(s, &body, 401, Some("Token revoked, log in again"));
    }
    assert_eq!(app.get("/api/users/me/", Some(&other_device)).await.0, 200);
}

#[tokio::test(flavor = "multi_thread")]
async fn logout_without_the_refresh_token_ends_its_session_and_only_that() {
    let app = TestApp::spawn().await;
    let (email, ..) = app.reader().await;
    let (token, refresh, _) = app.login(&email, "reader-pass-1").await;
    let (other_device, other_refresh, _) = app.login(&email, "reader-pass-1").await;
    let (s, body) = app.post("/api/users/logout", json!({}), Some(&token)).await;
    assert_eq!(s, 200, "{body}");
    let (s, body) = app
        .post(
            "/api/users/refresh-token/",
            json!({"refresh_token": refresh}),
            None,
        )
        .await;
    assert_failure(s, &body, 401, Some("Invalid or expired refresh token"));
    let (s, body) = app.get("/api/users/me/", Some(&token)).await;
    assert_failure(s, &body, 401, Some("Token revoked, log in again"));
    // The other device stays signed in and can go on refreshing.
    assert_eq!(app.get("/api/users/me/", Some(&other_device)).await.0, 200);
    let (s, body) = app
        .post(
            "/api/users/refresh-token/",
            json!({"refresh_token": other_refresh}),
            None,
        )
        .await;
    assert_eq!(s, 200, "{body}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_role_switch_goes_on_in_the_same_session() {
    let app = TestApp::spawn().await;
    let (email, ..) = app.reader().await;
    let (token, refresh, _) = app.login(&email, "reader-pass-1").await;
    let (s, body) = app
        .post(
            "/api/users/add-role/",
            json!({"role": "writer"}),
            Some(&token),
        )
        .await;
    assert_eq!(s, 200, "{body}");
    let (s, body) = app
        .post(
            "/api/users/me/switch-role/",
            json!({"new_role": "writer"}),
            Some(&token),
        )
        .await;
    assert_eq!(s, 200, "{body}");
    let writer = body["data"]["access_token"].as_str().unwrap().to_owned();
    assert_eq!(app.get("/api/users/me/", Some(&writer)).await.0, 200);
    // The refresh token from the login goes on, now into the writer's role.
    let (s, body) = app
        .post(
            "/api/users/refresh-token/",
            json!({"refresh_token": refresh}),
            None,
        )
        .await;
    assert_eq!(s, 200, "{body}");
    let next_refresh = body["data"]["refresh_token"].as_str().unwrap().to_owned();
    let (_, me) = app
        .get("/api/users/me/", body["data"]["access_token"].as_str())
        .await;
    assert_eq!(me["data"]["current_role"], "writer", "{me}");
    // Logging out as the writer, without a refresh token, ends the session begun as a
    // reader: its refresh token no longer opens it, its reader's token is refused.
    let (s, body) = app
        .post("/api/users/logout", json!({}), Some(&writer))
        .await;
    assert_eq!(s, 200, "{body}");
    let (s, body) = app
        .post(
            "/api/users/refresh-token/",
            json!({"refresh_token": next_refresh}),
            None,
        )
        .await;
    assert_failure(s, &body, 401, None);
    let (s, body) = app.get("/api/users/me/", Some(&token)).await;
    assert_failure(s, &body, 401, Some("Token revoked, log in again"));
}

#[tokio::test(flavor = "multi_thread")]
async fn logins_past_the_rate_limit_get_429_with_retry_after() {
    let app = TestApp::spawn_with(Limits {
        login_per_min: 3,
        ..Limits::default()
    })
    .await;
    for _ in 0..3 {
        let (s, _) = app
            .post(
                "/api/login/",
                json!({"email": unique_email(), "password": "whatever1"}),
                None,
            )
            .await;
        assert_eq!(s, 404);
    }
    let r = app
        .http
        .post(app.url("/api/login/"))
        .json(&json!({"email": unique_email(), "password": "x"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 429);
    let wait: u64 = r.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=60).contains(&wait));
    let body: serde_json::Value = r.json().await.unwrap();
    assert_failure(429, &body, 429, None);
}
