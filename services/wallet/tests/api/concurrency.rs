use quire_wallet::ledger::Account;
use tonic::Code;

use crate::support::{TestApp, User, WalletLedger, req};

/// Four users who write and buy each other's books and spend, all at once: wallets are
/// debited and credited in every order, so a lock-order mistake would deadlock and a
/// missing check would overdraw.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn seventy_concurrent_trades_and_spends_never_overdraw_and_the_ledger_balances() {
    use quire_proto::wallet::v1 as pb;
    let app = TestApp::spawn().await;
    let mut users: Vec<User> = Vec::new();
    for _ in 0..4 {
        users.push(app.user(&["writer", "reader"]).await);
    }
    let mut books = Vec::new();
    for (i, writer) in users.iter().enumerate() {
        for _ in 0..2 {
            books.push((i, app.book(writer, 100, true).await.book_id));
        }
    }
    for user in &users {
        app.recharge(user, 800).await;
    }

    enum Call {
        Trade(usize, String),
        Spend(usize),
    }
    let mut calls = Vec::new();
    for (buyer, _) in users.iter().enumerate() {
        for (seller, book) in &books {
            if *seller != buyer {
                // Twice: a buyer's double click must not buy twice.
                calls.push(Call::Trade(buyer, book.clone()));
                calls.push(Call::Trade(buyer, book.clone()));
            }
        }
        for _ in 0..5 {
            calls.push(Call::Spend(buyer));
        }
    }
    assert!(calls.len() >= 50);
    let mut tasks = Vec::new();
    for call in calls {
        let mut c = app.client();
        let users = users.clone();
        tasks.push(tokio::spawn(async move {
            match call {
                Call::Trade(buyer, book_id) => c
                    .trade(req(
                        pb::TradeRequest {
                            buyer_uid: users[buyer].id.clone(),
                            book_id,
                            idempotency_key: String::new(),
                        },
                        Some(&users[buyer]),
                    ))
                    .await
                    .map(|r| (buyer, Some(r.into_inner()))),
                Call::Spend(buyer) => c
                    .consume(req(
                        pb::ConsumeRequest {
                            amount_cents: 150,
                            ..Default::default()
                        },
                        Some(&users[buyer]),
                    ))
                    .await
                    .map(|_| (buyer, None)),
            }
        }));
    }
    let mut spends = [0i64; 4];
    let mut refused = 0;
    for task in tasks {
        match task.await.unwrap() {
            Ok((buyer, None)) => spends[buyer] += 1,
            Ok((_, Some(_))) => {}
            Err(status) => {
                assert_eq!(
                    status.code(),
                    Code::FailedPrecondition,
                    "only 402s may fail: {status:?}"
                );
                refused += 1;
            }
        }
    }
    assert!(refused > 0, "the users wanted more than they had");

    // Every figure follows from the trades that were recorded.
    let mut c = app.client();
    let trades = c
        .list_trades(req(
            pb::ListTradesRequest {
                all: true,
                page_size: 100,
                ..Default::default()
            },
            Some(&app.admin),
        ))
        .await
        .unwrap()
        .into_inner()
        .trades;
    let mut pairs = std::collections::HashSet::new();
    for t in &trades {
        assert!(
            pairs.insert((t.buyer_uid.clone(), t.book_id.clone())),
            "one trade per book and buyer"
        );
    }
    let mut total = 0;
    for (i, user) in users.iter().enumerate() {
        let bought = trades.iter().filter(|t| t.buyer_uid == user.id).count() as i64;
        let sold = trades.iter().filter(|t| t.seller_uid == user.id).count() as i64;
        let expected = 800 - 100 * bought + 90 * sold - 150 * spends[i];
        let balance = app.balance(user).await;
        assert_eq!(balance, expected, "user {i}");
        assert!(balance >= 0);
        total += balance;
    }
    let platform = app.ledger_balance(Account::Platform).await;
    let spent = app.ledger_balance(Account::Spent).await;
    assert_eq!(platform, 10 * trades.len() as i64);
    assert_eq!(spent, 150 * spends.iter().sum::<i64>());
    assert_eq!(total + platform + spent, 4 * 800, "no cent created or lost");
    app.assert_ledger_balances().await;
}
