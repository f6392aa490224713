//! The trade projection: a bought book is never recommended to its buyer, and a trade seen
//! twice counts once.

use diesel::prelude::*;
use diesel_async::RunQueryDsl;

use crate::support::{TestApp, conversation_id, ids, stocked};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bought_books_are_left_out_and_a_trade_counts_once() {
    let app = TestApp::spawn().await;
    let (shelf, token) = stocked(&app).await;
    let reader = app.user(&["reader"]).await;
    let cosy_bakery = &shelf[0];

    // As wallet names its trades.
    let trade_id = uuid::Uuid::now_v7().to_string();
    let first = app.trade(&trade_id, &reader, cosy_bakery).await;
    app.until_processed(first).await;
    // The same trade again (a relay resend under a new event id) changes nothing.
    let again = app.trade(&trade_id, &reader, cosy_bakery).await;
    app.until_processed(again).await;

    use quire_chat::db::schema::{purchases, sales};
    let mut conn = quire_kit::db::conn(&app.pool).await.unwrap();
    let sold: i32 = sales::table
        .find(uuid::Uuid::parse_str(cosy_bakery).unwrap())
        .select(sales::count)
        .first(&mut conn)
        .await
        .unwrap();
    assert_eq!(sold, 1, "one trade, one sale");
    let bought: i64 = purchases::table
        .filter(purchases::buyer.eq(reader.uuid()))
        .count()
        .get_result(&mut conn)
        .await
        .unwrap();
    assert_eq!(bought, 1);

    // Every cosy book but the one bought.
    let reply = app
        .recommend(
            &reader,
            &conversation_id(),
            &format!("cosy village bakery {token}"),
            20,
        )
        .await
        .unwrap();
    assert!(!reply.books.is_empty());
    assert!(
        !ids(&reply).contains(cosy_bakery),
        "a bought book was recommended"
    );

    // Someone who did not buy it may well be shown it.
    let other = app.user(&["reader"]).await;
    let theirs = app
        .recommend(
            &other,
            &conversation_id(),
            &format!("cosy village bakery {token}"),
            20,
        )
        .await
        .unwrap();
    assert!(ids(&theirs).contains(cosy_bakery), "{:?}", ids(&theirs));
}
