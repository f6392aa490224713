//! Readers' ratings over REST: only owners rate, 1 to 5 stars, one rating each (changeable),
//! every book JSON shows the average and count, "rating" sorts the shop by readers, and the
//! analysis's quality score reaches only the writer.

use serde_json::{Value, json};

use crate::catalog_support::NewBook;
use crate::support::{TestApp, assert_bad_input, assert_failure};

async fn book_json(app: &TestApp, book_id: &str, token: Option<&str>) -> Value {
    let (s, body) = app
        .get(&format!("/api/get_books?book_id={book_id}"), token)
        .await;
    assert_eq!(s, 200, "{body}");
    body["data"][0].clone()
}

#[tokio::test(flavor = "multi_thread")]
async fn owners_rate_a_book_once_each_and_every_reader_sees_the_average() {
    let app = TestApp::spawn().await;
    let writer = app.writer().await;
    let ann = app.reader_user().await;
    let bob = app.reader_user().await;
    let stranger = app.reader_user().await;
    let genre = format!("Rated {}", uuid::Uuid::new_v4().simple());
    let book = app
        .create_book(
            &writer,
            NewBook {
                genre: genre.clone(),
                ..NewBook::default()
            },
        )
        .await;
    let id = book.book_id.as_str();
    let path = format!("/api/books/{id}/rating");

    let fresh = book_json(&app, id, None).await;
    assert_eq!(fresh["rating"], json!({"average": null, "count": 0}));
    assert_eq!(fresh["my_rating"], Value::Null);
    assert_eq!(
        fresh["assessment_score"],
        Value::Null,
        "not the reader's to see"
    );
    assert_eq!(
        book_json(&app, id, Some(&writer.token)).await["assessment_score"],
        7.5,
        "the writer sees the analysis's score"
    );

    let (s, body) = app.put(&path, json!({"stars": 5}), None).await;
    assert_failure(s, &body, 401, None);
    let (s, body) = app
        .put(&path, json!({"stars": 5}), Some(&stranger.token))
        .await;
    assert_failure(s, &body, 403, None);
    assert!(body["message"].as_str().unwrap().contains("owns"), "{body}");
    let (s, body) = app
        .put(&path, json!({"stars": 5}), Some(&writer.token))
        .await;
    assert_failure(s, &body, 403, None);

    for reader in [&ann, &bob] {
        app.trade_completed(&reader.id, &book).await;
    }
    app.eventually("both purchases reach the catalog", || async {
        let a = book_json(&app, id, Some(&ann.token)).await;
        let b = book_json(&app, id, Some(&bob.token)).await;
        (a["bought"] == true && b["bought"] == true).then_some(())
    })
    .await;

    for bad in [
        json!({"stars": 0}),
        json!({"stars": 6}),
        json!({"stars": -1}),
    ] {
        let (s, body) = app.put(&path, bad, Some(&ann.token)).await;
        assert_bad_input(s, &body, "stars");
    }
    for bad in [json!({"stars": 4.5}), json!({"stars": "four"}), json!({})] {
        let (s, body) = app.put(&path, bad, Some(&ann.token)).await;
        assert_failure(s, &body, 400, None);
    }
    assert_eq!(book_json(&app, id, None).await["rating"]["count"], 0);

    let (s, body) = app.put(&path, json!({"stars": 2}), Some(&ann.token)).await;
    assert_eq!(s, 200, "{body}");
    assert_eq!(body["data"]["rating"], json!({"average": 2.0, "count": 1}));
    let (_, body) = app.put(&path, json!({"stars": 4}), Some(&ann.token)).await;
    assert_eq!(
        body["data"]["rating"],
        json!({"average": 4.0, "count": 1}),
        "a changed rating replaces the first"
    );
    let (_, body) = app.put(&path, json!({"stars": 5}), Some(&bob.token)).await;
    assert_eq!(body["data"]["rating"], json!({"average": 4.5, "count": 2}));
    assert_eq!(body["data"]["my_rating"], 5);

    let seen = book_json(&app, id, Some(&ann.token)).await;
    assert_eq!(seen["rating"], json!({"average": 4.5, "count": 2}));
    assert_eq!(seen["my_rating"], 4);
    let (s, shop) = app
        .shop(&[("genre", &genre), ("sort", "rating")], None)
        .await;
    assert_eq!(s, 200, "{shop}");
    assert_eq!(shop["data"]["result"][0]["rating"]["average"], 4.5);
    let (s, body) = app.shop(&[("sort", "score")], None).await;
    assert_bad_input(s, &body, "sort");
}
