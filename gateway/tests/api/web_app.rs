use crate::support::TestApp;

#[tokio::test(flavor = "multi_thread")]
async fn the_root_redirects_to_the_app_and_deep_links_get_index_html() {
    let app = TestApp::spawn().await;
    let r = app.http.get(app.url("/")).send().await.unwrap();
    assert_eq!(r.status().as_u16(), 302);
    assert_eq!(r.headers()["location"], "/platform/");
    for path in [
        "/platform/",
        "/platform/login/email",
        "/platform/h5/writer/profile",
    ] {
        let r = app.http.get(app.url(path)).send().await.unwrap();
        assert_eq!(r.status().as_u16(), 200, "{path}");
        assert!(r.text().await.unwrap().contains("<div id=root>"), "{path}");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_search_or_genre_page_keeps_its_query_through_the_redirect() {
    let app = TestApp::spawn().await;
    for (path, location) in [
        ("/platform?q=whale", "/platform/?q=whale"),
        (
            "/platform?genre=Science%20Fiction&page=2",
            "/platform/?genre=Science%20Fiction&page=2",
        ),
        ("/?q=moby%20dick", "/platform/?q=moby%20dick"),
        ("/platform", "/platform/"),
    ] {
        let r = app.http.get(app.url(path)).send().await.unwrap();
        assert_eq!(r.status().as_u16(), 302, "{path}");
        assert_eq!(r.headers()["location"], location, "{path}");
    }
    // Where the redirect leads, and deep links with their queries, get the app; so does a
    // folder of the build that has no index of its own.
    std::fs::create_dir_all(std::path::Path::new(&app.gateway_config.frontend_dir).join("assets"))
        .unwrap();
    for path in [
        "/platform/?q=whale",
        "/platform/?genre=Fantasy",
        "/platform/book/3f1c2a54-0000-4000-8000-000000000000?file=0",
        "/platform/h5/reader/profile?tab=wallet",
        "/platform/assets/",
    ] {
        let r = app.http.get(app.url(path)).send().await.unwrap();
        assert_eq!(r.status().as_u16(), 200, "{path}");
        assert!(r.text().await.unwrap().contains("<div id=root>"), "{path}");
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn operators_get_health_readiness_metrics_and_the_openapi_document() {
    let app = TestApp::spawn().await;
    let admin = |path: &str| format!("{}{path}", app.admin_base);
    let status = |url: String| {
        let http = app.http.clone();
        async move { http.get(url).send().await.unwrap().status().as_u16() }
    };
    assert_eq!(status(admin("/healthz")).await, 200);
    let ready = app.http.get(admin("/readyz")).send().await.unwrap();
    assert_eq!(ready.status().as_u16(), 200);
    let ready: serde_json::Value = ready.json().await.unwrap();
    for part in ["redis", "auth", "wallet", "catalog", "manuscript", "chat"] {
        assert_eq!(ready["parts"][part], "up", "{ready}");
    }
    assert_eq!(ready["degraded"], serde_json::json!([]), "{ready}");
    app.get("/api/roles/", None).await;
    let metrics = app
        .http
        .get(admin("/metrics"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        metrics.contains("quire_gateway_request_seconds"),
        "{metrics}"
    );
    // The public port serves none of them: what runs behind the gateway is not public.
    for path in ["/metrics", "/readyz"] {
        let r = app.http.get(app.url(path)).send().await.unwrap();
        let body = r.text().await.unwrap();
        assert!(!body.contains("quire_gateway_request_seconds"), "{path}");
        assert!(!body.contains("\"redis\""), "{path}: {body}");
    }
    let (s, doc) = app.get("/api/openapi.json", None).await;
    assert_eq!(s, 200);
    assert!(doc["paths"]["/api/login/"]["post"].is_object());
    assert!(doc["paths"]["/api/users/me/switch-role/"]["post"].is_object());
    let docs = app.http.get(app.url("/api/docs")).send().await.unwrap();
    assert_eq!(docs.status().as_u16(), 200);
}

#[test]
fn the_frontend_types_come_from_the_current_openapi_document() {
    // The web app's request and reply types are generated from frontend/openapi.json;
    // `make openapi` refreshes it when the REST surface changes.
    let committed = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../frontend/openapi.json"
    ))
    .unwrap();
    let current = quire_gateway::openapi::document();
    assert_eq!(
        committed.trim(),
        current.trim(),
        "frontend/openapi.json is stale: run `make openapi`"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn with_auth_down_its_routes_say_503_and_the_gateway_stays_ready() {
    // Nothing listens on this port: the auth service is down.
    let closed = crate::support::closed_port();
    let gateway = quire_gateway::Application::build(quire_gateway::GatewayConfig {
        http_host: "127.0.0.1".into(),
        http_port: 0,
        auth_url: format!("http://127.0.0.1:{closed}"),
        catalog_url: format!("http://127.0.0.1:{closed}"),
        wallet_url: format!("http://127.0.0.1:{closed}"),
        redis_url: std::env::var("QUIRE_REDIS_URL")
            .unwrap_or_else(|_| "redis://127.0.0.1:6379".into()),
        frontend_dir: "/nonexistent".into(),
        admin_addr: "127.0.0.1:0".into(),
        http_workers: 1,
        ..Default::default()
    })
    .await
    .expect("the gateway starts without auth");
    let base = format!("http://127.0.0.1:{}", gateway.port());
    let admin = format!("http://127.0.0.1:{}", gateway.admin_port());
    tokio::spawn(gateway.run_until_stopped());
    let http = reqwest::Client::new();

    // Still ready: what does not need auth (the web app, the API document) serves.
    let ready = http.get(format!("{admin}/readyz")).send().await.unwrap();
    assert_eq!(ready.status().as_u16(), 200);
    let body: serde_json::Value = ready.json().await.unwrap();
    assert_eq!(body["parts"]["auth"], "down", "{body}");
    assert_eq!(body["parts"]["catalog"], "down", "{body}");
    assert_eq!(body["parts"]["redis"], "up", "{body}");
    let degraded = body["degraded"].as_array().unwrap();
    assert!(degraded.iter().any(|p| p == "auth"), "{body}");
    assert!(!degraded.iter().any(|p| p == "redis"), "{body}");

    let r = http.get(format!("{base}/api/roles/")).send().await.unwrap();
    let status = r.status().as_u16();
    // Every 503 says when to ask again.
    assert_eq!(r.headers()["retry-after"], "5");
    let body: serde_json::Value = r.json().await.unwrap();
    crate::support::assert_failure(status, &body, 503, None);
    // The part that is down is named, for the web app to say which.
    assert_eq!(body["error"], "auth_unavailable", "{body}");

    // The web app is not built here: a clear 503, not an empty page.
    let page = http
        .get(format!("{base}/platform/login"))
        .send()
        .await
        .unwrap();
    assert_eq!(page.status().as_u16(), 503);
    assert!(page.text().await.unwrap().contains("make frontend"));
}
