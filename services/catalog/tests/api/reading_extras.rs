use quire_proto::catalog::v1 as pb;
use tonic::Code;

use crate::support::{TestApp, code, epub, eventually, req};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn comments_can_be_written_read_and_deleted_by_their_author_or_an_admin() {
    let app = TestApp::spawn().await;
    let writer = app.user(&["writer"]).await;
    let ann = app.user(&["reader"]).await;
    let bob = app.user(&["reader"]).await;
    let book = app
        .create_book(&writer, "Talk", vec![("t.epub", epub("Talk", 2, 3))], true)
        .await;
    let mut c = app.client();
    let add = |content: &str| pb::AddCommentRequest {
        book_id: book.book_id.clone(),
        content: content.into(),
    };
    let first = c
        .add_comment(req(add("  Lovely book  "), Some(&ann)))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(first.content, "Lovely book");
    assert!(first.deletable);
    let second = c
        .add_comment(req(add("Agreed"), Some(&bob)))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        code(c.add_comment(req(add("anon"), None)).await),
        Code::Unauthenticated
    );
    assert_eq!(
        code(c.add_comment(req(add("   "), Some(&ann))).await),
        Code::InvalidArgument
    );
    assert_eq!(
        code(c.add_comment(req(add(&"x".repeat(2001)), Some(&ann))).await),
        Code::InvalidArgument
    );

    let page = c
        .list_comments(req(
            pb::ListCommentsRequest {
                book_id: book.book_id.clone(),
                ..Default::default()
            },
            Some(&ann),
        ))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(page.total, 2);
    assert_eq!(page.comments[0].id, second.id, "newest first");
    assert!(!page.comments[0].deletable && page.comments[1].deletable);
    assert!(!page.comments[0].username.is_empty());
    // Names come from the user.registered projection.
    let named = eventually(15, || async {
        let page = app
            .client()
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
        page.comments[0].username == bob.name && page.comments[1].username == ann.name
    })
    .await;
    assert!(named, "comments show the authors' names");

    let del = |id: &str| pb::DeleteCommentRequest {
        comment_id: id.into(),
    };
    assert_eq!(
        code(c.delete_comment(req(del(&second.id), Some(&ann))).await),
        Code::PermissionDenied
    );
    c.delete_comment(req(del(&second.id), Some(&bob)))
        .await
        .unwrap();
    c.delete_comment(req(del(&first.id), Some(&app.admin)))
        .await
        .unwrap();
    assert_eq!(
        code(c.delete_comment(req(del(&first.id), Some(&ann))).await),
        Code::NotFound
    );
    let book_view = c
        .get_book(req(
            pb::GetBookRequest {
                book_id: book.book_id.clone(),
            },
            None,
        ))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(book_view.comment_count, 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bookmarks_progress_favourites_and_history_round_trip() {
    let app = TestApp::spawn().await;
    let writer = app.user(&["writer"]).await;
    let ann = app.user(&["reader"]).await;
    let bob = app.user(&["reader"]).await;
    let one = app
        .create_book(&writer, "One", vec![("1.epub", epub("One", 2, 3))], true)
        .await;
    let two = app
        .create_book(&writer, "Two", vec![("2.epub", epub("Two", 2, 4))], true)
        .await;
    let mut c = app.client();

    // Bookmarks belong to their reader.
    let mark = c
        .add_bookmark(req(
            pb::AddBookmarkRequest {
                book_id: one.book_id.clone(),
                cfi: "epubcfi(/6/4!/4/2)".into(),
                title: "Start".into(),
            },
            Some(&ann),
        ))
        .await
        .unwrap()
        .into_inner();
    let list = |user| {
        let mut c = app.client();
        let book_id = one.book_id.clone();
        async move {
            c.list_bookmarks(req(pb::ListBookmarksRequest { book_id }, Some(user)))
                .await
                .unwrap()
                .into_inner()
                .bookmarks
        }
    };
    assert_eq!(list(&ann).await.len(), 1);
    assert!(list(&bob).await.is_empty());
    let del = pb::DeleteBookmarkRequest {
        bookmark_id: mark.id.clone(),
    };
    assert_eq!(
        code(c.delete_bookmark(req(del.clone(), Some(&bob))).await),
        Code::PermissionDenied
    );
    c.delete_bookmark(req(del.clone(), Some(&ann)))
        .await
        .unwrap();
    assert!(list(&ann).await.is_empty());
    assert_eq!(
        code(c.delete_bookmark(req(del, Some(&ann))).await),
        Code::NotFound
    );

    // Progress, which also fills the history.
    let never = c
        .get_progress(req(
            pb::GetProgressRequest {
                book_id: one.book_id.clone(),
            },
            Some(&ann),
        ))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(never.position, "");
    for (book, pct) in [(&one, 12.5), (&two, 40.0)] {
        c.set_progress(req(
            pb::SetProgressRequest {
                book_id: book.book_id.clone(),
                position: "epubcfi(/6/2)".into(),
                percent: pct,
            },
            Some(&ann),
        ))
        .await
        .unwrap();
    }
    let saved = c
        .get_progress(req(
            pb::GetProgressRequest {
                book_id: one.book_id.clone(),
            },
            Some(&ann),
        ))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        (saved.position.as_str(), saved.percent),
        ("epubcfi(/6/2)", 12.5)
    );
    for bad in [-1.0, 100.5, f64::NAN] {
        let r = c
            .set_progress(req(
                pb::SetProgressRequest {
                    book_id: one.book_id.clone(),
                    position: "x".into(),
                    percent: bad,
                },
                Some(&ann),
            ))
            .await;
        assert_eq!(code(r), Code::InvalidArgument);
    }
    let history = c
        .list_history(req(pb::ListHistoryRequest { limit: 0 }, Some(&ann)))
        .await
        .unwrap()
        .into_inner();
    let order: Vec<_> = history
        .entries
        .iter()
        .map(|e| e.book.as_ref().unwrap().title.as_str())
        .collect();
    assert_eq!(order, ["Two", "One"], "most recent first");
    assert_eq!(history.entries[0].percent, 40.0);
    assert!(
        c.list_history(req(pb::ListHistoryRequest { limit: 0 }, Some(&bob)))
            .await
            .unwrap()
            .into_inner()
            .entries
            .is_empty()
    );

    // Favourites are idempotent both ways.
    let fav = pb::FavouriteRequest {
        book_id: two.book_id.clone(),
    };
    c.add_favourite(req(fav.clone(), Some(&ann))).await.unwrap();
    c.add_favourite(req(fav.clone(), Some(&ann))).await.unwrap();
    let favs = c
        .list_favourites(req(pb::ListFavouritesRequest {}, Some(&ann)))
        .await
        .unwrap()
        .into_inner()
        .books;
    assert_eq!(favs.len(), 1);
    assert!(favs[0].favourite);
    c.remove_favourite(req(fav.clone(), Some(&ann)))
        .await
        .unwrap();
    c.remove_favourite(req(fav, Some(&ann))).await.unwrap();
    assert!(
        c.list_favourites(req(pb::ListFavouritesRequest {}, Some(&ann)))
            .await
            .unwrap()
            .into_inner()
            .books
            .is_empty()
    );
    assert_eq!(
        code(
            c.list_favourites(req(pb::ListFavouritesRequest {}, None))
                .await
        ),
        Code::Unauthenticated
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_publisher_puts_listed_books_on_a_shelf() {
    let app = TestApp::spawn().await;
    let writer = app.user(&["writer"]).await;
    let publisher = app.user(&["publisher"]).await;
    let listed = app
        .create_book(
            &writer,
            "Shelved",
            vec![("s.epub", epub("Shelved", 2, 3))],
            true,
        )
        .await;
    let unlisted = app
        .create_book(
            &writer,
            "Draft",
            vec![("d.epub", epub("Draft", 2, 4))],
            false,
        )
        .await;
    let mut c = app.client();
    let switch = |book: &pb::Book, on| pb::SetPublishStatusRequest {
        user_id: publisher.id.clone(),
        book_id: book.book_id.clone(),
        on,
    };
    let status = c
        .set_publish_status(req(switch(&listed, true), Some(&publisher)))
        .await
        .unwrap()
        .into_inner();
    assert!(status.on && status.listed);
    assert_eq!(
        code(
            c.set_publish_status(req(switch(&unlisted, true), Some(&publisher)))
                .await
        ),
        Code::NotFound
    );
    let shelf = c
        .get_shelf(req(
            pb::GetShelfRequest {
                publisher_id: publisher.id.clone(),
            },
            None,
        ))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(shelf.books.len(), 1);
    assert_eq!(shelf.books[0].id, listed.book_id);
    assert!(shelf.books[0].spine_image.ends_with("/spine"));
    let publishers = c
        .list_publishers(req(pb::ListPublishersRequest {}, None))
        .await
        .unwrap()
        .into_inner()
        .publishers;
    assert_eq!(publishers.len(), 1);
    assert_eq!(publishers[0].book_count, 1);
    c.set_publish_status(req(switch(&listed, false), Some(&publisher)))
        .await
        .unwrap();
    let shelf = c
        .get_shelf(req(
            pb::GetShelfRequest {
                publisher_id: publisher.id.clone(),
            },
            None,
        ))
        .await
        .unwrap()
        .into_inner();
    assert!(shelf.books.is_empty());
}
