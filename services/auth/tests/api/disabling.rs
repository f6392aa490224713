//! An admin disabling and enabling accounts: a disabled account opens no session by any
//! way in, and every token it held stops at once.

use quire_proto::auth::v1 as pb;
use quire_proto::ops::v1 as ops;
use serde_json::{Value, json};
use tonic::Code;

use crate::support::{TestApp, USER_PASSWORD, Wallet, assert_refused, req};

const DISABLED: &str = "This account is disabled";

fn json_of(text: &str) -> Value {
    serde_json::from_str(text).unwrap()
}

/// The entries of `page` about `target`, oldest first, as (action, before, after).
fn entries_for(page: &ops::AuditPage, target: &str) -> Vec<(String, Value, Value)> {
    let mut found: Vec<_> = page
        .entries
        .iter()
        .filter(|e| e.target == target)
        .map(|e| {
            (
                e.action.clone(),
                json_of(&e.before_json),
                json_of(&e.after_json),
            )
        })
        .collect();
    found.reverse();
    found
}

#[tokio::test(flavor = "multi_thread")]
async fn a_disabled_account_cannot_sign_in_and_its_tokens_stop_until_it_is_enabled() {
    let app = TestApp::spawn().await;
    let user = app.user(&["writer"]).await;
    let second = app.login(&user.email, USER_PASSWORD).await.unwrap();
    assert!(!app.gateway_refuses(&user).await);

    let shown = app.set_disabled(&app.admin, user.id, true).await.unwrap();
    assert!(shown.disabled);
    assert_eq!(shown.user_id, user.id.to_string());

    // The right password, a refresh token, a role switch with a token issued before:
    // each refused, saying why.
    let status = assert_refused(
        app.login(&user.email, USER_PASSWORD).await,
        Code::PermissionDenied,
        Some(DISABLED),
    );
    assert_eq!(
        quire_kit::ApiError::from_status(&status).reason,
        "account_disabled"
    );
    for session in [&user, &second] {
        assert_refused(
            app.refresh(&session.refresh).await,
            Code::PermissionDenied,
            Some(DISABLED),
        );
        // What the gateway checks: every access token issued so far is behind the mark.
        assert!(app.gateway_refuses(session).await);
    }
    let switched = app
        .client()
        .switch_role(req(
            pb::SwitchRoleRequest {
                new_role: "writer".into(),
            },
            Some(&user),
        ))
        .await;
    assert_refused(switched, Code::PermissionDenied, Some(DISABLED));
    // A wrong password is still only a wrong password: the state is told to whoever
    // knows the password.
    assert_refused(
        app.login(&user.email, "not-the-password-1").await,
        Code::InvalidArgument,
        None,
    );

    // The admin's list shows it disabled.
    let listed = app
        .client()
        .list_users(req(
            pb::ListUsersRequest {
                query: user.email.clone(),
                ..Default::default()
            },
            Some(&app.admin),
        ))
        .await
        .unwrap()
        .into_inner();
    assert!(listed.result[0].disabled);

    // Enabled: the password works again and its new tokens pass the gateway; the old
    // refresh tokens stay revoked.
    let shown = app.set_disabled(&app.admin, user.id, false).await.unwrap();
    assert!(!shown.disabled);
    let back = app.login(&user.email, USER_PASSWORD).await.unwrap();
    assert!(!app.gateway_refuses(&back).await);
    assert!(app.refresh(&back.refresh).await.is_ok());
    assert_refused(
        app.refresh(&second.refresh).await,
        Code::Unauthenticated,
        None,
    );

    let page = app.audit().await;
    assert!(page.chain_intact);
    let target = format!("user:{}", user.id);
    assert_eq!(
        entries_for(&page, &target),
        [
            (
                "user.disable".to_owned(),
                json!({"disabled": false}),
                json!({"disabled": true})
            ),
            (
                "user.enable".to_owned(),
                json!({"disabled": true}),
                json!({"disabled": false})
            ),
        ]
    );
    let entry = page.entries.iter().find(|e| e.target == target).unwrap();
    assert_eq!(entry.actor_id, app.admin.id.to_string());
    assert_eq!(entry.service, "auth");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_disabled_wallet_cannot_sign_in_nor_a_disabled_account_reset_its_password() {
    let app = TestApp::spawn().await;
    let wallet = Wallet::new();
    let mut auth = app.client();
    let first = wallet.sign_in(&mut auth).await.unwrap();
    let id: uuid::Uuid = first.user.unwrap().user_id.parse().unwrap();
    app.set_disabled(&app.admin, id, true).await.unwrap();
    assert_refused(
        wallet.sign_in(&mut auth).await,
        Code::PermissionDenied,
        Some(DISABLED),
    );
    app.set_disabled(&app.admin, id, false).await.unwrap();
    let again = wallet.sign_in(&mut auth).await.unwrap();
    assert_eq!(again.user.unwrap().user_id, id.to_string());

    // A password reset with the mailed code is refused, and the old password still is
    // the password once the account is enabled.
    let user = app.user(&[]).await;
    app.set_disabled(&app.admin, user.id, true).await.unwrap();
    let code = {
        let mut conn = app.conn().await;
        quire_auth::verification::issue(
            &mut conn,
            quire_auth::verification::Purpose::PasswordReset,
            &user.email,
            0,
        )
        .await
        .unwrap()
    };
    let reset = auth
        .reset_password(pb::ResetPasswordRequest {
            email: user.email.clone(),
            verify_code: code,
            password: "brand-new-pass-2".into(),
        })
        .await;
    assert_refused(reset, Code::PermissionDenied, Some(DISABLED));
    app.set_disabled(&app.admin, user.id, false).await.unwrap();
    assert!(app.login(&user.email, USER_PASSWORD).await.is_ok());
}

#[tokio::test(flavor = "multi_thread")]
async fn an_admin_cannot_disable_themself_and_bad_requests_change_nothing() {
    let app = TestApp::spawn().await;
    let status = assert_refused(
        app.set_disabled(&app.admin, app.admin.id, true).await,
        Code::FailedPrecondition,
        Some("You cannot disable your own account"),
    );
    assert_eq!(
        crate::support::code_of(&status),
        quire_kit::ErrorCode::WrongState
    );
    // Enabling oneself is asking for the state one is in: nothing to do.
    let me = app
        .set_disabled(&app.admin, app.admin.id, false)
        .await
        .unwrap();
    assert!(!me.disabled);

    let mut auth = app.client();
    for (user_id, code) in [
        ("", Code::InvalidArgument),
        ("not-a-uuid", Code::InvalidArgument),
        ("018f0000-0000-7000-8000-000000000000", Code::NotFound),
    ] {
        let asked = pb::SetUserDisabledRequest {
            user_id: user_id.into(),
            disabled: true,
        };
        let status = assert_refused(
            auth.set_user_disabled(req(asked, Some(&app.admin))).await,
            code,
            None,
        );
        if code == Code::InvalidArgument {
            assert_eq!(
                quire_kit::ApiError::from_status(&status).reason,
                "invalid_user_id"
            );
        }
    }

    // Disabling twice: one change, one audit entry, and the second answer the same.
    let user = app.user(&[]).await;
    app.set_disabled(&app.admin, user.id, true).await.unwrap();
    let again = app.set_disabled(&app.admin, user.id, true).await.unwrap();
    assert!(again.disabled);
    let page = app.audit().await;
    assert_eq!(page.entries.len(), 1, "{:?}", page.entries);
    assert_eq!(page.entries[0].action, "user.disable");
    // Still the admin's own sessions work: nothing was done to them.
    assert!(!app.gateway_refuses(&app.admin).await);
}
