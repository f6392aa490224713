use quire_proto::wallet::v1 as pb;
use tonic::Code;

use crate::support::{TestApp, WalletLedger, failure, req};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_same_key_replays_the_first_answer_and_moves_money_once() {
    let app = TestApp::spawn().await;
    let reader = app.user(&["reader"]).await;
    let writer = app.user(&["writer"]).await;
    let mut c = app.client();

    let recharge = pb::RechargeRequest {
        amount_cents: 1000,
        idempotency_key: "recharge-1".into(),
        ..Default::default()
    };
    let first = c
        .recharge(req(recharge.clone(), Some(&reader)))
        .await
        .unwrap()
        .into_inner();
    let again = c
        .recharge(req(recharge, Some(&reader)))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(first, again, "the stored answer, byte for byte");
    assert_eq!(app.balance(&reader).await, 1000);

    let consume = pb::ConsumeRequest {
        amount_cents: 300,
        idempotency_key: "spend-1".into(),
        memo: "tea".into(),
        ..Default::default()
    };
    let first = c
        .consume(req(consume.clone(), Some(&reader)))
        .await
        .unwrap()
        .into_inner();
    let again = c
        .consume(req(consume.clone(), Some(&reader)))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(first, again);
    assert_eq!(app.balance(&reader).await, 700);

    // The key belongs to the caller: another user's same key is another request.
    let other = app.user(&["reader"]).await;
    app.recharge(&other, 300).await;
    c.consume(req(consume, Some(&other))).await.unwrap();
    assert_eq!(app.balance(&other).await, 0);

    let top_up = pb::TopUpRequest {
        user_id: reader.id.clone(),
        amount_cents: 50,
        idempotency_key: "gift-1".into(),
        note: String::new(),
    };
    let first = c
        .top_up(req(top_up.clone(), Some(&app.admin)))
        .await
        .unwrap()
        .into_inner();
    let again = c
        .top_up(req(top_up, Some(&app.admin)))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(first, again);
    assert_eq!(app.balance(&reader).await, 750);

    let book = app.book(&writer, 200, true).await;
    let trade = pb::TradeRequest {
        buyer_uid: reader.id.clone(),
        book_id: book.book_id.clone(),
        idempotency_key: "buy-1".into(),
    };
    let first = c
        .trade(req(trade.clone(), Some(&reader)))
        .await
        .unwrap()
        .into_inner();
    let again = c
        .trade(req(trade, Some(&reader)))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(first, again);
    assert!(!first.replayed);
    assert_eq!(app.balance(&reader).await, 550);
    assert_eq!(app.balance(&writer).await, 180);
    app.assert_ledger_balances().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_same_key_with_another_request_is_a_409_that_moves_nothing() {
    let app = TestApp::spawn().await;
    let reader = app.user(&["reader"]).await;
    app.recharge(&reader, 1000).await;
    let mut c = app.client();
    let consume = |amount_cents| pb::ConsumeRequest {
        amount_cents,
        idempotency_key: "same-key".into(),
        ..Default::default()
    };
    c.consume(req(consume(100), Some(&reader))).await.unwrap();
    let reused = (Code::AlreadyExists, "idempotency_key_reused".to_owned());
    assert_eq!(
        failure(c.consume(req(consume(101), Some(&reader))).await),
        reused
    );
    // Another method under the same key is another request too.
    let recharge = pb::RechargeRequest {
        amount_cents: 100,
        idempotency_key: "same-key".into(),
        ..Default::default()
    };
    assert_eq!(
        failure(c.recharge(req(recharge, Some(&reader))).await),
        reused
    );
    assert_eq!(app.balance(&reader).await, 900);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_key_refused_for_lack_of_money_stays_refused_after_a_recharge() {
    let app = TestApp::spawn().await;
    let reader = app.user(&["reader"]).await;
    let writer = app.user(&["writer"]).await;
    let book = app.book(&writer, 500, true).await;
    app.recharge(&reader, 100).await;
    let mut c = app.client();
    let consume = pb::ConsumeRequest {
        amount_cents: 300,
        idempotency_key: "spend-too-much".into(),
        ..Default::default()
    };
    let trade = pb::TradeRequest {
        buyer_uid: reader.id.clone(),
        book_id: book.book_id.clone(),
        idempotency_key: "buy-too-dear".into(),
    };
    let refused = (Code::FailedPrecondition, "insufficient_funds".to_owned());
    assert_eq!(
        failure(c.consume(req(consume.clone(), Some(&reader))).await),
        refused
    );
    assert_eq!(
        failure(c.trade(req(trade.clone(), Some(&reader))).await),
        refused
    );

    // Enough money now; the client was told those two failed, so resending them must not
    // move anything, while the same requests under new keys go through.
    app.recharge(&reader, 1000).await;
    assert_eq!(
        failure(c.consume(req(consume.clone(), Some(&reader))).await),
        refused
    );
    assert_eq!(
        failure(c.trade(req(trade.clone(), Some(&reader))).await),
        refused
    );
    assert_eq!(app.balance(&reader).await, 1100);
    c.consume(req(
        pb::ConsumeRequest {
            idempotency_key: "spend-again".into(),
            ..consume
        },
        Some(&reader),
    ))
    .await
    .unwrap();
    c.trade(req(
        pb::TradeRequest {
            idempotency_key: "buy-again".into(),
            ..trade
        },
        Some(&reader),
    ))
    .await
    .unwrap();
    assert_eq!(app.balance(&reader).await, 300);
    app.assert_ledger_balances().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_duplicates_of_one_key_charge_once() {
    let app = TestApp::spawn().await;
    let reader = app.user(&["reader"]).await;
    app.recharge(&reader, 10_000).await;
    let spend = pb::ConsumeRequest {
        amount_cents: 700,
        idempotency_key: "double-click".into(),
        ..Default::default()
    };
    let recharge = pb::RechargeRequest {
        amount_cents: 300,
        idempotency_key: "double-recharge".into(),
        ..Default::default()
    };
    let mut tasks = Vec::new();
    for _ in 0..10 {
        let (mut c, spend, reader) = (app.client(), spend.clone(), reader.clone());
        tasks.push(tokio::spawn(async move {
            c.consume(req(spend, Some(&reader)))
                .await
                .map(|r| r.into_inner().transfer_id)
        }));
    }
    let mut recharges = Vec::new();
    for _ in 0..10 {
        let (mut c, recharge, reader) = (app.client(), recharge.clone(), reader.clone());
        recharges.push(tokio::spawn(async move {
            c.recharge(req(recharge, Some(&reader)))
                .await
                .map(|r| r.into_inner().record.unwrap().id)
        }));
    }
    let mut transfers = std::collections::HashSet::new();
    for t in tasks {
        transfers.insert(t.await.unwrap().expect("every duplicate is answered"));
    }
    let mut top_ups = std::collections::HashSet::new();
    for t in recharges {
        top_ups.insert(t.await.unwrap().expect("every duplicate is answered"));
    }
    assert_eq!(
        (transfers.len(), top_ups.len()),
        (1, 1),
        "one movement each, replayed to all"
    );
    assert_eq!(app.balance(&reader).await, 10_000 - 700 + 300);
    app.assert_ledger_balances().await;
}
