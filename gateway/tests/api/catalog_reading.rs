//! What readers do with a book: comments, bookmarks, progress, favourites and history.

use serde_json::json;

use crate::catalog_support::{NewBook, ids};
use crate::support::{TestApp, assert_failure};

#[tokio::test(flavor = "multi_thread")]
async fn comments_are_public_to_read_and_deletable_by_their_author_or_an_admin() {
    let app = TestApp::spawn().await;
    let writer = app.writer().await;
    let ann = app.reader_user().await;
    let bob = app.reader_user().await;
    let admin = app.admin().await;
    let book = app.create_book(&writer, NewBook::default()).await;
    let path = format!("/api/books/{}/comments", book.book_id);

    let (s, body) = app.get(&path, None).await;
    assert_eq!(s, 200, "{body}");
    assert_eq!(body["data"]["total"], 0);
    let (s, body) = app.post(&path, json!({"content": "Lovely"}), None).await;
    assert_failure(s, &body, 401, None);
    for bad in [
        json!({"content": "   "}),
        json!({"content": "x".repeat(2001)}),
        json!({}),
    ] {
        let (s, body) = app.post(&path, bad, Some(&ann.token)).await;
        assert_failure(s, &body, 400, None);
        assert!(
            body["message"].as_str().unwrap().contains("content"),
            "{body}"
        );
    }
    let (s, first) = app
        .post(&path, json!({"content": "  First!  "}), Some(&ann.token))
        .await;
    assert_eq!(s, 200, "{first}");
    assert_eq!(first["data"]["content"], "First!");
    assert_eq!(first["data"]["book_id"], book.book_id.as_str());
    assert_eq!(first["data"]["user_id"], ann.id.as_str());
    assert_eq!(first["data"]["deletable"], true);
    let (_, second) = app
        .post(&path, json!({"content": "Second"}), Some(&bob.token))
        .await;

    let (_, list) = app.get(&path, Some(&ann.token)).await;
    assert_eq!(list["data"]["total"], 2, "{list}");
    let items = list["data"]["result"].as_array().unwrap();
    assert_eq!(items[0]["content"], "Second", "newest first");
    assert_eq!(items[0]["deletable"], false, "not ann's");
    assert_eq!(items[1]["deletable"], true);
    let (_, page) = app.get(&format!("{path}?page=2&page_size=1"), None).await;
    assert_eq!(page["data"]["result"][0]["content"], "First!", "{page}");

    let first_id = first["data"]["id"].as_str().unwrap();
    let second_id = second["data"]["id"].as_str().unwrap();
    let (s, body) = app
        .delete(&format!("/api/comments/{first_id}"), Some(&bob.token))
        .await;
    assert_failure(s, &body, 403, None);
    let (s, body) = app
        .delete(&format!("/api/comments/{first_id}"), Some(&ann.token))
        .await;
    assert_eq!(s, 200, "{body}");
    assert_eq!(body["data"]["deleted"], true);
    let (s, body) = app
        .delete(&format!("/api/comments/{second_id}"), Some(&admin.token))
        .await;
    assert_eq!(s, 200, "{body}");
    let (s, body) = app
        .delete(&format!("/api/comments/{first_id}"), Some(&ann.token))
        .await;
    assert_failure(s, &body, 404, None);
    let (_, list) = app.get(&path, None).await;
    assert_eq!(list["data"]["total"], 0);
}

