//! Through the gateway: a place bookmarked twice, or twice at once, is one bookmark; a
//! comment is measured in characters against the 2,000 the comment box shows.

use serde_json::json;

use crate::catalog_support::NewBook;
use crate::support::{TestApp, assert_failure};

#[tokio::test(flavor = "multi_thread")]
async fn bookmarking_a_place_again_answers_the_bookmark_already_there() {
    let app = TestApp::spawn().await;
    let writer = app.writer().await;
    let ann = app.reader_user().await;
    let book = app.create_book(&writer, NewBook::default()).await;
    let marks = format!("/api/books/{}/bookmarks", book.book_id);
    let place = json!({"cfi": "epubcfi(/6/4!/4/2/1:0)", "title": "Chapter 1"});

    let (s, first) = app.post(&marks, place.clone(), Some(&ann.token)).await;
    assert_eq!(s, 200, "{first}");
    let (s, again) = app.post(&marks, place.clone(), Some(&ann.token)).await;
    assert_eq!(s, 200, "{again}");
    assert_eq!(again["data"]["id"], first["data"]["id"]);
    let at_once = (0..6).map(|_| {
        app.post(
            &marks,
            json!({"cfi": "page=7", "title": "p. 7"}),
            Some(&ann.token),
        )
    });
    let answers = futures::future::join_all(at_once).await;
    let ids: std::collections::HashSet<String> = answers
        .iter()
        .map(|(s, body)| {
            assert_eq!(*s, 200, "{body}");
            body["data"]["id"].as_str().unwrap().to_owned()
        })
        .collect();
    assert_eq!(ids.len(), 1, "{ids:?}");
    let (_, list) = app.get(&marks, Some(&ann.token)).await;
    assert_eq!(list["data"].as_array().unwrap().len(), 2, "{list}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_comment_over_2000_characters_is_a_400_naming_the_field() {
    let app = TestApp::spawn().await;
    let writer = app.writer().await;
    let ann = app.reader_user().await;
    let book = app.create_book(&writer, NewBook::default()).await;
    let path = format!("/api/books/{}/comments", book.book_id);

    // 2,000 characters of two bytes each: 4,000 bytes, within the limit.
    let longest = "é".repeat(2000);
    let (s, body) = app
        .post(&path, json!({"content": longest}), Some(&ann.token))
        .await;
    assert_eq!(s, 200, "{body}");
    assert_eq!(body["data"]["content"], longest.as_str());
    for too_long in ["é".repeat(2001), "x".repeat(2200)] {
        let (s, body) = app
            .post(&path, json!({"content": too_long}), Some(&ann.token))
            .await;
        assert_failure(s, &body, 400, None);
        let message = body["message"].as_str().unwrap();
        assert!(
            message.contains("content") && message.contains("2000"),
            "{body}"
        );
    }
    let (_, list) = app.get(&path, None).await;
    assert_eq!(
        list["data"]["total"], 1,
        "the refused comments changed nothing"
    );
}
