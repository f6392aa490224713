use quire_proto::wallet::v1 as pb;
use quire_wallet::ledger::Account;
use tonic::Code;

use crate::support::{TestApp, WalletLedger, failure, req};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_trade_splits_the_price_exactly_and_announces_it_once() {
    let app = TestApp::spawn().await;
    let writer = app.user(&["writer"]).await;
    let reader = app.user(&["reader"]).await;
    let book = app.book(&writer, 499, true).await;
    app.recharge(&reader, 1000).await;

    let trade = app.buy(&reader, &book.book_id).await.unwrap();
    assert_eq!(
        (trade.price_cents, trade.seller_cents, trade.platform_cents),
        (499, 449, 50),
        "the writer gets floor(0.9 * price), the platform the rest"
    );
    assert_eq!(
        (trade.buyer_uid.as_str(), trade.seller_uid.as_str()),
        (reader.id.as_str(), writer.id.as_str())
    );
    assert_eq!(trade.title, book.title);
    assert!(!trade.replayed);
    assert_eq!(app.balance(&reader).await, 501);
    assert_eq!(app.balance(&writer).await, 449);
    assert_eq!(app.ledger_balance(Account::Platform).await, 50);
    app.assert_ledger_balances().await;

    let events = app.trade_events(&trade.trade_id).await;
    assert_eq!(events.len(), 1, "one trade.completed on the broker");
    let e = &events[0];
    assert_eq!(
        (
            e.trade_id.as_str(),
            e.buyer_uid.as_str(),
            e.book_id.as_str(),
            e.seller_uid.as_str()
        ),
        (
            trade.trade_id.as_str(),
            reader.id.as_str(),
            book.book_id.as_str(),
            writer.id.as_str()
        )
    );
    assert_eq!(
        (e.price_cents, e.seller_cents, e.platform_cents),
        (499, 449, 50)
    );
    assert_eq!(e.completed_at, trade.created_at);

    // The buyer's and the seller's lists show it; catalog may ask whether it was bought.
    let mut c = app.client();
    for user in [&reader, &writer] {
        let list = c
            .list_trades(req(pb::ListTradesRequest::default(), Some(user)))
            .await
            .unwrap()
            .into_inner();
        assert_eq!(list.trades, vec![trade.clone()]);
    }
    let purchase = c
        .get_purchase(req(
            pb::GetPurchaseRequest {
                user_id: reader.id.clone(),
                book_id: book.book_id.clone(),
            },
            Some(&reader),
        ))
        .await
        .unwrap()
        .into_inner();
    assert!(purchase.bought);
    assert_eq!(purchase.trade.unwrap(), trade);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn buying_a_book_again_charges_nothing_and_answers_the_first_trade() {
    let app = TestApp::spawn().await;
    let writer = app.user(&["writer"]).await;
    let reader = app.user(&["reader"]).await;
    let book = app.book(&writer, 300, true).await;
    app.recharge(&reader, 1000).await;
    let first = app.buy(&reader, &book.book_id).await.unwrap();
    let again = app.buy(&reader, &book.book_id).await.unwrap();
    assert!(again.replayed);
    assert_eq!(
        pb::Trade {
            replayed: false,
            ..again
        },
        first
    );
    // Even once the writer took the book out of the shop.
    app.catalog
        .clone()
        .set_publish_status(req(
            quire_proto::catalog::v1::SetPublishStatusRequest {
                user_id: writer.id.clone(),
                book_id: book.book_id.clone(),
                on: false,
            },
            Some(&writer),
        ))
        .await
        .unwrap();
    assert_eq!(
        app.buy(&reader, &book.book_id).await.unwrap().trade_id,
        first.trade_id
    );
    // An admin buying it for the reader gets the same answer.
    let for_reader = pb::TradeRequest {
        buyer_uid: reader.id.clone(),
        book_id: book.book_id.clone(),
        ..Default::default()
    };
    let by_admin = app
        .client()
        .trade(req(for_reader, Some(&app.admin)))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(by_admin.trade_id, first.trade_id);
    assert_eq!(app.balance(&reader).await, 700);
    assert_eq!(app.balance(&writer).await, 270);
    app.assert_ledger_balances().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unknown_unlisted_and_own_books_are_refused_without_moving_money() {
    let app = TestApp::spawn().await;
    let writer = app.user(&["writer"]).await;
    let reader = app.user(&["reader"]).await;
    app.recharge(&reader, 1000).await;
    app.recharge(&writer, 1000).await;

    let unknown = app.buy(&reader, &uuid::Uuid::now_v7().to_string()).await;
    assert_eq!(failure(unknown).0, Code::NotFound);
    let hidden = app.book(&writer, 100, false).await;
    assert_eq!(
        failure(app.buy(&reader, &hidden.book_id).await),
        (Code::AlreadyExists, "book_not_for_sale".into())
    );
    let listed = app.book(&writer, 100, true).await;
    assert_eq!(
        failure(app.buy(&writer, &listed.book_id).await),
        (Code::AlreadyExists, "own_book".into())
    );
    assert_eq!(app.balance(&reader).await, 1000);
    assert_eq!(app.balance(&writer).await, 1000);
    let trades = app
        .client()
        .list_trades(req(
            pb::ListTradesRequest {
                all: true,
                ..Default::default()
            },
            Some(&app.admin),
        ))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(trades.total, 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn too_little_money_is_a_402_that_records_nothing_and_a_free_book_moves_none() {
    let app = TestApp::spawn().await;
    let writer = app.user(&["writer"]).await;
    let reader = app.user(&["reader"]).await;
    let priced = app.book(&writer, 250, true).await;
    let free = app.book(&writer, 0, true).await;

    // No wallet at all is a balance of 0.
    assert_eq!(
        failure(app.buy(&reader, &priced.book_id).await),
        (Code::FailedPrecondition, "insufficient_funds".into())
    );
    app.recharge(&reader, 249).await;
    assert_eq!(
        failure(app.buy(&reader, &priced.book_id).await).1,
        "insufficient_funds"
    );
    assert_eq!(app.balance(&reader).await, 249);
    let purchase = pb::GetPurchaseRequest {
        user_id: reader.id.clone(),
        book_id: priced.book_id.clone(),
    };
    let bought = app
        .client()
        .get_purchase(req(purchase, Some(&reader)))
        .await
        .unwrap()
        .into_inner();
    assert!(!bought.bought, "a refused trade is not recorded");

    let gift = app.buy(&reader, &free.book_id).await.unwrap();
    assert_eq!(
        (gift.price_cents, gift.seller_cents, gift.platform_cents),
        (0, 0, 0)
    );
    assert_eq!(app.balance(&reader).await, 249);
    assert_eq!(
        app.trade_events(&gift.trade_id).await.len(),
        1,
        "a free trade is announced too"
    );

    app.recharge(&reader, 1).await;
    app.buy(&reader, &priced.book_id).await.unwrap();
    assert_eq!(app.balance(&reader).await, 0);
    app.assert_ledger_balances().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_trade_while_catalog_is_down_is_a_503_that_moves_nothing() {
    let mut app = TestApp::spawn().await;
    let writer = app.user(&["writer"]).await;
    let reader = app.user(&["reader"]).await;
    let book = app.book(&writer, 100, true).await;
    app.recharge(&reader, 1000).await;
    // A port nothing listens on.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", closed.local_addr().unwrap());
    drop(closed);
    app.restart_wallet(|config| config.catalog_url = url).await;
    let (code, reason) = failure(app.buy(&reader, &book.book_id).await);
    assert_eq!((code, reason.as_str()), (Code::Unavailable, "unavailable"));
    assert_eq!(app.balance(&reader).await, 1000);
}
