//! A place bookmarked twice is one bookmark, even when both adds arrive at once; a comment
//! is measured in characters, not bytes, against the 2,000 the comment box shows.

use quire_proto::catalog::v1 as pb;
use tonic::Code;

use crate::support::{TestApp, epub, req};

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_same_place_bookmarked_twice_or_at_once_is_one_bookmark() {
    let app = TestApp::spawn().await;
    let writer = app.user(&["writer"]).await;
    let ann = app.user(&["reader"]).await;
    let bob = app.user(&["reader"]).await;
    let book = app
        .create_book(
            &writer,
            "Marks",
            vec![("m.epub", epub("Marks", 3, 3))],
            true,
        )
        .await;
    let add = |cfi: &str, title: &str| pb::AddBookmarkRequest {
        book_id: book.book_id.clone(),
        cfi: cfi.into(),
        title: title.into(),
    };
    let list = |user| {
        let mut c = app.client();
        let book_id = book.book_id.clone();
        async move {
            c.list_bookmarks(req(pb::ListBookmarksRequest { book_id }, Some(user)))
                .await
                .unwrap()
                .into_inner()
                .bookmarks
        }
    };

    let mut c = app.client();
    let first = c
        .add_bookmark(req(add("epubcfi(/6/4!/4/2)", "Chapter 1"), Some(&ann)))
        .await
        .unwrap()
        .into_inner();
    let again = c
        .add_bookmark(req(
            add("  epubcfi(/6/4!/4/2) ", "Chapter 1 again"),
            Some(&ann),
        ))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        again.id, first.id,
        "answered with the bookmark already there"
    );
    assert_eq!(again.title, "Chapter 1");
    assert_eq!(list(&ann).await.len(), 1);

    // Another place, and the same place for another reader, are bookmarks of their own.
    let other = c
        .add_bookmark(req(add("epubcfi(/6/6!/4/2)", "Chapter 2"), Some(&ann)))
        .await
        .unwrap()
        .into_inner();
    assert_ne!(other.id, first.id);
    let bobs = c
        .add_bookmark(req(add("epubcfi(/6/4!/4/2)", "Chapter 1"), Some(&bob)))
        .await
        .unwrap()
        .into_inner();
    assert_ne!(bobs.id, first.id);

    // Ten adds of a new place at once: one bookmark, and every add answers it.
    let place = format!("epubcfi(/6/8!/4/{})", "2/".repeat(400));
    let adds = (0..10).map(|_| {
        let mut c = app.client();
        let request = add(&place, "Chapter 3");
        let ann = &ann;
        async move { c.add_bookmark(req(request, Some(ann))).await }
    });
    let answers = futures::future::join_all(adds).await;
    let ids: std::collections::HashSet<String> = answers
        .into_iter()
        .map(|a| a.expect("every concurrent add succeeds").into_inner().id)
        .collect();
    assert_eq!(ids.len(), 1, "{ids:?}");
    let marks = list(&ann).await;
    assert_eq!(marks.len(), 3, "{marks:?}");
    assert_eq!(marks.iter().filter(|m| m.cfi == place).count(), 1);

    // Deleted, the place can be bookmarked anew.
    c.delete_bookmark(req(
        pb::DeleteBookmarkRequest {
            bookmark_id: first.id.clone(),
        },
        Some(&ann),
    ))
    .await
    .unwrap();
    let renewed = c
        .add_bookmark(req(add("epubcfi(/6/4!/4/2)", "Chapter 1"), Some(&ann)))
        .await
        .unwrap()
        .into_inner();
    assert_ne!(renewed.id, first.id);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_comment_may_hold_2000_characters_however_many_bytes_and_no_more() {
    let app = TestApp::spawn().await;
    let writer = app.user(&["writer"]).await;
    let ann = app.user(&["reader"]).await;
    let book = app
        .create_book(&writer, "Talk", vec![("t.epub", epub("Talk", 2, 3))], true)
        .await;
    let mut c = app.client();
    let add = |content: String| pb::AddCommentRequest {
        book_id: book.book_id.clone(),
        content,
    };
    for longest in ["é".repeat(2000), "x".repeat(2000), "\u{1F40B}".repeat(2000)] {
        let comment = c
            .add_comment(req(add(format!("  {longest}\n")), Some(&ann)))
            .await
            .unwrap_or_else(|e| panic!("{} bytes refused: {e:?}", longest.len()))
            .into_inner();
        assert_eq!(comment.content, longest);
    }
    for too_long in ["é".repeat(2001), "x".repeat(2001), "\u{1F40B}".repeat(2001)] {
        let refused = c
            .add_comment(req(add(too_long), Some(&ann)))
            .await
            .unwrap_err();
        assert_eq!(refused.code(), Code::InvalidArgument);
        assert!(refused.message().contains("content"), "{refused:?}");
        assert!(refused.message().contains("2000"), "{refused:?}");
    }
    let page = c
        .list_comments(req(
            pb::ListCommentsRequest {
                book_id: book.book_id.clone(),
                ..Default::default()
            },
            None,
        ))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(page.total, 3, "the refused ones changed nothing");
}
