//! An admin setting the roles of an account: reader always kept, a removal ends the
//! account's sessions, and Quire always keeps an admin.

use quire_proto::auth::v1 as pb;
use serde_json::{Value, json};
use tonic::Code;

use crate::support::{TestApp, USER_PASSWORD, assert_refused, req};

fn roles_entries(page: &quire_proto::ops::v1::AuditPage, user: uuid::Uuid) -> Vec<(Value, Value)> {
    let target = format!("user:{user}");
    let mut found: Vec<_> = page
        .entries
        .iter()
        .filter(|e| e.target == target && e.action == "user.roles")
        .map(|e| {
            (
                serde_json::from_str(&e.before_json).unwrap(),
                serde_json::from_str(&e.after_json).unwrap(),
            )
        })
        .collect();
    found.reverse();
    found
}

#[tokio::test(flavor = "multi_thread")]
async fn adding_keeps_sessions_and_removing_ends_them_and_the_active_role_falls_back() {
    let app = TestApp::spawn().await;
    let user = app.user(&["writer"]).await;

    // Added: reader is kept though not asked for, and the sessions live on.
    let shown = app
        .set_roles(&app.admin, user.id, &["publisher", "writer"])
        .await
        .unwrap();
    assert_eq!(shown.roles, ["reader", "writer", "publisher"]);
    assert!(!app.gateway_refuses(&user).await);
    let refreshed = app.refresh(&user.refresh).await.unwrap();

    // Acting as publisher, then publisher taken away.
    let acting = app
        .client()
        .switch_role(req(
            pb::SwitchRoleRequest {
                new_role: "publisher".into(),
            },
            Some(&user),
        ))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(acting.user.unwrap().current_role, "publisher");
    let shown = app
        .set_roles(&app.admin, user.id, &["writer"])
        .await
        .unwrap();
    assert_eq!(shown.roles, ["reader", "writer"]);
    assert_eq!(shown.current_role, "reader");

    // No token still carries the role: access tokens behind the mark, refresh revoked
    // (the switch went on in the session, whose refresh token is the one refreshed above).
    assert!(acting.refresh_token.is_empty());
    assert!(app.gateway_refuses(&user).await);
    assert_refused(
        app.refresh(&refreshed.refresh_token).await,
        Code::Unauthenticated,
        None,
    );
    let back = app.login(&user.email, USER_PASSWORD).await.unwrap();
    assert!(!app.gateway_refuses(&back).await);
    let claims = crate::support::token_claims(&back.access);
    assert_eq!(claims.role, "reader");
    assert_eq!(claims.roles, ["reader", "writer"]);

    // The same roles again change nothing and are not audited.
    app.set_roles(&app.admin, user.id, &["reader", "writer"])
        .await
        .unwrap();
    let page = app.audit().await;
    assert!(page.chain_intact);
    assert_eq!(
        roles_entries(&page, user.id),
        [
            (
                // An admin made it a writer alone.
                json!({"roles": ["writer"]}),
                json!({"roles": ["reader", "writer", "publisher"]})
            ),
            (
                json!({"roles": ["reader", "writer", "publisher"]}),
                json!({"roles": ["reader", "writer"]})
            ),
        ]
    );
    assert_eq!(page.entries[0].actor_id, app.admin.id.to_string());
}

#[tokio::test(flavor = "multi_thread")]
async fn unknown_roles_are_refused_naming_the_field_and_an_empty_list_leaves_reader() {
    let app = TestApp::spawn().await;
    let user = app.user(&["writer"]).await;
    let status = assert_refused(
        app.set_roles(&app.admin, user.id, &["writer", "owner"])
            .await,
        Code::InvalidArgument,
        None,
    );
    assert_eq!(
        quire_kit::ApiError::from_status(&status).reason,
        "invalid_roles"
    );
    assert!(status.message().contains("owner"), "{}", status.message());
    assert!(app.audit().await.entries.is_empty());
    assert!(!app.gateway_refuses(&user).await);

    let shown = app.set_roles(&app.admin, user.id, &[]).await.unwrap();
    assert_eq!(shown.roles, ["reader"]);
}

#[tokio::test(flavor = "multi_thread")]
async fn no_admin_removes_their_own_admin_role_and_the_last_admin_keeps_it() {
    let app = TestApp::spawn().await;
    assert_refused(
        app.set_roles(&app.admin, app.admin.id, &["reader"]).await,
        Code::FailedPrecondition,
        Some("You cannot remove your own admin role"),
    );

    // A second admin, demoted by the first: allowed, one admin is left.
    let second = app.user(&["admin"]).await;
    let shown = app
        .set_roles(&app.admin, second.id, &["writer"])
        .await
        .unwrap();
    assert_eq!(shown.roles, ["reader", "writer"]);

    // Its token, issued while it was an admin, still verifies at auth; the rules are
    // checked against the accounts as they are, so it cannot take the last admin's role
    // nor disable the last admin.
    assert_refused(
        app.set_roles(&second, app.admin.id, &["reader"]).await,
        Code::FailedPrecondition,
        Some("The last admin must stay an admin who can sign in"),
    );
    assert_refused(
        app.set_disabled(&second, app.admin.id, true).await,
        Code::FailedPrecondition,
        Some("The last admin must stay an admin who can sign in"),
    );
    let me = app
        .client()
        .get_me(req(pb::GetMeRequest {}, Some(&app.admin)))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(me.roles, ["reader", "admin"]);
    assert!(!me.disabled);

    // With two admins again, one may demote the other.
    app.set_roles(&app.admin, second.id, &["admin"])
        .await
        .unwrap();
    let second = app.login(&second.email, USER_PASSWORD).await.unwrap();
    let shown = app
        .set_roles(&second, app.admin.id, &["writer"])
        .await
        .unwrap();
    assert_eq!(shown.roles, ["reader", "writer"]);
    assert!(app.gateway_refuses(&app.admin).await);
}
