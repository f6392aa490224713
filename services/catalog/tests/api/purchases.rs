use quire_proto::catalog::v1 as pb;
use uuid::Uuid;

use crate::support::{TestApp, epub, eventually, req};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_completed_trade_lets_the_buyer_read_the_whole_book_and_counts_once() {
    let app = TestApp::spawn().await;
    let writer = app.user(&["writer"]).await;
    let reader = app.user(&["reader"]).await;
    let file = epub("Harbour", 8, 20);
    let book = app
        .create_book(&writer, "Harbour", vec![("h.epub", file.clone())], true)
        .await;
    let (meta, _) = app.content(&book.book_id, Some(&reader)).await.unwrap();
    assert_eq!(meta.access, "trial");

    let (event_id, trade_id) = (Uuid::now_v7(), Uuid::now_v7());
    app.produce_trade(event_id, trade_id, &reader.id, &book)
        .await;
    // The same event again (a relay resend) and a second trade of the same book.
    app.produce_trade(event_id, trade_id, &reader.id, &book)
        .await;
    app.produce_trade(Uuid::now_v7(), Uuid::now_v7(), &reader.id, &book)
        .await;

    let entitled = eventually(20, || async {
        matches!(app.content(&book.book_id, Some(&reader)).await, Ok((m, _)) if m.access == "full")
    })
    .await;
    assert!(entitled, "the buyer reads the whole book after the trade");
    let (_, whole) = app.content(&book.book_id, Some(&reader)).await.unwrap();
    assert_eq!(whole, file);

    // Give the duplicates time to arrive, then count.
    tokio::time::sleep(std::time::Duration::from_secs(2)).await;
    let bought = app
        .client()
        .get_bought_books(req(
            pb::GetBoughtBooksRequest {
                uid: reader.id.clone(),
            },
            Some(&reader),
        ))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(bought.books.len(), 1, "exactly one purchase");
    assert!(bought.books[0].bought && bought.books[0].entitled);

    // Someone else's purchases are not theirs to see; an admin may.
    let other = app.user(&["reader"]).await;
    let denied = app
        .client()
        .get_bought_books(req(
            pb::GetBoughtBooksRequest {
                uid: reader.id.clone(),
            },
            Some(&other),
        ))
        .await
        .unwrap_err();
    assert_eq!(denied.code(), tonic::Code::PermissionDenied);
    let by_admin = app
        .client()
        .get_bought_books(req(
            pb::GetBoughtBooksRequest {
                uid: reader.id.clone(),
            },
            Some(&app.admin),
        ))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(by_admin.books.len(), 1);
    let (meta, _) = app.content(&book.book_id, Some(&other)).await.unwrap();
    assert_eq!(meta.access, "trial");

    // The writer takes the book out of the shop: the buyer still reads it whole, others
    // no longer find it.
    app.client()
        .set_publish_status(req(
            pb::SetPublishStatusRequest {
                user_id: writer.id.clone(),
                book_id: book.book_id.clone(),
                on: false,
            },
            Some(&writer),
        ))
        .await
        .unwrap();
    let (meta, kept) = app.content(&book.book_id, Some(&reader)).await.unwrap();
    assert_eq!((meta.access.as_str(), kept), ("full", file));
    let gone = app.content(&book.book_id, Some(&other)).await.unwrap_err();
    assert_eq!(gone.code(), tonic::Code::NotFound);
}
