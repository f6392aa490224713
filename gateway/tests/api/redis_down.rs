//! With Redis down the gateway keeps serving: signed-in reads and the shop answer (the
//! revocation check skipped, the rate limits counted in the gateway itself), signed-in
//! writes wait with a 503 that says when to try again, and `/readyz` stays ready and says
//! what is down.

use serde_json::{Value, json};

use crate::catalog_support::{NewBook, ids};
use crate::redis_support::OwnRedis;
use crate::support::{Limits, TestApp, assert_failure, closed_port};

impl TestApp {
    /// `/readyz`: its status and body.
    async fn readiness(&self) -> (u16, Value) {
        let r = self
            .http
            .get(format!("{}/readyz", self.admin_base))
            .send()
            .await
            .unwrap();
        (r.status().as_u16(), r.json().await.unwrap())
    }

    async fn set_bio(&self, token: &str, bio: &str) -> reqwest::Response {
        self.http
            .post(self.url("/api/users/me/"))
            .bearer_auth(token)
            .json(&json!({"bio": bio}))
            .send()
            .await
            .unwrap()
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn with_redis_stopped_signed_in_reads_and_the_shop_answer_and_writes_wait_for_it() {
    let mut redis = OwnRedis::start().await;
    // One Redis for the whole stack, as in production: stopping it stops it for auth too.
    let app =
        TestApp::spawn_on_redis(Limits::default(), Some(redis.url()), Some(redis.url())).await;
    let writer = app.writer().await;
    let book = app.create_book(&writer, NewBook::default()).await;
    let (_, token, _) = app.reader().await;
    assert_eq!(app.set_bio(&token, "Reads at night").await.status(), 200);
    app.eventually("the shop lists the book", || async {
        let (s, body) = app.shop(&[], None).await;
        (s == 200 && ids(&body["data"]).contains(&book.book_id)).then_some(())
    })
    .await;

    redis.stop();

    let (s, me) = app.get("/api/users/me/", Some(&token)).await;
    assert_eq!(s, 200, "{me}");
    assert_eq!(me["data"]["bio"], "Reads at night", "{me}");
    let (s, shop) = app.shop(&[], None).await;
    assert_eq!(s, 200, "{shop}");
    assert!(ids(&shop["data"]).contains(&book.book_id), "{shop}");
    // The shop is read by POST: signed in, it still only reads.
    let (s, shop) = app.shop(&[], Some(&token)).await;
    assert_eq!(s, 200, "{shop}");

    // A write could be a revoked token spending: it waits until revocation can be checked.
    let refused = app.set_bio(&token, "Reads by day").await;
    assert_eq!(refused.headers()["retry-after"], "5");
    let status = refused.status().as_u16();
    let body: Value = refused.json().await.unwrap();
    assert_failure(status, &body, 503, None);
    assert_eq!(body["error"], "cache_unavailable", "{body}");
    assert!(
        body["message"]
            .as_str()
            .unwrap()
            .contains("try again shortly"),
        "{body}"
    );
    let (_, me) = app.get("/api/users/me/", Some(&token)).await;
    assert_eq!(
        me["data"]["bio"], "Reads at night",
        "the refused write changed nothing"
    );
    // A purchase is asked for by GET (the spec's route), and it spends: it waits too.
    let (s, body) = app
        .get(
            &format!("/api/trade?book_id={}", book.book_id),
            Some(&token),
        )
        .await;
    assert_eq!(s, 503, "{body}");
    assert_eq!(body["error"], "cache_unavailable", "{body}");

    let (s, ready) = app.readiness().await;
    assert_eq!(s, 200, "{ready}");
    assert_eq!(ready["parts"]["redis"], "down", "{ready}");
    assert_eq!(ready["parts"]["auth"], "up", "{ready}");
    assert_eq!(ready["degraded"], json!(["redis"]), "{ready}");

    redis.start_again().await;
    app.eventually("a write goes through again", || async {
        (app.set_bio(&token, "Reads by day").await.status() == 200).then_some(())
    })
    .await;
    let (_, me) = app.get("/api/users/me/", Some(&token)).await;
    assert_eq!(me["data"]["bio"], "Reads by day", "{me}");
    let (_, ready) = app.readiness().await;
    assert_eq!(ready["parts"]["redis"], "up", "{ready}");
    assert_eq!(ready["degraded"], json!([]), "{ready}");
}

#[tokio::test(flavor = "multi_thread")]
async fn with_redis_down_from_the_start_the_gateway_serves_and_counts_the_limits_itself() {
    let limits = Limits {
        anonymous_per_min: 5,
        api_per_min: 5,
        ..Limits::default()
    };
    let nowhere = format!("redis://127.0.0.1:{}", closed_port());
    let app = TestApp::spawn_on_redis(limits, None, Some(nowhere)).await;
    // Signing up and in are anonymous calls: counted in the gateway, they go through.
    let (_, token, _) = app.reader().await;

    for _ in 0..5 {
        let (s, body) = app.get("/api/users/me/", Some(&token)).await;
        assert_eq!(s, 200, "{body}");
    }
    let r = app
        .http
        .get(app.url("/api/users/me/"))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 429);
    assert!(r.headers().contains_key("retry-after"));

    // Another address, never seen: its own anonymous window.
    let shop = || {
        app.http
            .post(app.url("/api/get_all_books/"))
            .header("x-forwarded-for", "198.51.100.7")
            .form(&[("page", "1")])
    };
    for _ in 0..5 {
        let (s, body) = app.send(shop()).await;
        assert_eq!(s, 200, "{body}");
    }
    let (s, body) = app.send(shop()).await;
    assert_failure(s, &body, 429, None);

    let (s, ready) = app.readiness().await;
    assert_eq!(s, 200, "{ready}");
    assert_eq!(ready["parts"]["redis"], "down", "{ready}");
}
