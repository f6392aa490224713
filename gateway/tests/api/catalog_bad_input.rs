//! Bad input to the catalog routes is a 400 naming the field and changes nothing; an
//! unknown book is a 404 on every book route; a missing token is a 401. Never a 500.

use serde_json::json;

use crate::catalog_support::{Multipart, NewBook};
use crate::support::{Limits, TestApp, assert_failure};

#[tokio::test(flavor = "multi_thread")]
async fn bad_shop_and_search_filters_are_400s_naming_the_field() {
    let app = TestApp::spawn().await;
    let writer = app.writer().await;
    app.create_book(&writer, NewBook::default()).await;
    let (_, before) = app.shop(&[("page_size", "100")], None).await;

    for (field, value) in [
        ("price_min", "abc"),
        ("price_max", "1.234"),
        ("price_min", "NaN"),
        ("price_min", "-1"),
        ("price_max", "inf"),
        ("price_min", "1e2"),
        ("price_max", "1000000.01"),
        ("price_min", " 1"),
        ("page_size", "1000"),
        ("page_size", "0"),
        ("page", "0"),
        ("page", "x"),
        ("sort", "bogus"),
        ("upload_writer_id", "not-a-uuid"),
    ] {
        let (s, body) = app.shop(&[(field, value)], None).await;
        assert_failure(s, &body, 400, None);
        assert!(
            body["message"].as_str().unwrap().contains(field),
            "{field}={value}: {body}"
        );
    }
    let (s, body) = app
        .shop(&[("price_min", "5"), ("price_max", "1")], None)
        .await;
    assert_failure(s, &body, 400, None);
    let (s, body) = app
        .send(
            app.http
                .post(app.url("/api/get_all_books/"))
                .header("content-type", "application/json")
                .body("{\"genre\": \"x\"}"),
        )
        .await;
    assert_failure(s, &body, 400, None);

    // Raw bodies: `1e2` must reach the gateway as written.
    let long = format!("{{\"query\": \"{}\"}}", "x".repeat(501));
    for (field, bad) in [
        ("price_min", r#"{"query": "x", "price_min": "abc"}"#),
        ("price_max", r#"{"query": "x", "price_max": 1.234}"#),
        ("price_min", r#"{"query": "x", "price_min": -1}"#),
        ("price_min", r#"{"query": "x", "price_min": 1e2}"#),
        ("price_max", r#"{"query": "x", "price_max": "NaN"}"#),
        ("price_max", r#"{"query": "x", "price_max": "1e2"}"#),
        ("page_size", r#"{"query": "x", "page_size": 1000}"#),
        ("page", r#"{"query": "x", "page": 0}"#),
        ("page", r#"{"query": "x", "page": -1}"#),
        ("tags", r#"{"query": "x", "tags": 5}"#),
        ("query", r#"{"query": 5}"#),
        ("query", long.as_str()),
    ] {
        let (s, body) = app
            .send(
                app.http
                    .post(app.url("/api/search"))
                    .header("content-type", "application/json")
                    .body(bad.to_owned()),
            )
            .await;
        assert_failure(s, &body, 400, None);
        assert!(
            body["message"].as_str().unwrap().contains(field),
            "{bad}: {body}"
        );
    }

    let (_, after) = app.shop(&[("page_size", "100")], None).await;
    assert_eq!(before, after, "refused calls change nothing");
}

#[tokio::test(flavor = "multi_thread")]
async fn an_unknown_book_is_a_404_and_a_malformed_id_a_400_on_every_book_route() {
    let app = TestApp::spawn().await;
    let writer = app.writer().await;
    let admin = app.admin().await;
    let t = Some(writer.token.as_str());
    for (id, status) in [
        (uuid::Uuid::new_v4().to_string(), 404),
        ("not-an-id".to_owned(), 400),
    ] {
        let gets = [
            format!("/api/get_books?book_id={id}"),
            format!("/api/books/{id}/toc"),
            format!("/api/books/{id}/comments"),
            format!("/api/books/{id}/bookmarks"),
            format!("/api/books/{id}/progress"),
        ];
        for path in &gets {
            let (s, body) = app.get(path, t).await;
            assert_failure(s, &body, status, None);
        }
        for path in [
            format!("/api/books/{id}/content"),
            format!("/api/books/{id}/cover"),
            format!("/api/books/{id}/spine"),
        ] {
            let r = app.raw(&path, t).await;
            assert_failure(r.status, &r.json(), status, None);
        }
        let posts = [
            (
                format!("/api/books/{id}/comments"),
                json!({"content": "hi"}),
            ),
            (
                format!("/api/books/{id}/bookmarks"),
                json!({"cfi": "epubcfi(/6/2)", "title": "x"}),
            ),
            (format!("/api/favourites/{id}"), json!({})),
            (
                format!(
                    "/api/publish_book_status?user_id={}&book_id={id}&on_or_off=on",
                    writer.id
                ),
                json!({}),
            ),
        ];
        for (path, body) in &posts {
            let (s, reply) = app.post(path, body.clone(), t).await;
            assert_failure(s, &reply, status, None);
        }
        let (s, body) = app
            .put(
                &format!("/api/books/{id}/progress"),
                json!({"position": "x", "percent": 1}),
                t,
            )
            .await;
        assert_failure(s, &body, status, None);
        // Removing a favourite is idempotent: catalog answers an unknown book with
        // "not a favourite" rather than a 404; either is fine, a 500 is not.
        let (s, body) = app.delete(&format!("/api/favourites/{id}"), t).await;
        if status == 404 {
            assert!(
                s == 404 || (s == 200 && body["data"]["favourite"] == false),
                "{body}"
            );
        } else {
            assert_failure(s, &body, status, None);
        }
        let (s, body) = app
            .post(
                &format!("/api/admin/books/{id}/takedown"),
                json!({"taken_down": true}),
                Some(&admin.token),
            )
            .await;
        assert_failure(s, &body, status, None);
        let (s, body) = Multipart::new()
            .text("book_id", &id)
            .text("title", "x")
            .post(&app, "/api/update_book/", t)
            .await;
        assert_failure(s, &body, status, None);
        for path in [
            format!("/api/comments/{id}"),
            format!("/api/bookmarks/{id}"),
        ] {
            let (s, body) = app.delete(&path, t).await;
            assert_failure(s, &body, status, None);
        }
    }
    let (s, body) = app.get("/api/get_books", None).await;
    assert_failure(s, &body, 400, None);
    assert!(
        body["message"].as_str().unwrap().contains("book_id"),
        "{body}"
    );
    let (s, body) = app.get("/api/publishers/nope/shelf", None).await;
    assert_failure(s, &body, 400, None);
}

#[tokio::test(flavor = "multi_thread")]
async fn caller_routes_need_a_token_and_bad_multipart_is_a_400() {
    let app = TestApp::spawn().await;
    let id = uuid::Uuid::new_v4();
    for path in [
        "/api/get_bought_books".to_owned(),
        "/api/favourites".to_owned(),
        "/api/history".to_owned(),
        format!("/api/books/{id}/bookmarks"),
        format!("/api/books/{id}/progress"),
        "/api/admin/books".to_owned(),
    ] {
        let (s, body) = app.get(&path, None).await;
        assert_failure(s, &body, 401, None);
    }
    let (s, body) = app
        .get("/api/get_books?book_id=x", Some("not-a-token"))
        .await;
    assert_failure(s, &body, 401, None);

    let writer = app.writer().await;
    let (s, body) = app
        .send(
            app.http
                .post(app.url("/api/update_book/"))
                .bearer_auth(&writer.token)
                .header("content-type", "application/json")
                .body("{}"),
        )
        .await;
    assert_failure(s, &body, 400, None);
    let (s, body) = Multipart::new()
        .text("title", "x")
        .post(&app, "/api/update_book/", Some(&writer.token))
        .await;
    assert_failure(s, &body, 400, None);
    assert!(
        body["message"].as_str().unwrap().contains("book_id"),
        "{body}"
    );
    let (s, body) = Multipart::new()
        .text("book_id", &id.to_string())
        .text("title", "a")
        .text("title", "b")
        .post(&app, "/api/update_book/", Some(&writer.token))
        .await;
    assert_failure(s, &body, 400, None);
}

#[tokio::test(flavor = "multi_thread")]
async fn uploads_have_their_own_rate_limit() {
    let app = TestApp::spawn_with(Limits {
        upload_per_min: 2,
        ..Limits::default()
    })
    .await;
    let writer = app.writer().await;
    let book = app.create_book(&writer, NewBook::default()).await;
    for _ in 0..2 {
        let (s, body) = Multipart::new()
            .text("book_id", &book.book_id)
            .text("genre", "Poetry")
            .post(&app, "/api/update_book/", Some(&writer.token))
            .await;
        assert_eq!(s, 200, "{body}");
    }
    let r = app
        .http
        .post(app.url("/api/update_book/"))
        .bearer_auth(&writer.token)
        .header("content-type", "multipart/form-data; boundary=x")
        .body("--x--\r\n")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 429);
    assert!(r.headers().get("retry-after").is_some());
    // Other calls are not held back.
    let (s, _) = app
        .get(&format!("/api/get_books?book_id={}", book.book_id), None)
        .await;
    assert_eq!(s, 200);
}
