use quire_proto::wallet::v1 as pb;
use tonic::Code;

use crate::support::{TestApp, WalletLedger, failure, req};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn opening_a_wallet_is_idempotent_and_a_missing_one_is_not_found() {
    let app = TestApp::spawn().await;
    let reader = app.user(&["reader"]).await;
    let mut c = app.client();

    let missing = c
        .get_wallet(req(pb::GetWalletRequest::default(), Some(&reader)))
        .await;
    let status = missing.as_ref().unwrap_err();
    assert_eq!(status.message(), "Wallet not found");
    assert_eq!(
        failure(missing),
        (Code::NotFound, "wallet_not_found".into())
    );

    let open = || pb::OpenWalletRequest::default();
    let first = c
        .open_wallet(req(open(), Some(&reader)))
        .await
        .unwrap()
        .into_inner();
    let again = c
        .open_wallet(req(open(), Some(&reader)))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(first, again, "an open wallet is answered as it is");
    assert_eq!(
        (first.user_id.as_str(), first.balance_cents),
        (reader.id.as_str(), 0)
    );
    assert_eq!(first.currency, "USD");

    // Opening with an amount recharges it, exactly like Recharge.
    let opened = c
        .open_wallet(req(
            pb::OpenWalletRequest {
                amount_cents: 250,
                ..Default::default()
            },
            Some(&reader),
        ))
        .await
        .unwrap()
        .into_inner();
    assert_eq!((opened.balance_cents, opened.recharged_cents), (250, 250));
    assert_eq!(app.balance(&reader).await, 250);
    app.assert_ledger_balances().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_recharge_shows_in_the_balance_the_records_and_the_ledger() {
    let app = TestApp::spawn().await;
    let reader = app.user(&["reader"]).await;
    let reply = app.recharge(&reader, 1234).await;
    let wallet = reply.wallet.unwrap();
    let record = reply.record.unwrap();
    assert_eq!((wallet.balance_cents, wallet.recharged_cents), (1234, 1234));
    assert_eq!(
        (
            record.kind.as_str(),
            record.status.as_str(),
            record.provider.as_str()
        ),
        ("recharge", "settled", "instant")
    );
    assert_eq!(record.provider_ref, format!("instant-{}", record.id));
    assert!(!record.settled_at.is_empty());
    assert_eq!(app.balance(&reader).await, 1234);

    let records = app
        .client()
        .list_top_ups(req(pb::ListTopUpsRequest::default(), Some(&reader)))
        .await
        .unwrap()
        .into_inner();
    assert_eq!((records.total, records.page, records.page_size), (1, 1, 10));
    assert_eq!(records.records, vec![record.clone()]);

    use quire_wallet::ledger::Account;
    assert_eq!(app.ledger_balance(Account::User(reader.uuid())).await, 1234);
    assert_eq!(app.ledger_balance(Account::World).await, -1234);
    app.assert_ledger_balances().await;

    // The event is in the outbox, written with the money.
    use diesel::prelude::*;
    use diesel_async::RunQueryDsl;
    use quire_kit::db::schema::outbox;
    let events: Vec<(String, String, String)> = outbox::table
        .select((outbox::topic, outbox::event_type, outbox::event_key))
        .load(&mut app.conn().await)
        .await
        .unwrap();
    assert_eq!(
        events,
        vec![(
            "quire.wallet.v1".to_owned(),
            "quire.wallet.recharged.v1".to_owned(),
            reader.id.clone()
        )]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn spending_more_than_the_balance_is_a_402_that_changes_nothing() {
    let app = TestApp::spawn().await;
    let reader = app.user(&["reader"]).await;
    let mut c = app.client();
    let consume = |amount_cents| pb::ConsumeRequest {
        amount_cents,
        memo: "coffee".into(),
        ..Default::default()
    };
    // No wallet yet.
    assert_eq!(
        failure(c.consume(req(consume(1), Some(&reader))).await),
        (Code::NotFound, "wallet_not_found".into())
    );
    app.recharge(&reader, 500).await;
    let spent = c
        .consume(req(consume(200), Some(&reader)))
        .await
        .unwrap()
        .into_inner();
    let wallet = spent.wallet.unwrap();
    assert_eq!(
        (wallet.balance_cents, wallet.spent_cents, spent.amount_cents),
        (300, 200, 200)
    );

    let refused = c.consume(req(consume(301), Some(&reader))).await;
    let status = refused.as_ref().unwrap_err();
    assert_eq!(
        quire_kit::ApiError::from_status(status).code.http_status(),
        402
    );
    assert_eq!(
        failure(refused),
        (Code::FailedPrecondition, "insufficient_funds".into())
    );
    assert_eq!(
        app.balance(&reader).await,
        300,
        "a refused spend moves nothing"
    );
    let all = c
        .consume(req(consume(300), Some(&reader)))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(all.wallet.unwrap().balance_cents, 0);
    app.assert_ledger_balances().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_admin_top_up_opens_the_wallet_and_records_who_credited_it() {
    let app = TestApp::spawn().await;
    let reader = app.user(&["reader"]).await;
    let mut c = app.client();
    let top_up = pb::TopUpRequest {
        user_id: reader.id.clone(),
        amount_cents: 700,
        note: "welcome gift".into(),
        ..Default::default()
    };
    assert_eq!(
        failure(c.top_up(req(top_up.clone(), Some(&reader))).await).0,
        Code::PermissionDenied,
        "only admins top up"
    );
    let record = c
        .top_up(req(top_up, Some(&app.admin)))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(
        (
            record.kind.as_str(),
            record.status.as_str(),
            record.note.as_str()
        ),
        ("top_up", "settled", "welcome gift")
    );
    assert_eq!(record.created_by, app.admin.id);
    assert_eq!(app.balance(&reader).await, 700);

    let everyone = c
        .list_top_ups(req(
            pb::ListTopUpsRequest {
                all: true,
                ..Default::default()
            },
            Some(&app.admin),
        ))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(everyone.records, vec![record]);
    // The rewards consumer may open inviters' wallets from earlier runs' events too, so
    // look for the reader's through the pages (newest first).
    let mut found = false;
    let mut last_created = String::from("9999");
    for page in 1.. {
        let wallets = c
            .list_wallets(req(
                pb::ListWalletsRequest {
                    page,
                    page_size: 100,
                },
                Some(&app.admin),
            ))
            .await
            .unwrap()
            .into_inner();
        for w in &wallets.wallets {
            assert!(w.created_at <= last_created, "newest first");
            last_created = w.created_at.clone();
            found |= w.user_id == reader.id && w.balance_cents == 700;
        }
        if u64::from(page) * 100 >= wallets.total {
            break;
        }
    }
    assert!(found, "the admin lists the reader's wallet");
    app.assert_ledger_balances().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn another_users_wallet_and_records_are_forbidden_but_an_admin_sees_them() {
    let app = TestApp::spawn().await;
    let owner = app.user(&["reader"]).await;
    let other = app.user(&["reader"]).await;
    app.recharge(&owner, 100).await;
    let mut c = app.client();
    let denied = Code::PermissionDenied;
    let them = owner.id.clone();

    let as_other = Some(&other);
    assert_eq!(
        failure(
            c.get_wallet(req(
                pb::GetWalletRequest {
                    user_id: them.clone()
                },
                as_other
            ))
            .await
        )
        .0,
        denied
    );
    let consume = pb::ConsumeRequest {
        user_id: them.clone(),
        amount_cents: 1,
        ..Default::default()
    };
    assert_eq!(failure(c.consume(req(consume, as_other)).await).0, denied);
    let recharge = pb::RechargeRequest {
        user_id: them.clone(),
        amount_cents: 1,
        ..Default::default()
    };
    assert_eq!(failure(c.recharge(req(recharge, as_other)).await).0, denied);
    let top_ups = pb::ListTopUpsRequest {
        user_id: them.clone(),
        ..Default::default()
    };
    assert_eq!(
        failure(c.list_top_ups(req(top_ups.clone(), as_other)).await).0,
        denied
    );
    let everyone = pb::ListTopUpsRequest {
        all: true,
        ..Default::default()
    };
    assert_eq!(
        failure(c.list_top_ups(req(everyone, as_other)).await).0,
        denied
    );
    let trades = pb::ListTradesRequest {
        user_id: them.clone(),
        ..Default::default()
    };
    assert_eq!(
        failure(c.list_trades(req(trades.clone(), as_other)).await).0,
        denied
    );
    let every_trade = pb::ListTradesRequest {
        all: true,
        ..Default::default()
    };
    assert_eq!(
        failure(c.list_trades(req(every_trade, as_other)).await).0,
        denied
    );
    let rewards = pb::ListRewardsRequest {
        user_id: them.clone(),
        ..Default::default()
    };
    assert_eq!(
        failure(c.list_rewards(req(rewards.clone(), as_other)).await).0,
        denied
    );
    let purchase = pb::GetPurchaseRequest {
        user_id: them.clone(),
        book_id: uuid::Uuid::now_v7().to_string(),
    };
    assert_eq!(
        failure(c.get_purchase(req(purchase.clone(), as_other)).await).0,
        denied
    );
    let trade = pb::TradeRequest {
        buyer_uid: them.clone(),
        book_id: uuid::Uuid::now_v7().to_string(),
        ..Default::default()
    };
    assert_eq!(failure(c.trade(req(trade, as_other)).await).0, denied);
    assert_eq!(
        failure(
            c.list_wallets(req(pb::ListWalletsRequest::default(), as_other))
                .await
        )
        .0,
        denied
    );
    assert_eq!(
        failure(
            c.get_wallet(req(pb::GetWalletRequest::default(), None))
                .await
        )
        .0,
        Code::Unauthenticated
    );

    let as_admin = Some(&app.admin);
    let wallet = c
        .get_wallet(req(
            pb::GetWalletRequest {
                user_id: them.clone(),
            },
            as_admin,
        ))
        .await
        .unwrap();
    assert_eq!(wallet.into_inner().balance_cents, 100);
    assert_eq!(
        c.list_top_ups(req(top_ups, as_admin))
            .await
            .unwrap()
            .into_inner()
            .total,
        1
    );
    assert_eq!(
        c.list_trades(req(trades, as_admin))
            .await
            .unwrap()
            .into_inner()
            .total,
        0
    );
    assert_eq!(
        c.list_rewards(req(rewards, as_admin))
            .await
            .unwrap()
            .into_inner()
            .total,
        0
    );
    assert!(
        !c.get_purchase(req(purchase, as_admin))
            .await
            .unwrap()
            .into_inner()
            .bought
    );
    assert_eq!(
        app.balance(&owner).await,
        100,
        "nothing the others tried moved money"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_amounts_ids_keys_and_pages_are_400s_that_move_nothing() {
    let app = TestApp::spawn().await;
    let reader = app.user(&["reader"]).await;
    app.recharge(&reader, 100).await;
    let mut c = app.client();
    let bad = Code::InvalidArgument;
    for amount_cents in [0, -5, 100_000_001, i64::MAX] {
        let r = pb::RechargeRequest {
            amount_cents,
            ..Default::default()
        };
        assert_eq!(
            failure(c.recharge(req(r, Some(&reader))).await),
            (bad, "invalid_amount".into())
        );
        let r = pb::ConsumeRequest {
            amount_cents,
            ..Default::default()
        };
        assert_eq!(failure(c.consume(req(r, Some(&reader))).await).0, bad);
    }
    let r = pb::OpenWalletRequest {
        amount_cents: -1,
        ..Default::default()
    };
    assert_eq!(failure(c.open_wallet(req(r, Some(&reader))).await).0, bad);
    for key in ["k".repeat(201), "tab\tkey".into(), "ключ".into()] {
        let r = pb::ConsumeRequest {
            amount_cents: 1,
            idempotency_key: key,
            ..Default::default()
        };
        assert_eq!(
            failure(c.consume(req(r, Some(&reader))).await),
            (bad, "invalid_idempotency_key".into())
        );
    }
    let r = pb::ConsumeRequest {
        amount_cents: 1,
        memo: "m".repeat(201),
        ..Default::default()
    };
    assert_eq!(
        failure(c.consume(req(r, Some(&reader))).await),
        (bad, "invalid_memo".into())
    );
    let r = pb::GetWalletRequest {
        user_id: "not-a-uuid".into(),
    };
    assert_eq!(
        failure(c.get_wallet(req(r, Some(&reader))).await),
        (bad, "invalid_user_id".into())
    );
    let r = pb::TradeRequest {
        book_id: "nope".into(),
        ..Default::default()
    };
    assert_eq!(
        failure(c.trade(req(r, Some(&reader))).await),
        (bad, "invalid_book_id".into())
    );
    let r = pb::ListTopUpsRequest {
        page_size: 101,
        ..Default::default()
    };
    assert_eq!(
        failure(c.list_top_ups(req(r, Some(&reader))).await),
        (bad, "invalid_page_size".into())
    );
    let r = pb::ListTradesRequest {
        page: u32::MAX,
        ..Default::default()
    };
    assert_eq!(
        failure(c.list_trades(req(r, Some(&reader))).await),
        (bad, "invalid_page".into())
    );
    assert_eq!(app.balance(&reader).await, 100);
}
