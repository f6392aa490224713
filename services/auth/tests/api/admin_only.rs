//! Every admin call of the admin area refuses anyone else, and changes nothing.

use quire_proto::auth::v1 as pb;
use quire_proto::ops::v1 as ops;
use tonic::Code;

use crate::support::{TestApp, assert_refused, req};

#[tokio::test(flavor = "multi_thread")]
async fn only_an_admin_may_disable_set_roles_change_settings_or_read_figures() {
    let app = TestApp::spawn().await;
    // Every role but admin.
    let user = app.user(&["reader", "writer", "publisher"]).await;
    let other = app.user(&[]).await;
    let mut auth = app.client();

    for caller in [Some(&user), None] {
        let code = if caller.is_some() {
            Code::PermissionDenied
        } else {
            Code::Unauthenticated
        };
        let disable = pb::SetUserDisabledRequest {
            user_id: other.id.to_string(),
            disabled: true,
        };
        assert_refused(
            auth.set_user_disabled(req(disable, caller)).await,
            code,
            None,
        );
        let roles = pb::SetUserRolesRequest {
            user_id: other.id.to_string(),
            roles: vec!["admin".into()],
        };
        assert_refused(auth.set_user_roles(req(roles, caller)).await, code, None);
        let settings = pb::UpdateAccessSettingsRequest {
            registration_open: Some(false),
            rate_api_per_min: Some(5),
            ..Default::default()
        };
        assert_refused(
            auth.update_access_settings(req(settings, caller)).await,
            code,
            None,
        );
        let stats = ops::StatsRequest { days: 7 };
        assert_refused(auth.user_stats(req(stats, caller)).await, code, None);
    }

    // Nothing changed: the account is enabled and a reader alone, the settings are the
    // defaults, and no audit entry was written.
    let them = app.login(&other.email, crate::support::USER_PASSWORD).await;
    assert!(them.is_ok(), "{them:?}");
    let listed = auth
        .list_users(req(
            pb::ListUsersRequest {
                query: other.email.clone(),
                ..Default::default()
            },
            Some(&app.admin),
        ))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(listed.result.len(), 1);
    assert!(!listed.result[0].disabled);
    assert_eq!(listed.result[0].roles, ["reader"]);
    // Public: anyone may read the access settings.
    let settings = auth
        .get_access_settings(pb::GetAccessSettingsRequest {})
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        settings,
        pb::AccessSettings {
            registration_open: true,
            ..Default::default()
        }
    );
    assert!(app.audit().await.entries.is_empty());
}
