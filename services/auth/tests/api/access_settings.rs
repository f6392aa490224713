//! The access settings: registration closed and opened again while auth runs, and the
//! gateway's rate limits set, checked and cleared, each change audited.

use quire_proto::auth::v1 as pb;
use serde_json::{Value, json};
use tonic::Code;

use crate::support::{TestApp, Wallet, assert_refused, req, suffix};

async fn update(
    app: &TestApp,
    change: pb::UpdateAccessSettingsRequest,
) -> Result<pb::AccessSettings, tonic::Status> {
    app.client()
        .update_access_settings(req(change, Some(&app.admin)))
        .await
        .map(tonic::Response::into_inner)
}

async fn current(app: &TestApp) -> pb::AccessSettings {
    app.client()
        .get_access_settings(pb::GetAccessSettingsRequest {})
        .await
        .unwrap()
        .into_inner()
}

/// The settings audit entries, oldest first, as (target, before, after).
async fn settings_entries(app: &TestApp) -> Vec<(String, Value, Value)> {
    let page = app.audit().await;
    assert!(page.chain_intact);
    let mut found: Vec<_> = page
        .entries
        .iter()
        .filter(|e| e.action == "settings.update")
        .map(|e| {
            assert_eq!(e.actor_id, app.admin.id.to_string());
            (
                e.target.clone(),
                serde_json::from_str(&e.before_json).unwrap(),
                serde_json::from_str(&e.after_json).unwrap(),
            )
        })
        .collect();
    found.reverse();
    found
}

fn registration(email: &str, code: &str) -> pb::RegisterRequest {
    pb::RegisterRequest {
        email: email.into(),
        password: "reader-pass-1".into(),
        username: String::new(),
        verify_code: code.into(),
        invite_code: String::new(),
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn closed_registration_refuses_new_accounts_but_not_admins_and_reopens() {
    let app = TestApp::spawn().await;
    let email = format!("new-{}@quire.test", suffix());
    let code = app.register_code(&email).await;

    let closed = update(
        &app,
        pb::UpdateAccessSettingsRequest {
            registration_open: Some(false),
            ..Default::default()
        },
    )
    .await
    .unwrap();
    assert!(!closed.registration_open);
    assert!(!current(&app).await.registration_open);

    // A registration code is not sent; registering with one sent before, and a wallet's
    // first sign-in (which makes an account), are refused.
    assert_refused(
        app.client()
            .send_verify_email(pb::SendVerifyEmailRequest {
                email: format!("later-{}@quire.test", suffix()),
            })
            .await,
        Code::FailedPrecondition,
        Some("Registration is closed"),
    );
    let status = assert_refused(
        app.client().register(registration(&email, &code)).await,
        Code::FailedPrecondition,
        Some("Registration is closed"),
    );
    assert_eq!(
        crate::support::code_of(&status),
        quire_kit::ErrorCode::WrongState
    );
    assert_refused(
        Wallet::new().sign_in(&mut app.client()).await,
        Code::FailedPrecondition,
        Some("Registration is closed"),
    );
    // An admin still makes accounts, and they sign in.
    let made = app.user(&["writer"]).await;
    assert!(!app.gateway_refuses(&made).await);

    // Open again: the same code registers the address.
    update(
        &app,
        pb::UpdateAccessSettingsRequest {
            registration_open: Some(true),
            ..Default::default()
        },
    )
    .await
    .unwrap();
    let user = app
        .client()
        .register(registration(&email, &code))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(user.email, email);
    assert!(Wallet::new().sign_in(&mut app.client()).await.is_ok());

    assert_eq!(
        settings_entries(&app).await,
        [
            (
                "setting:registration_open".to_owned(),
                json!(true),
                json!(false)
            ),
            (
                "setting:registration_open".to_owned(),
                json!(false),
                json!(true)
            ),
        ]
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn rates_are_checked_set_and_cleared_back_to_the_default() {
    let app = TestApp::spawn().await;
    let set = update(
        &app,
        pb::UpdateAccessSettingsRequest {
            rate_login_per_min: Some(20),
            rate_anonymous_per_min: Some(100_000),
            ..Default::default()
        },
    )
    .await
    .unwrap();
    let expected = pb::AccessSettings {
        registration_open: true,
        rate_login_per_min: Some(20),
        rate_anonymous_per_min: Some(100_000),
        ..Default::default()
    };
    assert_eq!(set, expected);
    assert_eq!(current(&app).await, expected);

    // One field out of range: refused naming it, and the valid fields beside it are not
    // applied either.
    for (field, change) in [
        (
            "rate_upload_per_min",
            pb::UpdateAccessSettingsRequest {
                registration_open: Some(false),
                rate_api_per_min: Some(50),
                rate_upload_per_min: Some(100_001),
                ..Default::default()
            },
        ),
        (
            "rate_verify_per_min",
            pb::UpdateAccessSettingsRequest {
                rate_verify_per_min: Some(u32::MAX),
                ..Default::default()
            },
        ),
    ] {
        let status = assert_refused(update(&app, change).await, Code::InvalidArgument, None);
        assert_eq!(
            quire_kit::ApiError::from_status(&status).reason,
            format!("invalid_{field}")
        );
        assert!(status.message().starts_with(field), "{}", status.message());
    }
    assert_eq!(current(&app).await, expected);

    // 0 clears a rate; a value set again to what it is changes nothing.
    let cleared = update(
        &app,
        pb::UpdateAccessSettingsRequest {
            rate_login_per_min: Some(0),
            rate_anonymous_per_min: Some(100_000),
            rate_chat_per_min: Some(0),
            ..Default::default()
        },
    )
    .await
    .unwrap();
    assert_eq!(
        cleared,
        pb::AccessSettings {
            registration_open: true,
            rate_anonymous_per_min: Some(100_000),
            ..Default::default()
        }
    );

    assert_eq!(
        settings_entries(&app).await,
        [
            (
                "setting:rate_login_per_min".to_owned(),
                json!(null),
                json!(20)
            ),
            (
                "setting:rate_anonymous_per_min".to_owned(),
                json!(null),
                json!(100_000)
            ),
            (
                "setting:rate_login_per_min".to_owned(),
                json!(20),
                json!(null)
            ),
        ]
    );
}
