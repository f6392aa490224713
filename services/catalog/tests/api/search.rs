use quire_proto::catalog::v1 as pb;
use tonic::Code;

use crate::support::{TestApp, code, epub, eventually, req};

fn word() -> String {
    // Letters only, so the index sees one token nobody else uses.
    uuid::Uuid::new_v4()
        .simple()
        .to_string()
        .chars()
        .map(|c| {
            if c.is_ascii_digit() {
                (b'g' + (c as u8 - b'0')) as char
            } else {
                c
            }
        })
        .take(12)
        .collect()
}

async fn found(app: &TestApp, text: &str) -> Vec<String> {
    let reply = app
        .client()
        .search(req(
            pb::SearchRequest {
                query: text.into(),
                price_min_cents: -1,
                price_max_cents: -1,
                ..Default::default()
            },
            None,
        ))
        .await
        .unwrap()
        .into_inner();
    reply
        .hits
        .into_iter()
        .map(|h| h.book.unwrap().book_id)
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn switching_a_book_on_makes_it_searchable_and_off_removes_it() {
    let app = TestApp::spawn().await;
    let writer = app.user(&["writer"]).await;
    let w = word();
    let title = format!("The {w} Lighthouse");
    let book = app
        .create_book(&writer, &title, vec![("l.epub", epub(&title, 3, 4))], false)
        .await;
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    assert!(
        found(&app, &w).await.is_empty(),
        "an unlisted book is not found"
    );

    let mut c = app.client();
    let on = |on: bool| pb::SetPublishStatusRequest {
        user_id: writer.id.clone(),
        book_id: book.book_id.clone(),
        on,
    };
    let status = c
        .set_publish_status(req(on(true), Some(&writer)))
        .await
        .unwrap()
        .into_inner();
    assert!(status.on && status.listed);
    assert!(
        eventually(5, || async {
            found(&app, &w).await == vec![book.book_id.clone()]
        })
        .await,
        "a switched-on book is found within seconds"
    );
    let reply = c
        .search(req(
            pb::SearchRequest {
                query: w.clone(),
                price_min_cents: -1,
                price_max_cents: -1,
                ..Default::default()
            },
            None,
        ))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(reply.total, 1);
    assert!(reply.hits[0].match_percentage > 0);
    assert_eq!(reply.genre_counts.get("Fiction"), Some(&1));

    c.set_publish_status(req(on(false), Some(&writer)))
        .await
        .unwrap();
    assert!(
        eventually(5, || async { found(&app, &w).await.is_empty() }).await,
        "a switched-off book leaves the index"
    );

    // An admin's takedown wins over the writer's switch.
    c.set_publish_status(req(on(true), Some(&writer)))
        .await
        .unwrap();
    assert!(eventually(5, || async { !found(&app, &w).await.is_empty() }).await);
    let down = c
        .set_taken_down(req(
            pb::SetTakenDownRequest {
                book_id: book.book_id.clone(),
                taken_down: true,
                reason: "test".into(),
            },
            Some(&app.admin),
        ))
        .await
        .unwrap()
        .into_inner();
    assert!(down.taken_down && !down.listed && down.on);
    assert!(
        found(&app, &w).await.is_empty(),
        "a takedown hides the book at once"
    );
    let reader = app.user(&["reader"]).await;
    assert_eq!(
        code(
            c.get_book(req(
                pb::GetBookRequest {
                    book_id: book.book_id.clone()
                },
                Some(&reader)
            ))
            .await
        ),
        Code::NotFound
    );
    assert_eq!(
        code(
            c.set_taken_down(req(
                pb::SetTakenDownRequest {
                    book_id: book.book_id.clone(),
                    taken_down: false,
                    reason: String::new()
                },
                Some(&writer),
            ))
            .await
        ),
        Code::PermissionDenied
    );

    let bad = c
        .search(req(
            pb::SearchRequest {
                query: "x".into(),
                page_size: 101,
                ..Default::default()
            },
            None,
        ))
        .await;
    assert_eq!(code(bad), Code::InvalidArgument);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_new_replica_rebuilds_its_index_from_the_books_table_at_start() {
    let mut app = TestApp::spawn().await;
    let writer = app.user(&["writer"]).await;
    let w = word();
    let title = format!("{w} Harbour");
    let book = app
        .create_book(&writer, &title, vec![("r.epub", epub(&title, 2, 3))], true)
        .await;
    assert!(
        eventually(5, || async {
            found(&app, &w).await == vec![book.book_id.clone()]
        })
        .await
    );
    // Let the indexer commit its offsets, so the new replica gets no event for the book.
    tokio::time::sleep(std::time::Duration::from_secs(6)).await;
    app.restart_catalog().await;
    assert_eq!(
        found(&app, &w).await,
        vec![book.book_id.clone()],
        "found at once, from the rebuilt index"
    );
}
