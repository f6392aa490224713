//! The admin's dashboard after known activity (accounts, a book, a sale, a top-up, a chat
//! turn), each part from its owner; and a service that is down leaves its part null and
//! named while the others still answer.

use serde_json::{Value, json};

use crate::chat_support::new_conversation;
use crate::support::{TestApp, closed_port};
use crate::wallet_support::{Sale, cents};

/// The series of the range: `days` points, oldest first, ending today (UTC).
fn series(part: &Value, name: &str, days: usize) -> Vec<Value> {
    let points = part[name]
        .as_array()
        .unwrap_or_else(|| panic!("{name}: {part}"))
        .clone();
    assert_eq!(points.len(), days, "{name}: {part}");
    let today = chrono::Utc::now().date_naive().to_string();
    assert_eq!(points[days - 1]["day"], today.as_str(), "{name}: {part}");
    let ordered: Vec<&str> = points.iter().map(|p| p["day"].as_str().unwrap()).collect();
    assert!(ordered.is_sorted(), "{name} oldest first: {part}");
    points
}

fn total(points: &[Value]) -> i64 {
    points.iter().map(|p| p["count"].as_i64().unwrap()).sum()
}

#[tokio::test(flavor = "multi_thread")]
async fn the_dashboard_counts_what_happened_part_by_part() {
    let app = TestApp::spawn().await;
    let admin = app.admin().await;
    // A registered reader who buys, a writer with a listed book.
    let Sale {
        writer,
        buyer,
        book,
    } = app.sale(500, 12.0).await;
    app.open_wallet(&writer).await;
    let bought = app.buy(&buyer, &buyer.id, &book.book_id).await;
    assert_eq!(bought.status, 200, "{}", bought.body);
    let (s, body) = app
        .post(
            &format!("/api/top_up?uid={}&amount=7.5", buyer.id),
            json!({}),
            Some(&admin.token),
        )
        .await;
    assert_eq!(s, 200, "{body}");
    app.turn(&buyer, &new_conversation(), "Hello!").await;

    let (s, body) = app
        .get("/api/admin/dashboard?days=7", Some(&admin.token))
        .await;
    assert_eq!(s, 200, "{body}");
    let d = &body["data"];
    assert_eq!(d["days"], 7, "{d}");
    assert_eq!(d["unavailable"], json!([]), "{d}");

    let users = &d["users"];
    assert_eq!(users["total"], 3, "admin, writer, reader: {users}");
    assert_eq!(users["disabled"], 0, "{users}");
    assert_eq!(users["by_role"]["admin"], 1, "{users}");
    assert_eq!(users["by_role"]["writer"], 1, "{users}");
    assert_eq!(users["by_role"]["publisher"], 0, "{users}");
    assert!(users["by_role"]["reader"].as_u64().unwrap() >= 2, "{users}");
    assert_eq!(total(&series(users, "signups", 7)), 3, "{users}");

    let books = &d["books"];
    assert_eq!(books["total"], 1, "{books}");
    assert_eq!(books["listed"], 1, "{books}");
    assert_eq!(books["taken_down"], 0, "{books}");
    assert_eq!(total(&series(books, "created", 7)), 1, "{books}");

    let sales = &d["sales"];
    assert_eq!(sales["trades"], 1, "{sales}");
    assert_eq!(cents(&sales["revenue"]), 500, "{sales}");
    assert_eq!(cents(&sales["platform_revenue"]), 50, "{sales}");
    let trades = series(sales, "trades_per_day", 7);
    assert_eq!(trades[6]["count"], 1, "{sales}");
    assert_eq!(cents(&trades[6]["amount"]), 500, "{sales}");
    let top_ups = series(sales, "top_ups_per_day", 7);
    assert!(top_ups[6]["count"].as_i64().unwrap() >= 1, "{sales}");
    assert!(cents(&top_ups[6]["amount"]) >= 750, "{sales}");
    assert_eq!(
        sales["campaigns"],
        json!({"open": 0, "funded": 0, "failed": 0}),
        "{sales}"
    );
    assert_eq!(cents(&sales["escrow"]), 0, "{sales}");

    let chat = &d["chat"];
    assert_eq!(chat["conversations"], 1, "{chat}");
    assert_eq!(total(&series(chat, "turns_per_day", 7)), 1, "{chat}");

    let services: Vec<&str> = d["services"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["service"].as_str().unwrap())
        .collect();
    assert_eq!(
        services,
        ["auth", "catalog", "wallet", "manuscript", "chat"],
        "{d}"
    );
    for service in d["services"].as_array().unwrap() {
        assert!(service["outbox_pending"].is_u64(), "{service}");
        assert!(
            service["outbox_oldest_secs"].as_f64().unwrap() >= 0.0,
            "{service}"
        );
        for consumer in service["consumers"].as_array().unwrap() {
            assert!(consumer["group"].is_string() && consumer["topic"].is_string());
            assert!(consumer["lag"].as_i64().unwrap() >= -1, "{consumer}");
        }
    }

    // The default range is a year (366 points: a leap year's worth).
    let (s, body) = app.get("/api/admin/dashboard", Some(&admin.token)).await;
    assert_eq!(s, 200, "{body}");
    assert_eq!(body["data"]["days"], 365);
    series(&body["data"]["users"], "signups", 365);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_service_that_is_down_leaves_its_part_null_and_named() {
    let app = TestApp::spawn().await;
    let admin = app.admin().await;
    let closed = closed_port();
    let gateway = quire_gateway::Application::build(quire_gateway::GatewayConfig {
        chat_url: format!("http://127.0.0.1:{closed}"),
        ..app.gateway_config.clone()
    })
    .await
    .unwrap();
    let base = format!("http://127.0.0.1:{}", gateway.port());
    tokio::spawn(gateway.run_until_stopped());

    let r = app
        .http
        .get(format!("{base}/api/admin/dashboard?days=30"))
        .bearer_auth(&admin.token);
    let (s, body) = app.send(r).await;
    assert_eq!(s, 200, "{body}");
    let d = &body["data"];
    assert!(d["chat"].is_null(), "{d}");
    assert_eq!(d["unavailable"], json!(["chat", "services.chat"]), "{d}");
    assert_eq!(d["users"]["total"], 1, "{d}");
    assert_eq!(d["books"]["total"], 0, "{d}");
    assert_eq!(d["sales"]["trades"], 0, "{d}");
    let services = d["services"].as_array().unwrap();
    assert_eq!(services.len(), 4, "{d}");
    assert!(services.iter().all(|s| s["service"] != "chat"), "{d}");

    // The audit log too: the others' entries, chat named.
    let r = app
        .http
        .get(format!("{base}/api/admin/audit"))
        .bearer_auth(&admin.token);
    let (s, body) = app.send(r).await;
    assert_eq!(s, 200, "{body}");
    assert_eq!(body["data"]["unavailable"], json!(["chat"]), "{body}");
}
