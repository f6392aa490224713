//! Rate limits an admin changes apply without a restart: at once on the gateway that took
//! the change, and on every other gateway within its settings refresh (it asks auth);
//! a limit set back to null is the gateway's default again.

use serde_json::json;

use crate::catalog_support::User;
use crate::support::TestApp;

/// Calls `/api/users/me/` as `who` on `base` until an answer is `status`; how many calls
/// it took. Each call counts against the caller's limit, so a limit of `n` is reached
/// within `n + 1` calls.
async fn calls_until(app: &TestApp, base: &str, who: &User, status: u16, most: usize) -> usize {
    for n in 1..=most {
        let r = app
            .http
            .get(format!("{base}/api/users/me/"))
            .bearer_auth(&who.token);
        let (s, body) = app.send(r).await;
        if s == status {
            if s == 429 {
                assert_eq!(body["error"], "rate_limited", "{body}");
            }
            return n;
        }
        assert!(s == 200 || s == 429, "{s}: {body}");
    }
    panic!("no {status} within {most} calls");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_lowered_api_limit_refuses_the_next_calls_and_raising_it_lets_them_through() {
    let app = TestApp::spawn().await;
    let admin = app.admin().await;
    // A second admin, whose own calls this minute stay under the lowered limit.
    let other = app.other_admin().await;
    let reader = app.reader_user().await;
    calls_until(&app, &app.base, &reader, 200, 1).await;

    let changed = app
        .change_settings(&admin, json!({"rate_limits": {"api": 3}}))
        .await;
    assert_eq!(changed["rate_limits"]["api"], 3, "{changed}");
    assert_eq!(changed["rate_limit_defaults"]["api"], 10000, "{changed}");
    calls_until(&app, &app.base, &reader, 429, 4).await;

    let changed = app
        .change_settings(&other, json!({"rate_limits": {"api": 500}}))
        .await;
    assert_eq!(changed["rate_limits"]["api"], 500, "{changed}");
    calls_until(&app, &app.base, &reader, 200, 1).await;

    // null: the default again.
    let changed = app
        .change_settings(&other, json!({"rate_limits": {"api": null}}))
        .await;
    assert_eq!(changed["rate_limits"]["api"], 10000, "{changed}");
    let entry = app
        .audited(&other, "settings.update", "setting:rate_api_per_min")
        .await;
    assert_eq!(entry["before"], json!(500), "{entry}");
    assert_eq!(entry["after"], json!(null), "{entry}");
}

#[tokio::test(flavor = "multi_thread")]
async fn another_gateway_follows_a_change_within_its_refresh() {
    let app = TestApp::spawn().await;
    let admin = app.admin().await;
    let other = app.other_admin().await;
    let reader = app.reader_user().await;
    let gateway = quire_gateway::Application::build(app.gateway_config.clone())
        .await
        .unwrap();
    let second = format!("http://127.0.0.1:{}", gateway.port());
    tokio::spawn(gateway.run_until_stopped());
    calls_until(&app, &second, &reader, 200, 1).await;

    // The change goes through the first gateway; the second hears of it from auth.
    app.change_settings(&admin, json!({"rate_limits": {"api": 2}}))
        .await;
    app.eventually("the second gateway refuses past the new limit", || async {
        let r = app
            .http
            .get(format!("{second}/api/users/me/"))
            .bearer_auth(&reader.token);
        let (s, _) = app.send(r).await;
        (s == 429).then_some(())
    })
    .await;
    app.change_settings(&other, json!({"rate_limits": {"api": null}}))
        .await;
    app.eventually("the second gateway lets calls through again", || async {
        let r = app
            .http
            .get(format!("{second}/api/users/me/"))
            .bearer_auth(&reader.token);
        let (s, _) = app.send(r).await;
        (s == 200).then_some(())
    })
    .await;
}
