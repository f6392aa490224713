//! Sales analytics through the REST surface: after real trades, the writer's report and
//! the book's publisher's report show the units and the money; a bad view or window is a
//! 400, and another user's report is an admin's alone.

use serde_json::Value;

use crate::catalog_support::{NewBook, User};
use crate::pricing_support::num;
use crate::support::{TestApp, assert_bad_input, assert_failure};
use crate::wallet_support::cents;

/// `GET /api/analytics/sales?{query}` as `user`.
async fn report(app: &TestApp, user: &User, query: &str) -> (u16, Value) {
    app.get(&format!("/api/analytics/sales?{query}"), Some(&user.token))
        .await
}

/// The row of `book_id` in a report, once it counts `units` sales.
async fn book_row(app: &TestApp, user: &User, query: &str, book_id: &str, units: u64) -> Value {
    app.eventually("the report counts the sales", || async {
        let (s, body) = report(app, user, query).await;
        assert_eq!(s, 200, "{body}");
        let row = body["data"]["books"]
            .as_array()
            .unwrap()
            .iter()
            .find(|b| b["book_id"] == book_id)
            .cloned()?;
        (row["units"] == units).then(|| (row, body["data"].clone()))
    })
    .await
    .0
}

#[tokio::test(flavor = "multi_thread")]
async fn after_trades_the_writers_report_shows_units_and_what_they_earned() {
    let app = TestApp::spawn().await;
    let writer = app.writer().await;
    let book = app
        .book_of(
            &writer,
            NewBook {
                genre: "Mystery".into(),
                price_cents: 499,
                ..NewBook::default()
            },
        )
        .await;
    app.sell(&book, 2, 10.0).await;

    let row = book_row(&app, &writer, "as=writer&days=30", &book.book_id, 2).await;
    assert_eq!(row["title"], book.title.as_str());
    assert_eq!(row["genre"], "Mystery");
    assert_eq!(cents(&row["price"]), 499);
    assert_eq!(cents(&row["gross"]), 998);
    assert_eq!(
        cents(&row["earned"]),
        2 * (499 * 9 / 10),
        "90% of each sale"
    );
    assert_eq!(cents(&row["campaign"]), 0);

    let (s, body) = report(&app, &writer, "as=writer&days=30").await;
    assert_eq!(s, 200, "{body}");
    let data = &body["data"];
    assert_eq!(data["as"], "writer");
    assert_eq!(data["user_id"], writer.id.as_str());
    assert_eq!(data["days"], 30);
    let totals = &data["totals"];
    assert_eq!(totals["units"], 2, "{totals}");
    assert_eq!(cents(&totals["gross"]), 998);
    assert_eq!(cents(&totals["earned"]), 898);
    let series = data["series"].as_array().unwrap();
    assert!(
        (30..=31).contains(&series.len()),
        "every day: {}",
        series.len()
    );
    let dates: Vec<&str> = series.iter().map(|d| d["date"].as_str().unwrap()).collect();
    assert!(
        dates.windows(2).all(|w| w[0] < w[1]),
        "oldest first: {dates:?}"
    );
    let today = chrono::Utc::now().format("%Y-%m-%d").to_string();
    assert_eq!(*dates.last().unwrap(), today);
    let units: u64 = series.iter().map(|d| d["units"].as_u64().unwrap()).sum();
    assert_eq!(units, 2);
    let earned: f64 = series.iter().map(|d| num(&d["earned"])).sum();
    assert_eq!((earned * 100.0).round() as i64, 898);
    let last = series.last().unwrap();
    assert_eq!(last["books"][0]["book_id"], book.book_id.as_str(), "{last}");

    // The default view and window are the writer's, 90 days.
    let (s, body) = app.get("/api/analytics/sales", Some(&writer.token)).await;
    assert_eq!(s, 200, "{body}");
    assert_eq!(body["data"]["as"], "writer");
    assert_eq!(body["data"]["days"], 90);
    assert_eq!(body["data"]["totals"]["units"], 2);
}

#[tokio::test(flavor = "multi_thread")]
async fn the_publishers_report_shows_the_books_on_their_shelf() {
    let app = TestApp::spawn().await;
    let writer = app.writer().await;
    let publisher = app.user_with(&["reader", "publisher"]).await;
    let shelved = app
        .book_of(
            &writer,
            NewBook {
                publisher_id: publisher.id.clone(),
                price_cents: 300,
                ..NewBook::default()
            },
        )
        .await;
    let elsewhere = app.create_book(&writer, NewBook::default()).await;
    app.sell(&shelved, 2, 10.0).await;
    app.sell(&elsewhere, 1, 10.0).await;

    let query = "as=publisher&days=7";
    let row = book_row(&app, &publisher, query, &shelved.book_id, 2).await;
    assert_eq!(cents(&row["gross"]), 600);
    let (s, body) = report(&app, &publisher, query).await;
    assert_eq!(s, 200, "{body}");
    assert_eq!(body["data"]["as"], "publisher");
    let ids: Vec<&str> = body["data"]["books"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["book_id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, [shelved.book_id.as_str()], "only the shelf's books");
    assert_eq!(body["data"]["totals"]["units"], 2);

    // The writer's own report has both books.
    book_row(&app, &writer, "as=writer&days=7", &elsewhere.book_id, 1).await;
    book_row(&app, &writer, "as=writer&days=7", &shelved.book_id, 2).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_bad_view_or_window_is_a_400_and_another_users_report_is_for_admins() {
    let app = TestApp::spawn().await;
    let writer = app.writer().await;
    let other = app.writer().await;
    for (query, field) in [
        ("as=x", "as"),
        ("as=admin", "as"),
        ("days=0", "days"),
        ("days=731", "days"),
        ("days=abc", "days"),
        ("days=-1", "days"),
        ("user_id=nope", "user_id"),
    ] {
        let (s, body) = report(&app, &writer, query).await;
        assert_bad_input(s, &body, field);
    }
    let (s, body) = report(&app, &writer, "days=730").await;
    assert_eq!(s, 200, "{body}");
    let (s, body) = report(&app, &writer, &format!("user_id={}", other.id)).await;
    assert_failure(s, &body, 403, None);
    let (s, body) = report(&app, &writer, &format!("user_id={}", writer.id)).await;
    assert_eq!(s, 200, "naming oneself: {body}");

    let admin = app.admin().await;
    let (s, body) = report(&app, &admin, &format!("as=writer&user_id={}", other.id)).await;
    assert_eq!(s, 200, "{body}");
    assert_eq!(body["data"]["user_id"], other.id.as_str());
    let (s, body) = app.get("/api/analytics/sales", None).await;
    assert_failure(s, &body, 401, None);
}
