//! Crowd-funding through the API: campaigns funded and failed to the cent, resends, 402,
//! bad input and who may do what.

use quire_proto::wallet::v1 as pb;
use quire_wallet::ledger::Account;
use tonic::Code;
use uuid::Uuid;

use crate::support::{TestApp, WalletLedger, failure, req};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_funded_campaign_pays_the_writer_and_the_platform_exactly_and_backers_get_the_book() {
    let app = TestApp::spawn().await;
    let writer = app.user(&["writer"]).await;
    let (ada, bob) = (app.user(&["reader"]).await, app.user(&["reader"]).await);
    // Backers pledge to a book they can see: a listed one (a hidden book's campaign is
    // not found, see a_hidden_books_campaign_is_not_found_and_takes_no_pledge).
    let book = app.book(&writer, 499, true).await;
    app.recharge(&ada, 1000).await;
    app.recharge(&bob, 1000).await;

    let opened = app
        .open_campaign(&writer, &book.book_id, 700, 30)
        .await
        .unwrap();
    assert_eq!(
        (
            opened.status.as_str(),
            opened.goal_cents,
            opened.pledged_cents
        ),
        ("open", 700, 0)
    );
    assert_eq!(opened.writer_uid, writer.id);
    assert_eq!(opened.title, book.title);
    let id = opened.campaign_id.clone();

    let first = app.pledge(&ada, &id, 333, "").await.unwrap();
    assert_eq!(first.wallet.unwrap().balance_cents, 667);
    app.pledge(&ada, &id, 100, "").await.unwrap();
    let last = app.pledge(&bob, &id, 299, "").await.unwrap();
    let seen = last.campaign.unwrap();
    assert_eq!(
        (seen.pledged_cents, seen.backers, seen.my_pledged_cents),
        (732, 2, 299)
    );
    assert_eq!(app.ledger_balance(Account::Escrow(uuid(&id))).await, 732);
    app.assert_ledger_balances().await;

    let closed = app.close_campaign(&writer, &id).await.unwrap();
    // Per backer: floor(0.9 * 433) = 389 and floor(0.9 * 299) = 269.
    assert_eq!(closed.status, "funded");
    assert_eq!((closed.writer_cents, closed.platform_cents), (658, 74));
    assert_eq!((closed.pledged_cents, closed.backers), (732, 2));
    assert!(!closed.settled_at.is_empty());
    assert_eq!(app.balance(&ada).await, 567);
    assert_eq!(app.balance(&bob).await, 701);
    assert_eq!(app.balance(&writer).await, 658);
    assert_eq!(app.ledger_balance(Account::Platform).await, 74);
    assert_eq!(app.ledger_balance(Account::Escrow(uuid(&id))).await, 0);
    app.assert_ledger_balances().await;

    // Each backer has the book, as a trade of their pledges paid from the escrow.
    for (backer, price, seller) in [(&ada, 433, 389), (&bob, 299, 269)] {
        let purchase = app
            .client()
            .get_purchase(req(
                pb::GetPurchaseRequest {
                    user_id: backer.id.clone(),
                    book_id: book.book_id.clone(),
                },
                Some(backer),
            ))
            .await
            .unwrap()
            .into_inner();
        assert!(purchase.bought);
        let trade = purchase.trade.unwrap();
        assert_eq!(
            (trade.price_cents, trade.seller_cents, trade.platform_cents),
            (price, seller, price - seller)
        );
        assert_eq!(trade.seller_uid, writer.id);
        let events = app.trade_events(&trade.trade_id).await;
        assert_eq!(events.len(), 1, "one trade.completed per backer");
        assert_eq!(events[0].campaign_id, id);
        assert_eq!(events[0].buyer_uid, backer.id);
        assert_eq!(events[0].price_cents, price);
    }
    assert_eq!(
        app.campaign_outbox(&id).await,
        vec![quire_kit::events::types::CAMPAIGN_FUNDED.to_owned()]
    );
    // Anyone reads the campaign as it was settled; a backer sees what they pledged.
    let public = app.campaign(&id).await;
    assert_eq!(
        public,
        pb::Campaign {
            my_pledged_cents: 0,
            ..closed.clone()
        }
    );
    let listed = app
        .client()
        .list_campaigns(req(
            pb::ListCampaignsRequest {
                book_id: book.book_id.clone(),
            },
            Some(&ada),
        ))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(listed.campaigns.len(), 1);
    assert_eq!(listed.campaigns[0].my_pledged_cents, 433);
    assert_eq!(listed.campaigns[0].status, "funded");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_campaign_gives_every_pledge_back_and_the_book_may_try_again() {
    let app = TestApp::spawn().await;
    let writer = app.user(&["writer"]).await;
    let (ada, bob) = (app.user(&["reader"]).await, app.user(&["reader"]).await);
    let book = app.book(&writer, 499, true).await;
    app.recharge(&ada, 1000).await;
    app.recharge(&bob, 1000).await;
    let id = app
        .open_campaign(&writer, &book.book_id, 10_000, 7)
        .await
        .unwrap()
        .campaign_id;
    app.pledge(&ada, &id, 300, "").await.unwrap();
    app.pledge(&ada, &id, 1, "").await.unwrap();
    app.pledge(&bob, &id, 200, "").await.unwrap();
    assert_eq!(app.balance(&ada).await, 699);

    // An admin may close anyone's campaign.
    let closed = app.close_campaign(&app.admin, &id).await.unwrap();
    assert_eq!(closed.status, "failed");
    assert_eq!((closed.writer_cents, closed.platform_cents), (0, 0));
    assert_eq!(closed.pledged_cents, 501);
    // Every pledge back at once, to the cent; the writer and the platform got nothing.
    assert_eq!(app.balance(&ada).await, 1000);
    assert_eq!(app.balance(&bob).await, 1000);
    assert_eq!(app.entries_of(&writer).await, 0);
    assert_eq!(app.ledger_balance(Account::Platform).await, 0);
    assert_eq!(app.ledger_balance(Account::Escrow(uuid(&id))).await, 0);
    app.assert_ledger_balances().await;
    let purchase = app
        .client()
        .get_purchase(req(
            pb::GetPurchaseRequest {
                user_id: ada.id.clone(),
                book_id: book.book_id.clone(),
            },
            Some(&ada),
        ))
        .await
        .unwrap()
        .into_inner();
    assert!(!purchase.bought);
    assert_eq!(
        app.campaign_outbox(&id).await,
        vec![quire_kit::events::types::CAMPAIGN_FAILED.to_owned()]
    );
    // A later pledge is refused and moves nothing.
    assert_eq!(
        failure(app.pledge(&ada, &id, 50, "").await),
        (Code::FailedPrecondition, "campaign_closed".into())
    );
    assert_eq!(app.balance(&ada).await, 1000);
    // Settled, the book may have a new campaign.
    let again = app
        .open_campaign(&writer, &book.book_id, 100, 1)
        .await
        .unwrap();
    assert_ne!(again.campaign_id, id);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_resent_pledge_moves_the_money_once_and_refusals_are_remembered() {
    let app = TestApp::spawn().await;
    let writer = app.user(&["writer"]).await;
    let ada = app.user(&["reader"]).await;
    let book = app.book(&writer, 499, true).await;
    app.recharge(&ada, 1000).await;
    let id = app
        .open_campaign(&writer, &book.book_id, 5000, 30)
        .await
        .unwrap()
        .campaign_id;

    let first = app.pledge(&ada, &id, 400, "pledge-1").await.unwrap();
    let again = app.pledge(&ada, &id, 400, "pledge-1").await.unwrap();
    assert_eq!(again.pledge_id, first.pledge_id);
    assert_eq!(app.balance(&ada).await, 600);
    assert_eq!(app.campaign(&id).await.pledged_cents, 400);
    // The same key for another amount is another request.
    assert_eq!(
        failure(app.pledge(&ada, &id, 401, "pledge-1").await),
        (Code::AlreadyExists, "idempotency_key_reused".into())
    );

    // 402 without the money, and nothing moved.
    assert_eq!(
        failure(app.pledge(&ada, &id, 700, "pledge-2").await),
        (Code::FailedPrecondition, "insufficient_funds".into())
    );
    assert_eq!(app.balance(&ada).await, 600);
    // Its resend stays refused even once the money is there: the client was told no.
    app.recharge(&ada, 500).await;
    assert_eq!(
        failure(app.pledge(&ada, &id, 700, "pledge-2").await),
        (Code::FailedPrecondition, "insufficient_funds".into())
    );
    assert_eq!(app.balance(&ada).await, 1100);
    // A user without a wallet has no money either.
    let poor = app.user(&["reader"]).await;
    assert_eq!(
        failure(app.pledge(&poor, &id, 1, "").await),
        (Code::FailedPrecondition, "insufficient_funds".into())
    );
    assert_eq!(app.campaign(&id).await.pledged_cents, 400);
    assert_eq!(app.ledger_balance(Account::Escrow(uuid(&id))).await, 400);
    app.assert_ledger_balances().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_input_is_a_400_and_moves_nothing() {
    let app = TestApp::spawn().await;
    let writer = app.user(&["writer"]).await;
    let ada = app.user(&["reader"]).await;
    let book = app.book(&writer, 499, true).await;
    app.recharge(&ada, 1000).await;
    for (goal, days, field) in [
        (0, 10, "invalid_goal"),
        (-5, 10, "invalid_goal"),
        (100_000_001, 10, "invalid_goal"),
        (100, 0, "invalid_days"),
        (100, 91, "invalid_days"),
    ] {
        assert_eq!(
            failure(app.open_campaign(&writer, &book.book_id, goal, days).await),
            (Code::InvalidArgument, field.into())
        );
    }
    assert_eq!(
        failure(app.open_campaign(&writer, "not-a-book", 100, 10).await),
        (Code::InvalidArgument, "invalid_book_id".into())
    );
    assert_eq!(
        failure(
            app.open_campaign(&writer, &Uuid::now_v7().to_string(), 100, 10)
                .await
        )
        .0,
        Code::NotFound
    );
    let id = app
        .open_campaign(&writer, &book.book_id, 500, 10)
        .await
        .unwrap()
        .campaign_id;
    for amount in [0, -1, -500, 100_000_001] {
        assert_eq!(
            failure(app.pledge(&ada, &id, amount, "").await),
            (Code::InvalidArgument, "invalid_amount".into())
        );
    }
    assert_eq!(
        failure(app.pledge(&ada, "nope", 10, "").await),
        (Code::InvalidArgument, "invalid_campaign_id".into())
    );
    assert_eq!(
        failure(app.pledge(&ada, &Uuid::now_v7().to_string(), 10, "").await),
        (Code::NotFound, "campaign_not_found".into())
    );
    assert_eq!(app.balance(&ada).await, 1000);
    let seen = app.campaign(&id).await;
    assert_eq!((seen.pledged_cents, seen.backers), (0, 0));
    assert_eq!(app.transfers_of_kind("pledge").await, 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_the_writer_opens_and_closes_and_nobody_backs_their_own_campaign() {
    let app = TestApp::spawn().await;
    let writer = app.user(&["writer"]).await;
    let other = app.user(&["writer"]).await;
    let ada = app.user(&["reader"]).await;
    let book = app.book(&writer, 499, true).await;
    app.recharge(&writer, 1000).await;
    app.recharge(&ada, 1000).await;
    assert_eq!(
        failure(app.open_campaign(&other, &book.book_id, 500, 10).await).0,
        Code::PermissionDenied
    );
    let id = app
        .open_campaign(&writer, &book.book_id, 500, 10)
        .await
        .unwrap()
        .campaign_id;
    // One open campaign per book, an admin's included.
    assert_eq!(
        failure(app.open_campaign(&app.admin, &book.book_id, 900, 10).await),
        (Code::AlreadyExists, "campaign_open".into())
    );
    assert_eq!(
        failure(app.pledge(&writer, &id, 100, "").await),
        (Code::AlreadyExists, "own_campaign".into())
    );
    app.pledge(&ada, &id, 600, "").await.unwrap();
    for someone in [&other, &ada] {
        assert_eq!(
            failure(app.close_campaign(someone, &id).await).0,
            Code::PermissionDenied
        );
    }
    let seen = app.campaign(&id).await;
    assert_eq!((seen.status.as_str(), seen.pledged_cents), ("open", 600));
    assert_eq!(app.balance(&writer).await, 1000);
    assert_eq!(app.balance(&ada).await, 400);
    // Without a token: reads only.
    assert_eq!(
        app.client()
            .close_campaign(req(
                pb::CloseCampaignRequest {
                    campaign_id: id.clone()
                },
                None
            ))
            .await
            .unwrap_err()
            .code(),
        Code::Unauthenticated
    );
    // An admin opens a campaign for anyone's book (here a new one), for its writer.
    let second = app.book(&writer, 100, false).await;
    let by_admin = app
        .open_campaign(&app.admin, &second.book_id, 100, 1)
        .await
        .unwrap();
    assert_eq!(by_admin.writer_uid, writer.id);
}

pub fn uuid(id: &str) -> Uuid {
    Uuid::parse_str(id).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hidden_books_campaign_is_not_found_and_takes_no_pledge() {
    let app = TestApp::spawn().await;
    let writer = app.user(&["writer"]).await;
    let backer = app.user(&["reader"]).await;
    app.recharge(&backer, 1000).await;
    // Not in the shop: only its writer (and an admin) sees the book, and so its campaign.
    let book = app.book(&writer, 499, false).await;
    let opened = app
        .open_campaign(&writer, &book.book_id, 700, 30)
        .await
        .unwrap();
    let ask = |id: &str| pb::GetCampaignRequest {
        campaign_id: id.to_owned(),
    };
    for caller in [None, Some(&backer)] {
        let refused = app
            .client()
            .get_campaign(req(ask(&opened.campaign_id), caller))
            .await
            .unwrap_err();
        assert_eq!(refused.code(), Code::NotFound, "{refused:?}");
        assert!(!refused.message().contains(&book.title), "{refused:?}");
    }
    let refused = app
        .pledge(&backer, &opened.campaign_id, 100, "")
        .await
        .unwrap_err();
    assert_eq!(refused.code(), Code::NotFound, "{refused:?}");
    let seen = app
        .client()
        .get_campaign(req(ask(&opened.campaign_id), Some(&writer)))
        .await
        .unwrap()
        .into_inner();
    assert_eq!((seen.title, seen.pledged_cents), (book.title, 0));
}
