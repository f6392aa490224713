//! The front door against what a hostile client tries: guessing passwords at any
//! concurrency and from many addresses, forging its address, locking others out, NUL
//! bytes, bodies that never end, anonymous floods, and framing the shop.

use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::catalog_support::NewBook;
use crate::support::{Limits, TestApp, assert_bad_input, assert_failure};

fn address(n: u32) -> String {
    format!("203.0.{}.{}", (n >> 8) & 0xff, n & 0xff)
}

/// A login from `from` (the address the ingress appended last).
async fn login_from(app: &TestApp, from: &str, email: &str, password: &str) -> (u16, u64) {
    let r = app
        .http
        .post(app.url("/api/login/"))
        .header("x-forwarded-for", from)
        .json(&json!({"email": email, "password": password}))
        .send()
        .await
        .unwrap();
    let status = r.status().as_u16();
    let wait = r
        .headers()
        .get("retry-after")
        .and_then(|v| v.to_str().ok()?.parse().ok())
        .unwrap_or(0);
    (status, wait)
}

#[tokio::test(flavor = "multi_thread")]
async fn a_hundred_guesses_at_once_from_a_hundred_addresses_are_not_all_checked() {
    let app = TestApp::spawn().await;
    let (email, ..) = app.reader().await;
    let base: u32 = rand::random::<u16>().into();
    let guesses = (0..100u32).map(|i| {
        let (app, email) = (&app, email.clone());
        async move { login_from(app, &address(base + i), &email, "guess-guess-1").await }
    });
    let answers = futures::future::join_all(guesses).await;
    let checked = answers.iter().filter(|(s, _)| *s == 400).count();
    let refused = answers.iter().filter(|(s, _)| *s == 429).count();
    assert_eq!(checked + refused, 100, "{answers:?}");
    // 5 free attempts, then one per growing delay (1, 2, 4, 8, 16 s) however long the
    // hundred requests take to pass: never more than a dozen checked.
    assert!(checked <= 12, "{checked} of 100 guesses were checked");
    assert!(answers.iter().all(|(s, w)| *s != 429 || *w >= 1));
}

