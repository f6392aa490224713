//! The audit log merges every service's entries newest first, and pages through them
//! with `before` and `limit` without losing or repeating one.

use serde_json::{Value, json};

use crate::support::TestApp;

#[tokio::test(flavor = "multi_thread")]
async fn entries_of_every_service_come_newest_first_page_after_page() {
    let app = TestApp::spawn().await;
    let admin = app.admin().await;
    let reader = app.reader_user().await;
    // One action in each service that owns a setting, and one on an account, in order.
    for change in [
        json!({"trial_percent": 20}),
        json!({"seller_share_percent": 80}),
        json!({"assistant_name": "Wren"}),
        json!({"registration_open": false}),
    ] {
        app.change_settings(&admin, change).await;
    }
    let (s, body) = app
        .post(
            &format!("/api/admin/users/{}/disable", reader.id),
            json!({}),
            Some(&admin.token),
        )
        .await;
    assert_eq!(s, 200, "{body}");

    let all = app.audit(&admin).await;
    assert!(all["next_before"].is_null(), "one page holds them: {all}");
    let entries = all["entries"].as_array().unwrap();
    let seen: Vec<(&str, &str)> = entries
        .iter()
        .map(|e| {
            (
                e["service"].as_str().unwrap(),
                e["target"].as_str().unwrap(),
            )
        })
        .collect();
    let reader_target = format!("user:{}", reader.id);
    assert_eq!(
        seen,
        [
            ("auth", reader_target.as_str()),
            ("auth", "setting:registration_open"),
            ("chat", "setting:assistant_name"),
            ("wallet", "setting:seller_share_percent"),
            ("catalog", "setting:trial_percent"),
        ],
        "{all}"
    );
    for e in entries {
        assert_eq!(e["actor_id"], admin.id.as_str(), "{e}");
    }

    // Two at a time: the same entries, in the same order, then no more.
    let mut paged: Vec<Value> = vec![];
    let mut before: Option<String> = None;
    for _ in 0..3 {
        let path = match &before {
            Some(b) => format!("/api/admin/audit?limit=2&before={}", b.replace('+', "%2B")),
            None => "/api/admin/audit?limit=2".into(),
        };
        let (s, body) = app.get(&path, Some(&admin.token)).await;
        assert_eq!(s, 200, "{body}");
        let page = &body["data"];
        paged.extend(page["entries"].as_array().unwrap().iter().cloned());
        before = page["next_before"].as_str().map(str::to_owned);
        if before.is_none() {
            break;
        }
    }
    assert_eq!(&paged, entries, "pages: {paged:?}");
    assert!(before.is_none(), "the last page says there is no more");
}
