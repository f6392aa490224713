//! Each platform setting changed by the admin takes effect on the very next request,
//! without a restart, and is audited with its value before and after: the trial size a
//! reader gets, the writer's share of the next sale, the name the assistant gives in its
//! next reply, and registration closed and opened again.

use quire_fixtures::build::BookFormat;
use serde_json::{Value, json};

use crate::catalog_support::NewBook;
use crate::chat_support::new_conversation;
use crate::support::{TestApp, assert_failure, unique_email};
use crate::wallet_support::{Sale, cents};

/// Asserts the newest audit entry of a setting: by `admin`, from `before` to `after`.
async fn assert_audited(
    app: &TestApp,
    admin: &crate::catalog_support::User,
    setting: &str,
    before: Value,
    after: Value,
) {
    let entry = app
        .audited(admin, "settings.update", &format!("setting:{setting}"))
        .await;
    assert_eq!(entry["before"], before, "{setting} before: {entry}");
    assert_eq!(entry["after"], after, "{setting} after: {entry}");
}

#[tokio::test(flavor = "multi_thread")]
async fn every_setting_is_read_together_and_the_public_ones_by_anyone() {
    let app = TestApp::spawn().await;
    let admin = app.admin().await;
    let all = app.admin_settings(&admin).await;
    assert_eq!(all["trial_percent"], 10, "{all}");
    assert_eq!(all["seller_share_percent"], 90, "{all}");
    assert_eq!(all["assistant_name"], "Quinn", "{all}");
    assert_eq!(all["registration_open"], true, "{all}");
    // The test stack's gateway defaults (support.rs), in force while nothing overrides.
    let defaults = json!({"login": 1000, "verify": 1000, "api": 10000, "upload": 1000,
        "chat": 1000, "anonymous": 10000});
    assert_eq!(all["rate_limit_defaults"], defaults, "{all}");
    assert_eq!(all["rate_limits"], defaults, "{all}");

    let (s, body) = app.get("/api/settings", None).await;
    assert_eq!(s, 200, "{body}");
    assert_eq!(
        body["data"],
        json!({"trial_percent": 10, "registration_open": true, "assistant_name": "Quinn"})
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn the_trial_size_and_the_writers_share_change_the_next_read_and_the_next_sale() {
    let app = TestApp::spawn().await;
    let admin = app.admin().await;
    let Sale {
        writer,
        buyer,
        book,
    } = app.sale(500, 12.0).await;
    app.open_wallet(&writer).await;
    let txt = app
        .create_book(
            &writer,
            NewBook {
                format: BookFormat::Txt,
                price_cents: 500,
                ..NewBook::default()
            },
        )
        .await;

    // The trial: a tenth, then half, of the book, for the same reader.
    let content = format!("/api/books/{}/content", txt.book_id);
    let small = app.raw(&content, Some(&buyer.token)).await;
    assert_eq!(small.header("x-quire-access"), Some("trial"));
    let changed = app
        .change_settings(&admin, json!({"trial_percent": 50}))
        .await;
    assert_eq!(changed["trial_percent"], 50, "{changed}");
    let larger = app.raw(&content, Some(&buyer.token)).await;
    assert_eq!(larger.header("x-quire-access"), Some("trial"));
    assert!(
        larger.body.len() > small.body.len() * 3,
        "{} then {}",
        small.body.len(),
        larger.body.len()
    );
    let (_, public) = app.get("/api/settings", None).await;
    assert_eq!(public["data"]["trial_percent"], 50, "{public}");
    assert_audited(&app, &admin, "trial_percent", json!(10), json!(50)).await;

    // The writer's share: 90% of the first sale, 70% of the next.
    let first = app.buy(&buyer, &buyer.id, &book.book_id).await;
    assert_eq!(first.status, 200, "{}", first.body);
    assert_eq!(cents(&first.body["data"]["seller_amount"]), 450);
    let changed = app
        .change_settings(&admin, json!({"seller_share_percent": 70}))
        .await;
    assert_eq!(changed["seller_share_percent"], 70, "{changed}");
    assert_eq!(changed["trial_percent"], 50, "the rest is kept: {changed}");
    let next = app.buy(&buyer, &buyer.id, &txt.book_id).await;
    assert_eq!(next.status, 200, "{}", next.body);
    assert_eq!(
        cents(&next.body["data"]["seller_amount"]),
        350,
        "{}",
        next.body
    );
    assert_eq!(
        cents(&next.body["data"]["platform_amount"]),
        150,
        "{}",
        next.body
    );
    assert_eq!(cents(&app.wallet_of(&writer).await["earned"]), 800);
    assert_audited(&app, &admin, "seller_share_percent", json!(90), json!(70)).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn the_assistant_answers_its_next_turn_with_its_new_name() {
    let app = TestApp::spawn().await;
    let admin = app.admin().await;
    let reader = app.reader_user().await;
    let conversation = new_conversation();
    let hello = app.turn(&reader, &conversation, "Hello!").await;
    assert!(
        hello["reply_user"].as_str().unwrap().contains("Quinn"),
        "{hello}"
    );

    let changed = app
        .change_settings(&admin, json!({"assistant_name": "  Wren O'Dell "}))
        .await;
    assert_eq!(changed["assistant_name"], "Wren O'Dell", "{changed}");
    let hello = app.turn(&reader, &new_conversation(), "Hello!").await;
    let reply = hello["reply_user"].as_str().unwrap();
    assert!(reply.contains("Wren O'Dell"), "{reply}");
    assert!(!reply.contains("Quinn"), "{reply}");
    let (_, panel) = app.get("/api/chat/moods", None).await;
    assert_eq!(panel["data"]["assistant_name"], "Wren O'Dell", "{panel}");
    let (_, public) = app.get("/api/settings", None).await;
    assert_eq!(public["data"]["assistant_name"], "Wren O'Dell", "{public}");
    assert_audited(
        &app,
        &admin,
        "assistant_name",
        json!("Quinn"),
        json!("Wren O'Dell"),
    )
    .await;
}

#[tokio::test(flavor = "multi_thread")]
async fn closed_registration_refuses_new_accounts_until_it_is_opened_again() {
    let app = TestApp::spawn().await;
    let admin = app.admin().await;
    let email = unique_email();
    let code = app.mailed_code(&email).await;
    let register = json!({"email": email, "password": "long-enough", "verify_code": code});

    let changed = app
        .change_settings(&admin, json!({"registration_open": false}))
        .await;
    assert_eq!(changed["registration_open"], false, "{changed}");
    let (_, public) = app.get("/api/settings", None).await;
    assert_eq!(public["data"]["registration_open"], false, "{public}");
    let (s, body) = app.post("/api/register/", register.clone(), None).await;
    // Auth's FAILED_PRECONDITION (wrong_state) arrives as a 409 with its reason.
    assert_failure(s, &body, 409, Some("Registration is closed"));
    assert_eq!(body["error"], "registration_closed", "{body}");
    // Existing accounts still sign in.
    let (s, body) = app.get("/api/users/me/", Some(&admin.token)).await;
    assert_eq!(s, 200, "{body}");
    assert_audited(&app, &admin, "registration_open", json!(true), json!(false)).await;

    app.change_settings(&admin, json!({"registration_open": true}))
        .await;
    let (s, body) = app.post("/api/register/", register, None).await;
    assert_eq!(s, 200, "{body}");
    assert_eq!(body["data"]["email"], email.as_str());
    assert_audited(&app, &admin, "registration_open", json!(false), json!(true)).await;
}
