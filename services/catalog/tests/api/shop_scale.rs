//! The shop at scale (issue 35): unfiltered and by genre its totals are kept, not counted,
//! and follow every path that lists or unlists a book; other filters count only up to the
//! pages ahead and say when the total is a lower bound; a cursor pages as offsets do.

use diesel_async::RunQueryDsl;
use quire_proto::catalog::v1 as pb;

use crate::support::{TestApp, User, epub, req};

/// The shop's page for `filter`, its prices unbounded.
async fn shop(app: &TestApp, filter: pb::ListBooksRequest) -> pb::BookPage {
    priced(
        app,
        pb::ListBooksRequest {
            price_min_cents: -1,
            price_max_cents: -1,
            ..filter
        },
    )
    .await
}

async fn priced(app: &TestApp, filter: pb::ListBooksRequest) -> pb::BookPage {
    app.client()
        .list_books(req(filter, None))
        .await
        .expect("the shop answers")
        .into_inner()
}

async fn genre_total(app: &TestApp, genre: &str) -> (u64, bool) {
    let p = shop(
        app,
        pb::ListBooksRequest {
            genre: genre.into(),
            ..Default::default()
        },
    )
    .await;
    (p.total, p.total_at_least)
}

async fn set_genre(app: &TestApp, writer: &User, book_id: &str, genre: &str) {
    app.client()
        .update_book(req(
            pb::UpdateBookRequest {
                book_id: book_id.into(),
                genre: Some(genre.into()),
                ..Default::default()
            },
            Some(writer),
        ))
        .await
        .expect("the writer edits the genre");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kept_totals_follow_switches_take_downs_and_genre_edits() {
    let app = TestApp::spawn().await;
    let writer = app.user(&["writer"]).await;
    let mut ids = Vec::new();
    for title in ["Tide", "Reef", "Shoal"] {
        let b = app
            .create_book(&writer, title, vec![("b.epub", epub(title, 2, 3))], true)
            .await;
        ids.push(b.book_id);
    }
    let all = shop(&app, pb::ListBooksRequest::default()).await;
    assert_eq!((all.total, all.total_at_least), (3, false));
    // create_book files them under "Fiction".
    assert_eq!(genre_total(&app, "fiction").await, (3, false));

    // An edit of the genre moves the book between the genre's totals, whatever its case.
    set_genre(&app, &writer, &ids[0], "Mystery").await;
    assert_eq!(genre_total(&app, "MYSTERY").await, (1, false));
    assert_eq!(genre_total(&app, "Fiction").await, (2, false));
    let mystery = shop(
        &app,
        pb::ListBooksRequest {
            genre: "mystery".into(),
            ..Default::default()
        },
    )
    .await;
    assert_eq!(mystery.books.len(), 1);
    assert_eq!(mystery.books[0].book_id, ids[0]);

    // The writer's switch off, then an admin's take-down: each leaves the shop's total.
    app.client()
        .set_publish_status(req(
            pb::SetPublishStatusRequest {
                user_id: writer.id.clone(),
                book_id: ids[1].clone(),
                on: false,
            },
            Some(&writer),
        ))
        .await
        .expect("the writer switches the book off");
    app.client()
        .set_taken_down(req(
            pb::SetTakenDownRequest {
                book_id: ids[2].clone(),
                taken_down: true,
                reason: "a complaint".into(),
            },
            Some(&app.admin),
        ))
        .await
        .expect("an admin takes the book down");
    let all = shop(&app, pb::ListBooksRequest::default()).await;
    assert_eq!((all.total, all.books.len()), (1, 1));
    assert_eq!(genre_total(&app, "fiction").await, (0, false));
    assert_eq!(genre_total(&app, "mystery").await, (1, false));
    assert_eq!(
        genre_total(&app, "Horror").await,
        (0, false),
        "no such books"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn other_filters_count_up_to_the_pages_ahead_and_say_so() {
    let app = TestApp::spawn().await;
    let writer = app.user(&["writer"]).await;
    // 1,100 listed books of one tag in one statement (the kept totals count a bulk insert
    // once, by statement), and one book without it.
    diesel::sql_query(format!(
        "INSERT INTO books (id, title, author, price_cents, tags, genre, upload_writer_id, \
           writer_on, created_time) \
         SELECT gen_random_uuid(), 'Bulk ' || g, 'A. Writer', 100 + g, ARRAY['bulk'], \
           'Poetry', '{}', true, now() - g * interval '1 second' \
         FROM generate_series(1, 1100) AS g",
        writer.id
    ))
    .execute(&mut app.db().await)
    .await
    .unwrap();
    app.create_book(
        &writer,
        "Single",
        vec![("b.epub", epub("Single", 2, 3))],
        true,
    )
    .await;

    let all = shop(&app, pb::ListBooksRequest::default()).await;
    assert_eq!((all.total, all.total_at_least), (1101, false));
    assert_eq!(genre_total(&app, "poetry").await, (1100, false));

    let tagged = |page: u32| pb::ListBooksRequest {
        tags: vec!["bulk".into()],
        page,
        page_size: 10,
        ..Default::default()
    };
    // Page 1: counted up to 1,000 matches, so at least 1,000.
    let first = shop(&app, tagged(1)).await;
    assert_eq!((first.total, first.total_at_least), (1000, true));
    assert_eq!(first.books.len(), 10);
    // Page 100 (offset 990) looks ten pages ahead, to 1,090: still more.
    let deep = shop(&app, tagged(100)).await;
    assert_eq!((deep.total, deep.total_at_least), (1090, true));
    // Page 105 (offset 1,040) looks to 1,140 and sees them all.
    let end = shop(&app, tagged(105)).await;
    assert_eq!((end.total, end.total_at_least), (1100, false));
    assert_eq!(end.books.len(), 10);
    let last = shop(&app, tagged(110)).await;
    assert_eq!((last.total, last.books.len()), (1100, 10));
    assert!(shop(&app, tagged(111)).await.books.is_empty());

    // A filter that few books match is counted exactly.
    let cheap = priced(
        &app,
        pb::ListBooksRequest {
            price_min_cents: -1,
            price_max_cents: 110,
            ..Default::default()
        },
    )
    .await;
    assert_eq!((cheap.total, cheap.total_at_least), (10, false));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cursor_walks_every_sort_as_the_numbered_pages_do() {
    let app = TestApp::spawn().await;
    let writer = app.user(&["writer"]).await;
    // 23 books with ties in every key (4 prices, 5 creation times, repeated titles and
    // ratings), so the id must break them; one switched off, never listed.
    diesel::sql_query(format!(
        "INSERT INTO books (id, title, author, price_cents, genre, upload_writer_id, \
           writer_on, created_time, rating_count, rating_sum) \
         SELECT gen_random_uuid(), 'Title ' || (g % 6), 'A. Writer', 100 * (g % 4), \
           'Poetry', '{}', g <> 13, \
           TIMESTAMPTZ '2026-01-01' + (g % 5) * interval '1 hour', g % 3, (g % 3) * (g % 5 + 1) \
         FROM generate_series(1, 24) AS g",
        writer.id
    ))
    .execute(&mut app.db().await)
    .await
    .unwrap();
    let page = |sort: &str, page: u32, after: &str| pb::ListBooksRequest {
        sort: sort.into(),
        page,
        page_size: 5,
        after: after.into(),
        ..Default::default()
    };
    for sort in [
        "newest",
        "oldest",
        "price_asc",
        "price_desc",
        "title",
        "rating",
    ] {
        let mut by_number = Vec::new();
        for n in 1..=5 {
            let p = shop(&app, page(sort, n, "")).await;
            by_number.extend(p.books.into_iter().map(|b| b.book_id));
        }
        let mut by_cursor = Vec::new();
        let mut after = String::new();
        for n in 1..=6 {
            let p = shop(&app, page(sort, n, &after)).await;
            assert_eq!(
                p.total, 23,
                "{sort}: the total is the list's, not what is left"
            );
            by_cursor.extend(p.books.into_iter().map(|b| b.book_id));
            after = p.next_after;
            if after.is_empty() {
                break;
            }
        }
        assert_eq!(by_cursor.len(), 23, "{sort}: every listed book once");
        assert_eq!(by_cursor, by_number, "{sort}: the same order both ways");
    }

    // A cursor of another sort, or made up, is a 400 naming `after`.
    let newest = shop(&app, page("newest", 1, "")).await;
    let wrong = app
        .client()
        .list_books(req(
            pb::ListBooksRequest {
                price_min_cents: -1,
                price_max_cents: -1,
                ..page("title", 2, &newest.next_after)
            },
            None,
        ))
        .await
        .expect_err("a cursor of another sort");
    assert_eq!(wrong.code(), tonic::Code::InvalidArgument);
    assert!(wrong.message().contains("after"), "{}", wrong.message());
}