#[tokio::test(flavor = "multi_thread")]
async fn bookmarks_progress_favourites_and_history_round_trip() {
    let app = TestApp::spawn().await;
    let writer = app.writer().await;
    let ann = app.reader_user().await;
    let bob = app.reader_user().await;
    let book = app.create_book(&writer, NewBook::default()).await;
    let id = book.book_id.clone();

    // Bookmarks: the caller's own.
    let marks = format!("/api/books/{id}/bookmarks");
    let (s, body) = app.get(&marks, None).await;
    assert_failure(s, &body, 401, None);
    let (s, body) = app.post(&marks, json!({"cfi": ""}), Some(&ann.token)).await;
    assert_failure(s, &body, 400, None);
    let (s, mark) = app
        .post(
            &marks,
            json!({"cfi": "epubcfi(/6/4!/4/2)", "title": "Chapter 1"}),
            Some(&ann.token),
        )
        .await;
    assert_eq!(s, 200, "{mark}");
    assert_eq!(mark["data"]["cfi"], "epubcfi(/6/4!/4/2)");
    assert_eq!(mark["data"]["title"], "Chapter 1");
    assert!(mark["data"]["timestamp"].is_string());
    let (_, list) = app.get(&marks, Some(&ann.token)).await;
    assert_eq!(list["data"].as_array().unwrap().len(), 1, "{list}");
    let (_, list) = app.get(&marks, Some(&bob.token)).await;
    assert!(
        list["data"].as_array().unwrap().is_empty(),
        "bob sees none of ann's: {list}"
    );
    let mark_id = mark["data"]["id"].as_str().unwrap();
    let (s, _) = app
        .delete(&format!("/api/bookmarks/{mark_id}"), Some(&bob.token))
        .await;
    assert!(s == 403 || s == 404, "{s}");
    let (s, body) = app
        .delete(&format!("/api/bookmarks/{mark_id}"), Some(&ann.token))
        .await;
    assert_eq!(s, 200, "{body}");
    assert_eq!(body["data"]["deleted"], true);
    let (s, body) = app
        .delete(&format!("/api/bookmarks/{mark_id}"), Some(&ann.token))
        .await;
    assert_failure(s, &body, 404, None);

    // Progress, which also records history.
    let progress = format!("/api/books/{id}/progress");
    let (s, body) = app.get(&progress, Some(&ann.token)).await;
    assert_eq!(s, 200, "{body}");
    assert_eq!(body["data"]["position"], "");
    for bad in [
        json!({"position": "x", "percent": 101}),
        json!({"position": "x", "percent": -1}),
        json!({"position": "x", "percent": "half"}),
    ] {
        let (s, body) = app.put(&progress, bad, Some(&ann.token)).await;
        assert_failure(s, &body, 400, None);
        assert!(
            body["message"].as_str().unwrap().contains("percent"),
            "{body}"
        );
    }
    let (s, body) = app
        .put(
            &progress,
            json!({"position": "epubcfi(/6/8)", "percent": 42.5}),
            Some(&ann.token),
        )
        .await;
    assert_eq!(s, 200, "{body}");
    let (_, body) = app.get(&progress, Some(&ann.token)).await;
    assert_eq!(body["data"]["position"], "epubcfi(/6/8)");
    assert_eq!(body["data"]["percent"], 42.5);
    assert_eq!(body["data"]["book_id"], id.as_str());
    let (_, body) = app.get(&progress, Some(&bob.token)).await;
    assert_eq!(body["data"]["position"], "", "progress is per reader");

    let (s, history) = app.get("/api/history", Some(&ann.token)).await;
    assert_eq!(s, 200, "{history}");
    let entry = &history["data"][0];
    assert_eq!(entry["id"], id.as_str());
    assert_eq!(entry["title"], book.title.as_str());
    assert_eq!(entry["percent"], 42.5);
    assert!(entry["last_read_at"].is_string());
    let (s, body) = app.get("/api/history?limit=0", Some(&ann.token)).await;
    assert_failure(s, &body, 400, None);
    let (_, history) = app.get("/api/history", Some(&bob.token)).await;
    assert!(history["data"].as_array().unwrap().is_empty());

    // Favourites, idempotent both ways.
    let fav = format!("/api/favourites/{id}");
    let (s, body) = app.post(&fav, json!({}), None).await;
    assert_failure(s, &body, 401, None);
    for _ in 0..2 {
        let (s, body) = app.post(&fav, json!({}), Some(&ann.token)).await;
        assert_eq!(s, 200, "{body}");
        assert_eq!(body["data"], json!({"book_id": id, "favourite": true}));
    }
    let (_, list) = app.get("/api/favourites", Some(&ann.token)).await;
    assert_eq!(ids(&list["data"]), vec![id.clone()]);
    let (_, one) = app
        .get(&format!("/api/get_books?book_id={id}"), Some(&ann.token))
        .await;
    assert_eq!(one["data"][0]["favourite"], true, "{one}");
    for _ in 0..2 {
        let (s, body) = app.delete(&fav, Some(&ann.token)).await;
        assert_eq!(s, 200, "{body}");
        assert_eq!(body["data"]["favourite"], false);
    }
    let (_, list) = app.get("/api/favourites", Some(&ann.token)).await;
    assert!(ids(&list["data"]).is_empty());
}
