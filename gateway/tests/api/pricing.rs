//! Pricing through the REST surface: the revenue curve a writer prices a book with (its
//! shape, its strict form, who may price which book, and its calibration following real
//! sales), and the custom price of `POST /api/update_book/` (0 is free, bad amounts
//! change nothing, only the writer sets it).

use serde_json::Value;

use crate::catalog_support::{Multipart, NewBook};
use crate::pricing_support::{num, nums, two_places};
use crate::support::{TestApp, assert_bad_input, assert_failure};

const K: f64 = 0.9;

/// The checks every curve must pass: n points per array, 2 decimals, profit = k*T*y - cost
/// within rounding, the band around the sales, and a suggestion inside the drawn range.
fn assert_curve(data: &Value, n: usize, cost: f64) {
    let t = nums(&data["T_values"]);
    let y = nums(&data["y_values"]);
    let profit = nums(&data["profit_values"]);
    let cost_line = nums(&data["cost_line_values"]);
    let low = nums(&data["y_low_values"]);
    let high = nums(&data["y_high_values"]);
    for (name, list) in [
        ("T", &t),
        ("y", &y),
        ("profit", &profit),
        ("cost_line", &cost_line),
        ("y_low", &low),
        ("y_high", &high),
    ] {
        assert_eq!(list.len(), n, "{name}_values: {data}");
        for v in list {
            assert!(
                v.is_finite() && two_places(*v),
                "{name}: {v} not 2 decimals"
            );
        }
    }
    assert!(t.windows(2).all(|w| w[0] < w[1]), "prices ascend: {t:?}");
    assert!(t[0] >= 0.0);
    for i in 0..n {
        // T and y were each rounded to 2 decimals after the profit was worked out from them.
        let expected = K * t[i] * y[i] - cost;
        let slack = K * 0.005 * (t[i] + y[i]) + 0.011;
        assert!(
            (profit[i] - expected).abs() <= slack,
            "profit at {}: {} vs k*T*y - cost = {expected}",
            t[i],
            profit[i]
        );
        assert_eq!(cost_line[i], cost, "a flat cost line");
        assert!(
            y[i] >= 0.0 && low[i] <= y[i] && y[i] <= high[i],
            "band at {i}"
        );
    }
    let s = &data["suggestion"];
    let price = num(&s["price"]);
    assert!(
        t[0] <= price && price <= t[n - 1],
        "suggested {price} outside {}..{}",
        t[0],
        t[n - 1]
    );
    assert!(
        s["reason"].as_str().is_some_and(|r| !r.trim().is_empty()),
        "a reason: {s}"
    );
    assert!(num(&s["sales_low"]) <= num(&s["expected_sales"]));
    assert!(num(&s["expected_sales"]) <= num(&s["sales_high"]));
    let best = profit.iter().cloned().fold(f64::MIN, f64::max);
    assert!(
        num(&s["expected_profit"]) >= best - 0.02 * best.abs() - 0.05,
        "the suggestion is the best drawn: {} vs {best}",
        s["expected_profit"]
    );
    assert_eq!(num(&data["k"]), K);
    assert_eq!(num(&data["cost"]), cost);
    assert!(
        data["horizon_days"].as_u64().is_some_and(|d| d > 0),
        "{data}"
    );
    let c = &data["calibration"];
    for field in ["genre", "prior_source"] {
        assert!(
            c[field].as_str().is_some_and(|g| !g.is_empty()),
            "{field}: {c}"
        );
    }
    let weight = num(&c["data_weight"]);
    assert!((0.0..=1.0).contains(&weight), "{c}");
    assert!(num(&c["median_wtp"]) > 0.0 && num(&c["sigma"]) > 0.0, "{c}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_writers_curve_has_n_points_and_a_suggestion_with_its_reason() {
    let app = TestApp::spawn().await;
    let writer = app.writer().await;
    let book = app
        .book_of(
            &writer,
            NewBook {
                genre: "Romance".into(),
                price_cents: 399,
                ..NewBook::default()
            },
        )
        .await;

    // The whole shop's curve, as the web app asks it (multipart).
    let (s, body) = app
        .revenue_curve(&writer, &[("k", "0.9"), ("n", "50")])
        .await;
    assert_eq!(s, 200, "{body}");
    assert_curve(&body["data"], 50, 0.0);

    // The book's, with a cost to earn back; the curve knows its current price.
    let (s, body) = app
        .revenue_curve(
            &writer,
            &[
                ("k", "0.9"),
                ("n", "120"),
                ("book_id", &book.book_id),
                ("cost", "25.50"),
            ],
        )
        .await;
    assert_eq!(s, 200, "{body}");
    let data = &body["data"];
    assert_curve(data, 120, 25.5);
    assert_eq!(num(&data["current_price"]), 3.99, "{data}");
    assert_eq!(data["calibration"]["genre"], "Romance", "{data}");
    let sales = num(&data["current_expected_sales"]);
    let profit = num(&data["current_expected_profit"]);
    assert!(
        (profit - (K * 3.99 * sales - 25.5)).abs() <= 0.05 + 0.005 * sales,
        "{data}"
    );

    // The same fields as an urlencoded form give the same curve.
    let form = app
        .http
        .post(app.url("/api/revenue_curve"))
        .bearer_auth(&writer.token)
        .form(&[("k", "0.9"), ("n", "2"), ("book_id", book.book_id.as_str())]);
    let (s, body) = app.send(form).await;
    assert_eq!(s, 200, "{body}");
    assert_curve(&body["data"], 2, 0.0);

    // Without a token: 401.
    let (s, body) = Multipart::new()
        .text("k", "0.9")
        .text("n", "10")
        .post(&app, "/api/revenue_curve", None)
        .await;
    assert_failure(s, &body, 401, None);
}

#[tokio::test(flavor = "multi_thread")]
async fn nonsense_is_a_400_naming_the_field_and_another_writers_book_a_404() {
    let app = TestApp::spawn().await;
    let writer = app.writer().await;
    let other = app.writer().await;
    let book = app.book_of(&writer, NewBook::default()).await;

    for (fields, field) in [
        (vec![("k", "0"), ("n", "10")], "k"),
        (vec![("k", "1.5"), ("n", "10")], "k"),
        (vec![("k", "-0.5"), ("n", "10")], "k"),
        (vec![("k", "NaN"), ("n", "10")], "k"),
        (vec![("k", "abc"), ("n", "10")], "k"),
        (vec![("n", "10")], "k"),
        (vec![("k", "0.9"), ("n", "1")], "n"),
        (vec![("k", "0.9"), ("n", "501")], "n"),
        (vec![("k", "0.9"), ("n", "abc")], "n"),
        (vec![("k", "0.9"), ("n", "2.5")], "n"),
        (vec![("k", "0.9")], "n"),
        (vec![("k", "0.9"), ("n", "10"), ("cost", "-1")], "cost"),
        (vec![("k", "0.9"), ("n", "10"), ("cost", "1.234")], "cost"),
        (
            vec![("k", "0.9"), ("n", "10"), ("cost", "1000000.01")],
            "cost",
        ),
        (vec![("k", "0.9"), ("n", "10"), ("cost", "abc")], "cost"),
        (
            vec![("k", "0.9"), ("n", "10"), ("book_id", "nope")],
            "book_id",
        ),
    ] {
        let (s, body) = app.revenue_curve(&writer, &fields).await;
        assert_bad_input(s, &body, field);
    }
    // A form that is neither multipart nor urlencoded.
    let (s, body) = app
        .post(
            "/api/revenue_curve",
            serde_json::json!({"k": 0.9, "n": 10}),
            Some(&writer.token),
        )
        .await;
    assert_failure(s, &body, 400, None);

    // Another writer's book is not theirs to price; an unknown book is no book.
    let (s, body) = app
        .revenue_curve(
            &other,
            &[("k", "0.9"), ("n", "10"), ("book_id", &book.book_id)],
        )
        .await;
    assert_failure(s, &body, 404, None);
    let unknown = uuid::Uuid::new_v4().to_string();
    let (s, body) = app
        .revenue_curve(&writer, &[("k", "0.9"), ("n", "10"), ("book_id", &unknown)])
        .await;
    assert_failure(s, &body, 404, None);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_books_curve_is_calibrated_on_its_sales() {
    let app = TestApp::spawn().await;
    let writer = app.writer().await;
    let book = app.book_of(&writer, NewBook::default()).await;
    let fields = [
        ("k", "0.9"),
        ("n", "40"),
        ("book_id", book.book_id.as_str()),
    ];

    let (s, body) = app.revenue_curve(&writer, &fields).await;
    assert_eq!(s, 200, "{body}");
    assert_eq!(body["data"]["calibration"]["book_sales"], 0, "{body}");

    app.sell(&book, 2, 10.0).await;
    let data = app
        .eventually("the curve counts the book's two sales", || async {
            let (s, body) = app.revenue_curve(&writer, &fields).await;
            assert_eq!(s, 200, "{body}");
            (body["data"]["calibration"]["book_sales"] == 2).then(|| body["data"].clone())
        })
        .await;
    assert_curve(&data, 40, 0.0);
    assert!(
        data["calibration"]["genre_sales"].as_u64().unwrap() >= 2,
        "{data}"
    );
}

/// `POST /api/update_book/` with only `book_id` and `price`, as `token`.
async fn set_price(app: &TestApp, token: &str, book_id: &str, price: &str) -> (u16, Value) {
    Multipart::new()
        .text("book_id", book_id)
        .text("price", price)
        .post(app, "/api/update_book/", Some(token))
        .await
}

/// The book's price as its writer sees it.
async fn price_of(app: &TestApp, token: &str, book_id: &str) -> f64 {
    let (s, body) = app
        .get(&format!("/api/get_books?book_id={book_id}"), Some(token))
        .await;
    assert_eq!(s, 200, "{body}");
    num(&body["data"][0]["price"])
}

#[tokio::test(flavor = "multi_thread")]
async fn a_writer_sets_a_custom_price_zero_is_free_and_bad_amounts_change_nothing() {
    let app = TestApp::spawn().await;
    let writer = app.writer().await;
    let other = app.writer().await;
    let book = app.create_book(&writer, NewBook::default()).await;
    let id = book.book_id.as_str();

    let (s, body) = set_price(&app, &writer.token, id, "7.25").await;
    assert_eq!(s, 200, "{body}");
    assert_eq!(num(&body["data"]["price"]), 7.25);
    assert_eq!(body["data"]["price_cents"], 725);
    assert_eq!(price_of(&app, &writer.token, id).await, 7.25);

    // Past the bounds of an e-book store (Kindle Direct Publishing: $0.99 to $200.00, or
    // free) is refused, with the bounds named, and changes nothing.
    for bad in ["10000", "200.01", "0.98", "0.01"] {
        let (s, body) = set_price(&app, &writer.token, id, bad).await;
        assert_bad_input(s, &body, "price");
        assert!(
            body["message"].as_str().unwrap().contains("0.99 to 200.00"),
            "{body}"
        );
        assert_eq!(
            price_of(&app, &writer.token, id).await,
            7.25,
            "{bad:?} changed it"
        );
    }
    for bad in ["-1", "1.234", "abc", "1000000.01", "1e2", "NaN", ""] {
        let (s, body) = set_price(&app, &writer.token, id, bad).await;
        assert_bad_input(s, &body, "price");
        assert_eq!(
            price_of(&app, &writer.token, id).await,
            7.25,
            "{bad:?} changed it"
        );
    }
    let (s, body) = set_price(&app, &other.token, id, "1.00").await;
    assert_failure(s, &body, 403, None);
    assert_eq!(price_of(&app, &writer.token, id).await, 7.25);

    // The bounds themselves are allowed, and 0 makes the book free.
    let (s, body) = set_price(&app, &writer.token, id, "200").await;
    assert_eq!(s, 200, "{body}");
    assert_eq!(num(&body["data"]["price"]), 200.0);
    let (s, body) = set_price(&app, &writer.token, id, "0.99").await;
    assert_eq!(s, 200, "{body}");
    let (s, body) = set_price(&app, &writer.token, id, "0").await;
    assert_eq!(s, 200, "{body}");
    assert_eq!(body["data"]["price_cents"], 0);
    assert_eq!(price_of(&app, &writer.token, id).await, 0.0);
}
