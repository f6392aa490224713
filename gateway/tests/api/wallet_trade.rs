//! Buying a book through `GET /api/trade`: the buyer pays the price, the writer gets 90%,
//! both see it in their trade records, buying again charges nothing, and the buyer reads
//! the whole book at once.

use serde_json::json;

use crate::catalog_support::NewBook;
use crate::support::{TestApp, assert_bad_input, assert_failure};
use crate::wallet_support::{Sale, cents};

#[tokio::test(flavor = "multi_thread")]
async fn buying_a_listed_book_pays_the_writer_ninety_percent_and_opens_the_whole_book() {
    let app = TestApp::spawn().await;
    let Sale {
        writer,
        buyer: reader,
        book,
    } = app.sale(500, 12.0).await;
    let content = format!("/api/books/{}/content", book.book_id);
    assert_eq!(
        app.raw(&content, Some(&reader.token))
            .await
            .header("x-quire-access"),
        Some("trial")
    );
    app.open_wallet(&writer).await;

    let key = uuid::Uuid::new_v4().to_string();
    let bought = app
        .buy_with_key(&reader, &reader.id, &book.book_id, Some(&key))
        .await;
    assert_eq!(bought.status, 200, "{}", bought.body);
    assert_eq!(bought.cache_control.as_deref(), Some("no-store"));
    let trade = &bought.body["data"];
    assert_eq!(trade["buyer_uid"], reader.id.as_str());
    assert_eq!(trade["book_id"], book.book_id.as_str());
    assert_eq!(trade["seller_uid"], writer.id.as_str());
    assert_eq!(trade["title"], book.title.as_str());
    assert_eq!(cents(&trade["price"]), 500);
    assert_eq!(cents(&trade["seller_amount"]), 450);
    assert_eq!(cents(&trade["platform_amount"]), 50);
    assert_eq!(trade["replayed"], false);
    assert!(trade["trade_id"].is_string() && trade["created_at"].is_string());

    assert_eq!(app.balance(&reader).await, 7.0, "the buyer paid the price");
    let earnings = app.wallet_of(&writer).await;
    assert_eq!(cents(&earnings["balance"]), 450, "the writer got 90%");
    assert_eq!(cents(&earnings["earned"]), 450);

    for (who, role) in [(&reader, "bought"), (&writer, "sold")] {
        let list = app.records("/api/get_trade_records", who).await;
        assert_eq!(list.len(), 1, "{role}: {list:?}");
        assert_eq!(list[0]["trade_id"], trade["trade_id"]);
        assert_eq!(list[0]["role"], role);
        assert_eq!(cents(&list[0]["price"]), 500);
    }

    // The same key replays; buying again without it charges nothing either.
    let replay = app
        .buy_with_key(&reader, &reader.id, &book.book_id, Some(&key))
        .await;
    assert_eq!(replay.status, 200, "{}", replay.body);
    assert_eq!(replay.body["data"]["trade_id"], trade["trade_id"]);
    let again = app.buy(&reader, &reader.id, &book.book_id).await;
    assert_eq!(again.status, 200, "{}", again.body);
    assert_eq!(again.body["data"]["trade_id"], trade["trade_id"]);
    assert_eq!(again.body["data"]["replayed"], true);
    assert_eq!(app.balance(&reader).await, 7.0, "charged once");
    assert_eq!(app.balance(&writer).await, 4.5);
    assert_eq!(
        app.records("/api/get_trade_records", &reader).await.len(),
        1
    );

    // The very next read is whole: catalog asks the wallet when its projection has not
    // heard of the trade yet (the event follows a moment later and changes nothing).
    let r = app.raw(&content, Some(&reader.token)).await;
    assert_eq!(
        r.header("x-quire-access"),
        Some("full"),
        "the buyer reads the whole book right after buying"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_trade_without_enough_money_is_a_402_and_records_nothing() {
    let app = TestApp::spawn().await;
    let Sale {
        writer,
        buyer: reader,
        book,
    } = app.sale(500, 4.99).await;

    let r = app.buy(&reader, &reader.id, &book.book_id).await;
    assert_failure(r.status, &r.body, 402, None);
    assert_eq!(r.cache_control.as_deref(), Some("no-store"));
    assert_eq!(app.balance(&reader).await, 4.99);
    assert!(
        app.records("/api/get_trade_records", &reader)
            .await
            .is_empty()
    );
    assert!(
        app.records("/api/get_trade_records", &writer)
            .await
            .is_empty()
    );
    assert_eq!(
        app.raw(
            &format!("/api/books/{}/content", book.book_id),
            Some(&reader.token)
        )
        .await
        .header("x-quire-access"),
        Some("trial")
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn an_unknown_book_is_a_404_an_unlisted_one_a_409_and_buying_for_someone_else_a_403() {
    let app = TestApp::spawn().await;
    let Sale {
        writer,
        buyer: reader,
        book: listed,
    } = app.sale(499, 20.0).await;
    let other = app.reader_user().await;
    let unlisted = NewBook {
        publish: false,
        ..NewBook::default()
    };
    let unlisted = app.create_book(&writer, unlisted).await;

    let unknown = uuid::Uuid::new_v4().to_string();
    let r = app.buy(&reader, &reader.id, &unknown).await;
    assert_failure(r.status, &r.body, 404, None);
    let r = app.buy(&reader, &reader.id, &unlisted.book_id).await;
    assert_failure(r.status, &r.body, 409, None);
    let r = app.buy(&reader, &other.id, &listed.book_id).await;
    assert_failure(r.status, &r.body, 403, None);
    let r = app.buy(&other, &reader.id, &listed.book_id).await;
    assert_failure(r.status, &r.body, 403, None);
    // A writer cannot buy their own book.
    app.open_wallet(&writer).await;
    let r = app.buy(&writer, &writer.id, &listed.book_id).await;
    assert_failure(r.status, &r.body, 409, None);

    for (buyer, book, field) in [
        (reader.id.as_str(), "not-a-book", "book_id"),
        (reader.id.as_str(), "", "book_id"),
        ("not-a-user", listed.book_id.as_str(), "buyer_uid"),
    ] {
        let r = app.buy(&reader, buyer, book).await;
        assert_bad_input(r.status, &r.body, field);
    }
    let (s, body) = app
        .get(
            &format!("/api/trade?book_id={}", listed.book_id),
            Some(&reader.token),
        )
        .await;
    assert_eq!(s, 200, "buyer_uid defaults to the caller: {body}");
    assert_eq!(body["data"]["buyer_uid"], reader.id.as_str());

    assert_eq!(
        app.balance(&reader).await,
        15.01,
        "only the one purchase was paid"
    );
    let (s, body) = app
        .post(
            "/api/get_trade_records?page_size=100",
            json!({}),
            Some(&reader.token),
        )
        .await;
    assert_eq!(s, 200, "{body}");
    assert_eq!(body["data"]["total"], 1, "{body}");
}