#[tokio::test(flavor = "multi_thread")]
async fn a_stranger_guessing_cannot_lock_the_owner_out() {
    let app = TestApp::spawn().await;
    let (email, ..) = app.reader().await; // the owner signed in from app.client_ip
    let stranger = address(rand::random::<u16>().into());
    for _ in 0..5 {
        assert_eq!(
            login_from(&app, &stranger, &email, "guess-guess-1").await.0,
            400
        );
    }
    // This address has had its tries; the right password from it is refused too.
    let (s, wait) = login_from(&app, &stranger, &email, "reader-pass-1").await;
    assert_eq!(s, 429);
    assert!((1..=900).contains(&wait), "{wait}");
    // Strangers from fresh addresses are slowed down, not let through.
    let mut slowed = false;
    for i in 0..10u32 {
        let from = address(50_000 + i + u32::from(rand::random::<u8>()) * 16);
        if login_from(&app, &from, &email, "guess-guess-1").await.0 == 429 {
            slowed = true;
            break;
        }
    }
    assert!(slowed, "guesses from new addresses were never slowed down");
    // The owner, from the address they signed in from, gets in at once.
    let (s, _) = login_from(&app, &app.client_ip, &email, "reader-pass-1").await;
    assert_eq!(s, 200);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_stranger_guessing_on_and_on_does_not_keep_the_owner_out_of_a_new_address() {
    let app = TestApp::spawn().await;
    let (email, ..) = app.reader().await;
    let base = 20_000 + u32::from(rand::random::<u8>()) * 64;
    // Two strangers, each guessing again and again from their address: past the free
    // tries further guesses wait their turn, and past five an address waits the window.
    let mut answers = Vec::new();
    for stranger in [address(base), address(base + 1)] {
        for _ in 0..6 {
            answers.push(login_from(&app, &stranger, &email, "guess-guess-1").await.0);
        }
    }
    assert!(
        answers.iter().all(|s| [400, 429].contains(s)),
        "{answers:?}"
    );
    assert!(
        answers.contains(&429),
        "guesses were never slowed: {answers:?}"
    );
    // The owner, on a new phone: the right password from an address never seen gets in.
    let (s, _) = login_from(&app, &address(base + 3), &email, "reader-pass-1").await;
    assert_eq!(s, 200);
}

/// A login from `from` with `body` as it is; the answer's status and envelope.
async fn login_body_from(app: &TestApp, from: &str, body: Value) -> (u16, Value) {
    let r = app
        .http
        .post(app.url("/api/login/"))
        .header("x-forwarded-for", from)
        .json(&body)
        .send()
        .await
        .unwrap();
    let status = r.status().as_u16();
    (status, r.json().await.unwrap_or(Value::Null))
}

/// Asks for a sign-in code for `email` and reads it from the mail that follows.
async fn mailed_sign_in_code(app: &TestApp, email: &str) -> String {
    app.code_mailed_by("/api/login/code/", email).await
}

#[tokio::test(flavor = "multi_thread")]
async fn a_fresh_address_for_every_guess_does_not_keep_the_owner_out_with_a_mailed_code() {
    let app = TestApp::spawn().await;
    let (email, ..) = app.reader().await;
    let base = 30_000 + u32::from(rand::random::<u8>()) * 64;
    // A stranger who takes a new address for every guess, waiting out each pause, until
    // new addresses are kept waiting 4 s or more.
    let mut paced = false;
    for i in 0..30 {
        let (s, wait) = login_from(&app, &address(base + i), &email, "guess-guess-1").await;
        assert!([400, 429].contains(&s), "{s}");
        if s == 429 && wait >= 4 {
            paced = true;
            break;
        }
        if s == 429 {
            tokio::time::sleep(Duration::from_secs(wait)).await;
        }
    }
    assert!(paced, "guesses from fresh addresses were never slowed down");
    // The owner on a new phone meets that pace too, and is told a mailed code gets past it.
    let owner = address(base + 50);
    let password = json!({"email": email, "password": "reader-pass-1"});
    let (s, body) = login_body_from(&app, &owner, password.clone()).await;
    assert_failure(s, &body, 429, None);
    assert_eq!(body["error"], "login_locked", "{body}");
    assert!(body["message"].as_str().unwrap().contains("code"), "{body}");

    let code = mailed_sign_in_code(&app, &email).await;
    let with = |code: &str| {
        let mut b = password.clone();
        b["verify_code"] = json!(code);
        b
    };
    let wrong = if code == "000000" { "111111" } else { "000000" };
    let (s, body) = login_body_from(&app, &owner, with(wrong)).await;
    assert_failure(s, &body, 400, Some("Invalid verification code"));
    // The mailed code and the password: in at once, whatever the pace.
    let (s, body) = login_body_from(&app, &owner, with(&code)).await;
    assert_eq!(s, 200, "{body}");
    assert!(
        body["data"]["access_token"]
            .as_str()
            .is_some_and(|t| !t.is_empty())
    );
    // The sign-in used the code up, and the new phone is known from now on.
    let (s, body) = login_body_from(&app, &owner, with(&code)).await;
    assert_failure(
        s,
        &body,
        400,
        Some("This code was already used, request a new one"),
    );
    let (s, body) = login_body_from(&app, &owner, password).await;
    assert_eq!(s, 200, "{body}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_sign_in_code_opens_five_tries_and_tells_nothing_of_unknown_addresses() {
    let app = TestApp::spawn().await;
    let (email, ..) = app.reader().await;
    let code = mailed_sign_in_code(&app, &email).await;
    // A code is no way around guessing: wrong passwords with it count against its tries.
    for _ in 0..5 {
        let (s, body) = app
            .post(
                "/api/login/",
                json!({"email": email, "password": "guess-guess-1", "verify_code": code}),
                None,
            )
            .await;
        assert_failure(s, &body, 400, Some("Wrong password"));
    }
    let (s, body) = app
        .post(
            "/api/login/",
            json!({"email": email, "password": "reader-pass-1", "verify_code": code}),
            None,
        )
        .await;
    assert_failure(
        s,
        &body,
        400,
        Some("Too many wrong codes, request a new one"),
    );
    // Not a six-digit code: named as bad input.
    let (s, body) = app
        .post(
            "/api/login/",
            json!({"email": email, "password": "reader-pass-1", "verify_code": "12ab"}),
            None,
        )
        .await;
    assert_bad_input(s, &body, "verify_code");
    // An address no account uses gets the same answer, and no mail.
    let stranger = crate::support::unique_email();
    let (s, body) = app
        .post("/api/login/code/", json!({"email": stranger}), None)
        .await;
    assert_eq!(s, 200, "{body}");
    assert_eq!(body["data"]["sent"], true);
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(app.mails.count_for(&stranger), 0);
}

#[tokio::test(flavor = "multi_thread")]
async fn an_address_written_by_the_client_does_not_escape_the_limit() {
    let app = TestApp::spawn_with(Limits {
        login_per_min: 3,
        ..Limits::default()
    })
    .await;
    let mut last = 0;
    for i in 0..4u32 {
        // The client writes a new address each time; the ingress appends the real one.
        let forged = format!("{}, {}", address(i + 7), app.client_ip);
        let r = app
            .http
            .post(app.url("/api/login/"))
            .header("x-forwarded-for", forged)
            .json(&json!({"email": crate::support::unique_email(), "password": "x-y-z-1"}))
            .send()
            .await
            .unwrap();
        last = r.status().as_u16();
    }
    assert_eq!(last, 429);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_nul_byte_in_a_profile_or_a_user_search_is_a_400_naming_the_field() {
    let app = TestApp::spawn().await;
    let (_, token, _) = app.reader().await;
    let (s, body) = app
        .post("/api/users/me/", json!({"bio": "a\u{0}b"}), Some(&token))
        .await;
    assert_bad_input(s, &body, "bio");
    let (_, me) = app.get("/api/users/me/", Some(&token)).await;
    assert_eq!(me["data"]["bio"].as_str().unwrap_or_default(), "", "{me}");
    let admin = app.admin_token().await;
    let (s, body) = app.get("/api/users/?query=%00", Some(&admin)).await;
    assert_bad_input(s, &body, "query");
    let (s, body) = app
        .get("/api/get_books?uid=%01&book_id=", Some(&admin))
        .await;
    assert_bad_input(s, &body, "uid");
}

#[tokio::test(flavor = "multi_thread")]
async fn each_service_refuses_a_nul_byte_itself() {
    use quire_proto::auth::v1 as pb;
    let app = TestApp::spawn().await;
    let (_, token, _) = app.reader().await;
    let mut auth = pb::auth_service_client::AuthServiceClient::connect(app.auth_grpc.clone())
        .await
        .unwrap();
    let mut req = tonic::Request::new(pb::UpdateMeRequest {
        bio: Some("a\0b".into()),
        ..Default::default()
    });
    req.metadata_mut()
        .insert("authorization", format!("Bearer {token}").parse().unwrap());
    let status = auth.update_me(req).await.unwrap_err();
    assert_eq!(status.code(), tonic::Code::InvalidArgument);
    assert!(status.message().starts_with("bio: "), "{status:?}");
}

/// Sends `head` and `body` on a raw connection and reads the answer's status line.
async fn raw_exchange(app: &TestApp, head: String, body: &[u8]) -> String {
    let port = app.base.rsplit(':').next().unwrap();
    let mut conn = tokio::net::TcpStream::connect(format!("127.0.0.1:{port}"))
        .await
        .unwrap();
    conn.write_all(head.as_bytes()).await.unwrap();
    conn.write_all(body).await.unwrap();
    // The connection stays open: only the gateway can end the exchange. A hang fails here.
    let mut answer = vec![0u8; 4096];
    let n = tokio::time::timeout(Duration::from_secs(60), conn.read(&mut answer))
        .await
        .expect("the gateway answered")
        .unwrap();
    String::from_utf8_lossy(&answer[..n]).into_owned()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_multipart_body_that_never_closes_is_answered_and_changes_nothing() {
    let app = TestApp::spawn_with(Limits {
        body_timeout_secs: 2,
        ..Limits::default()
    })
    .await;
    let writer = app.writer().await;
    let book = app
        .create_book(
            &writer,
            NewBook {
                title: "Unclosed".into(),
                ..NewBook::default()
            },
        )
        .await;
    let boundary = "quire-unclosed";
    let body = format!(
        "--{boundary}\r\nContent-Disposition: form-data; name=\"book_id\"\r\n\r\n{}\r\n\
         --{boundary}\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nHijacked",
        book.book_id
    );
    let head = |length: usize| {
        format!(
            "POST /api/update_book/ HTTP/1.1\r\nHost: test\r\nAuthorization: Bearer {}\r\n\
             X-Forwarded-For: {}\r\nContent-Type: multipart/form-data; boundary={boundary}\r\n\
             Content-Length: {length}\r\n\r\n",
            writer.token, app.client_ip
        )
    };
    // The whole body arrives, without its closing boundary.
    let answer = raw_exchange(&app, head(body.len()), body.as_bytes()).await;
    assert!(answer.starts_with("HTTP/1.1 400"), "{answer}");
    // Part of a body arrives and the rest never does.
    let answer = raw_exchange(&app, head(body.len() + 500), body.as_bytes()).await;
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    let (_, books) = app
        .get(&format!("/api/get_books?book_id={}", book.book_id), None)
        .await;
    assert_eq!(books["data"][0]["title"], "Unclosed", "{books}");
}

#[tokio::test(flavor = "multi_thread")]
async fn anonymous_callers_have_a_limit_per_address() {
    let app = TestApp::spawn_with(Limits {
        anonymous_per_min: 12,
        ..Limits::default()
    })
    .await;
    // Signed-in calls count per user, not against the address (registering and signing
    // in were anonymous calls, counted already).
    let (_, token, _) = app.reader().await;
    let mut refused = None;
    for i in 0..13 {
        let r = app
            .http
            .post(app.url("/api/search"))
            .json(&json!({"query": "sea"}))
            .send()
            .await
            .unwrap();
        if r.status().as_u16() == 429 {
            assert!(r.headers().contains_key("retry-after"));
            refused = Some(i);
            break;
        }
        assert_eq!(r.status().as_u16(), 200);
    }
    assert!(
        refused.is_some(),
        "13 anonymous searches against a limit of 12"
    );
    let (s, body) = app
        .post("/api/search", json!({"query": "sea"}), Some(&token))
        .await;
    assert_eq!(s, 200, "{body}");
    // A header that is not a bearer token does not make a caller signed in.
    let r = app
        .http
        .post(app.url("/api/search"))
        .header("authorization", "Basic Zm9vOmJhcg==")
        .json(&json!({"query": "sea"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 429);
    // Nor does a bearer token that does not verify, on a route that reads no caller: the
    // API document was served 700 times of 700 to any `Bearer x`.
    for path in ["/api/openapi.json", "/api/chat/moods"] {
        let r = app
            .http
            .get(app.url(path))
            .header("authorization", "Bearer not-a-token-at-all")
            .send()
            .await
            .unwrap();
        assert_eq!(r.status().as_u16(), 429, "{path}");
    }
    // Another address is not affected.
    let r = app
        .http
        .post(app.url("/api/search"))
        .header("x-forwarded-for", address(rand::random::<u16>().into()))
        .json(&json!({"query": "sea"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 200);
}

#[tokio::test(flavor = "multi_thread")]
async fn every_answer_forbids_framing_sniffing_and_inline_script() {
    let app = TestApp::spawn().await;
    for path in [
        "/platform/",
        "/platform/wallet",
        "/api/roles/",
        "/api/nowhere",
    ] {
        let r = app.http.get(app.url(path)).send().await.unwrap();
        let h = r.headers();
        let csp = h["content-security-policy"].to_str().unwrap();
        assert!(csp.contains("frame-ancestors 'none'"), "{path}: {csp}");
        assert!(csp.contains("object-src 'none'"), "{path}: {csp}");
        let scripts = csp
            .split(';')
            .find(|d| d.trim().starts_with("script-src"))
            .unwrap();
        assert!(!scripts.contains("unsafe-inline"), "{path}: {csp}");
        assert!(!scripts.contains("'unsafe-eval'"), "{path}: {csp}");
        assert_eq!(h["x-content-type-options"], "nosniff", "{path}");
        assert_eq!(h["x-frame-options"], "DENY", "{path}");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_page_past_any_list_is_refused_not_a_503() {
    let app = TestApp::spawn().await;
    let admin = app.admin_token().await;
    let (s, body) = app.get("/api/users/?page=2147483648", Some(&admin)).await;
    assert_bad_input(s, &body, "page");
    let (s, body) = app.get("/api/users/?page=1000000", Some(&admin)).await;
    assert_eq!(s, 200, "{body}");
    assert_eq!(
        body["data"]["result"].as_array().map(Vec::len),
        Some(0),
        "{body}"
    );
}
