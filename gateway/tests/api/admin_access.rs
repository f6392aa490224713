//! The admin area is an admin's alone: every one of its routes refuses a reader, a writer
//! and a publisher (403) and an anonymous caller (401), changing nothing; and bad input is
//! a 400 naming the field, changing nothing either.

use serde_json::json;

use crate::admin_support::admin_routes;
use crate::support::{TestApp, assert_bad_input, assert_failure};

#[tokio::test(flavor = "multi_thread")]
async fn every_admin_route_refuses_every_other_role_and_anonymous_callers() {
    let app = TestApp::spawn().await;
    let admin = app.admin().await;
    let reader = app.reader_user().await;
    let writer = app.writer().await;
    let publisher = app.publisher().await;
    for (method, path, body) in admin_routes(&reader.id) {
        for (who, token) in [
            ("reader", &reader.token),
            ("writer", &writer.token),
            ("publisher", &publisher.token),
        ] {
            let (s, answer) = app.call(method, &path, body.clone(), Some(token)).await;
            assert_eq!(s, 403, "{who} {method} {path}: {answer}");
            assert_failure(s, &answer, 403, None);
        }
        let (s, answer) = app.call(method, &path, body.clone(), None).await;
        assert_eq!(s, 401, "anonymous {method} {path}: {answer}");
        assert_failure(s, &answer, 401, None);
    }
    // Nothing was changed by any of them.
    let settings = app.admin_settings(&admin).await;
    assert_eq!(settings["trial_percent"], 10, "{settings}");
    let (_, me) = app.get("/api/users/me/", Some(&reader.token)).await;
    assert_eq!(me["data"]["disabled"], false, "{me}");
    assert_eq!(me["data"]["roles"], json!(["reader"]), "{me}");
}

#[tokio::test(flavor = "multi_thread")]
async fn bad_input_to_admin_routes_is_a_400_naming_the_field() {
    let app = TestApp::spawn().await;
    let admin = app.admin().await;
    let reader = app.reader_user().await;
    for query in ["days=0", "days=367", "days=x", "days=-1"] {
        let (s, body) = app
            .get(&format!("/api/admin/dashboard?{query}"), Some(&admin.token))
            .await;
        assert_bad_input(s, &body, "days");
    }
    for (query, field) in [
        ("limit=0", "limit"),
        ("limit=201", "limit"),
        ("limit=ten", "limit"),
        ("before=yesterday", "before"),
        ("before=2026-13-01T00:00:00Z", "before"),
    ] {
        let (s, body) = app
            .get(&format!("/api/admin/audit?{query}"), Some(&admin.token))
            .await;
        assert_bad_input(s, &body, field);
    }
    for (change, field) in [
        (json!({"trial_percent": 0}), "trial_percent"),
        (json!({"trial_percent": 101}), "trial_percent"),
        (json!({"trial_percent": "x"}), "trial_percent"),
        (json!({"seller_share_percent": 101}), "seller_share_percent"),
        (json!({"seller_share_percent": -1}), "seller_share_percent"),
        (json!({"assistant_name": ""}), "assistant_name"),
        (json!({"assistant_name": "9 lives"}), "assistant_name"),
        (json!({"assistant_name": "Q<script>"}), "assistant_name"),
        (json!({"assistant_name": "Q".repeat(41)}), "assistant_name"),
        (json!({"registration_open": "yes"}), "registration_open"),
        (json!({"rate_limits": {"api": 0}}), "rate_limits.api"),
        (
            json!({"rate_limits": {"login": 100_001}}),
            "rate_limits.login",
        ),
        (json!({"rate_limits": {"chat": "many"}}), "rate_limits.chat"),
        (json!({"rate_limits": {"apis": 5}}), "apis"),
        (json!({"trail_percent": 5}), "trail_percent"),
        (json!({}), "trial_percent"),
        // A good field beside a bad one changes nothing either.
        (
            json!({"trial_percent": 40, "assistant_name": "Wren", "rate_limits": {"upload": 0}}),
            "rate_limits.upload",
        ),
    ] {
        let (s, body) = app
            .put("/api/admin/settings", change.clone(), Some(&admin.token))
            .await;
        assert_bad_input(s, &body, field);
    }
    let settings = app.admin_settings(&admin).await;
    assert_eq!(settings["trial_percent"], 10, "{settings}");
    assert_ne!(settings["assistant_name"], "Wren", "{settings}");
    assert_eq!(
        settings["rate_limits"], settings["rate_limit_defaults"],
        "{settings}"
    );

    for path in [
        "/api/admin/users/not-an-id/disable",
        "/api/admin/users/not-an-id/enable",
    ] {
        let (s, body) = app.post(path, json!({}), Some(&admin.token)).await;
        assert_bad_input(s, &body, "user_id");
    }
    let roles = format!("/api/admin/users/{}/roles", reader.id);
    for (change, field) in [
        (json!({"roles": ["reader", "king"]}), "roles"),
        (json!({"roles": "writer"}), "roles"),
        (json!({}), "roles"),
    ] {
        let (s, body) = app.put(&roles, change.clone(), Some(&admin.token)).await;
        assert_bad_input(s, &body, field);
    }
    let (s, body) = app
        .put(
            "/api/admin/users/not-an-id/roles",
            json!({"roles": ["reader"]}),
            Some(&admin.token),
        )
        .await;
    assert_bad_input(s, &body, "user_id");
    let (_, me) = app.get("/api/users/me/", Some(&reader.token)).await;
    assert_eq!(me["data"]["roles"], json!(["reader"]), "{me}");
    // Unknown accounts are a 404.
    let (s, body) = app
        .post(
            &format!("/api/admin/users/{}/disable", uuid::Uuid::new_v4()),
            json!({}),
            Some(&admin.token),
        )
        .await;
    assert_failure(s, &body, 404, None);
}
