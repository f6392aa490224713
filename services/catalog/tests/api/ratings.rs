//! Readers' ratings: only a reader who bought the book rates it, 1 to 5 stars, one rating
//! per reader (a second replaces the first), and every list shows the average and count;
//! "Featured" (sort=rating) ranks by readers, and the analysis's score stays the writer's.

use quire_proto::catalog::v1 as pb;
use quire_test_stack::User;
use tonic::Code;
use uuid::Uuid;

use crate::support::{TestApp, code, epub, eventually, req};

async fn rate(
    app: &TestApp,
    who: &User,
    book: &pb::Book,
    stars: u32,
) -> Result<pb::BookRating, tonic::Status> {
    app.client()
        .rate_book(req(
            pb::RateBookRequest {
                book_id: book.book_id.clone(),
                stars,
            },
            Some(who),
        ))
        .await
        .map(tonic::Response::into_inner)
}

async fn get(app: &TestApp, who: Option<&User>, book: &pb::Book) -> pb::Book {
    app.client()
        .get_book(req(
            pb::GetBookRequest {
                book_id: book.book_id.clone(),
            },
            who,
        ))
        .await
        .unwrap()
        .into_inner()
}

/// `reader` buys `book` (the trade event), and the catalog has seen it.
async fn buy(app: &TestApp, reader: &User, book: &pb::Book) {
    app.produce_trade(Uuid::now_v7(), Uuid::now_v7(), &reader.id, book)
        .await;
    let seen = eventually(20, || async { get(app, Some(reader), book).await.bought }).await;
    assert!(seen, "the purchase reached the catalog");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn owners_rate_one_to_five_stars_once_each_and_lists_show_the_average() {
    let app = TestApp::spawn().await;
    let writer = app.user(&["writer"]).await;
    let ann = app.user(&["reader"]).await;
    let bob = app.user(&["reader"]).await;
    let stranger = app.user(&["reader"]).await;
    let book = app
        .create_book(
            &writer,
            "Rated",
            vec![("r.epub", epub("Rated", 2, 3))],
            true,
        )
        .await;
    assert_eq!(book.rating_count, 0, "a new book has no ratings");

    // Not bought: refused, and nothing is counted. The writer may not rate their own book.
    assert_eq!(
        code(
            rate(&app, &stranger, &book, 5)
                .await
                .map(tonic::Response::new)
        ),
        Code::PermissionDenied
    );
    assert_eq!(
        code(
            rate(&app, &writer, &book, 5)
                .await
                .map(tonic::Response::new)
        ),
        Code::PermissionDenied
    );
    assert_eq!(get(&app, None, &book).await.rating_count, 0);

    buy(&app, &ann, &book).await;
    buy(&app, &bob, &book).await;
    for bad in [0, 6, 100] {
        assert_eq!(
            code(rate(&app, &ann, &book, bad).await.map(tonic::Response::new)),
            Code::InvalidArgument,
            "{bad} stars"
        );
    }
    assert_eq!(get(&app, None, &book).await.rating_count, 0);

    let r = rate(&app, &ann, &book, 2).await.unwrap();
    assert_eq!((r.count, r.average, r.my_stars), (1, 2.0, 2));
    // Ann changes her mind: still one rating of hers.
    let r = rate(&app, &ann, &book, 4).await.unwrap();
    assert_eq!((r.count, r.average), (1, 4.0));
    let r = rate(&app, &bob, &book, 5).await.unwrap();
    assert_eq!((r.count, r.average), (2, 4.5));

    let seen = get(&app, Some(&ann), &book).await;
    assert_eq!(
        (seen.rating_count, seen.rating_average, seen.my_rating),
        (2, 4.5, 4)
    );
    let anonymous = get(&app, None, &book).await;
    assert_eq!((anonymous.rating_count, anonymous.my_rating), (2, 0));
    let rows = app
        .client()
        .get_books(req(
            pb::GetBooksRequest {
                book_ids: vec![book.book_id.clone()],
                ..Default::default()
            },
            None,
        ))
        .await
        .unwrap()
        .into_inner()
        .books;
    assert_eq!(rows[0].rating_average, 4.5, "lists show it too");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn featured_ranks_by_readers_and_the_analysis_score_is_the_writers() {
    let app = TestApp::spawn().await;
    let writer = app.user(&["writer"]).await;
    let reader = app.user(&["reader"]).await;
    let genre = format!("Rankers {}", Uuid::now_v7());
    let create = |title: &str, score: f64| {
        let mut c = app.client();
        let (writer, genre, title) = (writer.clone(), genre.clone(), title.to_owned());
        async move {
            c.create_book(req(
                pb::CreateBookRequest {
                    title: title.clone(),
                    price_cents: 499,
                    genre,
                    assessment_score: score,
                    files: vec![pb::UploadedFile {
                        file_name: "b.epub".into(),
                        data: epub(&title, 2, 3),
                    }],
                    publish: true,
                    ..Default::default()
                },
                Some(&writer),
            ))
            .await
            .unwrap()
            .into_inner()
        }
    };
    // The machine loves the new book; readers loved the other.
    let unread = create("Unread", 99.0).await;
    let liked = create("Liked", 40.0).await;
    let disliked = create("Disliked", 80.0).await;
    buy(&app, &reader, &liked).await;
    buy(&app, &reader, &disliked).await;
    rate(&app, &reader, &liked, 5).await.unwrap();
    rate(&app, &reader, &disliked, 1).await.unwrap();

    let page = app
        .client()
        .list_books(req(
            pb::ListBooksRequest {
                genre: genre.clone(),
                sort: "rating".into(),
                price_min_cents: -1,
                price_max_cents: -1,
                ..Default::default()
            },
            None,
        ))
        .await
        .unwrap()
        .into_inner();
    let titles: Vec<&str> = page.books.iter().map(|b| b.title.as_str()).collect();
    assert_eq!(titles, ["Liked", "Unread", "Disliked"]);
    assert!(
        page.books.iter().all(|b| b.assessment_score.is_none()),
        "readers never see the analysis's score"
    );
    assert_eq!(
        get(&app, Some(&writer), &unread).await.assessment_score,
        Some(99.0)
    );
    assert_eq!(
        get(&app, Some(&reader), &unread).await.assessment_score,
        None
    );
    // The old machine-score sort is gone.
    let old = app
        .client()
        .list_books(req(
            pb::ListBooksRequest {
                sort: "score".into(),
                price_min_cents: -1,
                price_max_cents: -1,
                ..Default::default()
            },
            None,
        ))
        .await;
    assert_eq!(code(old), Code::InvalidArgument);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn prices_stay_within_the_bounds_of_an_ebook_store() {
    let app = TestApp::spawn().await;
    let writer = app.user(&["writer"]).await;
    let book = app
        .create_book(
            &writer,
            "Priced",
            vec![("p.epub", epub("Priced", 2, 3))],
            true,
        )
        .await;
    let set = |cents: i64| {
        let mut c = app.client();
        let (writer, id) = (writer.clone(), book.book_id.clone());
        async move {
            c.update_book(req(
                pb::UpdateBookRequest {
                    uid: writer.id.clone(),
                    book_id: id,
                    price_cents: Some(cents),
                    ..Default::default()
                },
                Some(&writer),
            ))
            .await
        }
    };
    for bad in [1_000_000, 20_001, 98, 1] {
        let refused = set(bad).await.unwrap_err();
        assert_eq!(refused.code(), Code::InvalidArgument, "{bad}");
        assert!(
            refused.message().contains("200.00"),
            "{}",
            refused.message()
        );
    }
    assert_eq!(
        get(&app, Some(&writer), &book).await.price_cents,
        499,
        "nothing changed"
    );
    for good in [0, 99, 20_000] {
        let saved = set(good).await.unwrap().into_inner();
        assert_eq!(saved.price_cents, good);
    }
}
