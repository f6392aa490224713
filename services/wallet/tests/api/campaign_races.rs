//! Crowd-funding under concurrency and time: pledges racing a close, closes racing each
//! other, and the sweeper settling a campaign past its deadline.

use quire_wallet::ledger::Account;
use tonic::Code;

use crate::campaigns::uuid;
use crate::support::{TestApp, User, WalletLedger, eventually, failure};

/// Twenty backers pledge while the writer closes: each pledge is either in the escrow and
/// paid out with it, or refused as closed, never lost or paid twice.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn pledges_racing_a_close_are_settled_or_refused_and_money_is_conserved() {
    let app = TestApp::spawn().await;
    let writer = app.user(&["writer"]).await;
    let book = app.book(&writer, 499, true).await;
    let mut backers: Vec<User> = Vec::new();
    for _ in 0..20 {
        let backer = app.user(&["reader"]).await;
        app.recharge(&backer, 100).await;
        backers.push(backer);
    }
    let id = app
        .open_campaign(&writer, &book.book_id, 1, 30)
        .await
        .unwrap()
        .campaign_id;
    // One pledge in before the race, so the campaign is funded whoever wins.
    app.pledge(&backers[0], &id, 50, "").await.unwrap();

    let mut tasks = Vec::new();
    for backer in &backers[1..] {
        let backer = backer.clone();
        let app_client = app.client();
        let id = id.clone();
        tasks.push(tokio::spawn(async move {
            let mut c = app_client;
            c.pledge(quire_test_stack::req(
                quire_proto::wallet::v1::PledgeRequest {
                    campaign_id: id,
                    amount_cents: 50,
                    idempotency_key: String::new(),
                },
                Some(&backer),
            ))
            .await
            .map(tonic::Response::into_inner)
        }));
    }
    tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    let closed = app.close_campaign(&writer, &id).await.unwrap();
    let mut accepted = 1;
    for (i, task) in tasks.into_iter().enumerate() {
        let backer = &backers[i + 1];
        match task.await.unwrap() {
            Ok(_) => {
                accepted += 1;
                assert_eq!(app.balance(backer).await, 50, "a pledge in is paid out");
            }
            Err(status) => {
                assert_eq!(
                    failure::<()>(Err(status)),
                    (Code::FailedPrecondition, "campaign_closed".into())
                );
                assert_eq!(
                    app.balance(backer).await,
                    100,
                    "a pledge refused moved nothing"
                );
            }
        }
    }
    assert_eq!(closed.status, "funded");
    assert_eq!(closed.pledged_cents, 50 * accepted);
    assert_eq!(closed.backers, u32::try_from(accepted).unwrap());
    // floor(0.9 * 50) = 45 per backer.
    assert_eq!(closed.writer_cents, 45 * accepted);
    assert_eq!(app.balance(&writer).await, 45 * accepted);
    assert_eq!(app.ledger_balance(Account::Platform).await, 5 * accepted);
    assert_eq!(app.ledger_balance(Account::Escrow(uuid(&id))).await, 0);
    let mut total = app.balance(&writer).await + app.ledger_balance(Account::Platform).await;
    for backer in &backers {
        total += app.balance(backer).await;
    }
    assert_eq!(total, 20 * 100, "money in = balances + the platform's part");
    app.assert_ledger_balances().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn closing_twice_or_at_once_settles_once() {
    let app = TestApp::spawn().await;
    let writer = app.user(&["writer"]).await;
    let ada = app.user(&["reader"]).await;
    let book = app.book(&writer, 499, true).await;
    app.recharge(&ada, 1000).await;
    let id = app
        .open_campaign(&writer, &book.book_id, 500, 30)
        .await
        .unwrap()
        .campaign_id;
    app.pledge(&ada, &id, 700, "").await.unwrap();
    let closes: Vec<_> = (0..6)
        .map(|i| {
            let (app_client, id) = (app.client(), id.clone());
            let by = if i % 2 == 0 {
                writer.clone()
            } else {
                app.admin.clone()
            };
            tokio::spawn(async move {
                let mut c = app_client;
                c.close_campaign(quire_test_stack::req(
                    quire_proto::wallet::v1::CloseCampaignRequest { campaign_id: id },
                    Some(&by),
                ))
                .await
                .unwrap()
                .into_inner()
            })
        })
        .collect();
    let mut answers = Vec::new();
    for close in closes {
        answers.push(close.await.unwrap());
    }
    let again = app.close_campaign(&writer, &id).await.unwrap();
    for answer in &answers {
        assert_eq!(
            (
                answer.status.as_str(),
                &answer.settled_at,
                answer.writer_cents
            ),
            ("funded", &again.settled_at, 630)
        );
    }
    assert_eq!(app.transfers_of_kind("campaign_payout").await, 1);
    assert_eq!(app.balance(&writer).await, 630);
    assert_eq!(app.balance(&ada).await, 300);
    assert_eq!(
        app.campaign_outbox(&id).await.len(),
        1,
        "one campaign.funded"
    );
    app.assert_ledger_balances().await;
}

/// Past its deadline a campaign takes no pledge, and the sweeper settles it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_sweeper_settles_a_campaign_past_its_deadline() {
    let mut app = TestApp::spawn().await;
    let writer = app.user(&["writer"]).await;
    let ada = app.user(&["reader"]).await;
    let book = app.book(&writer, 499, true).await;
    app.recharge(&ada, 1000).await;
    let id = app
        .open_campaign(&writer, &book.book_id, 5000, 30)
        .await
        .unwrap()
        .campaign_id;
    app.pledge(&ada, &id, 250, "").await.unwrap();
    app.expire(&id).await;
    assert_eq!(
        failure(app.pledge(&ada, &id, 10, "").await),
        (Code::FailedPrecondition, "campaign_closed".into())
    );
    app.restart_wallet(|c| c.campaign_sweep_secs = 1).await;
    let settled = eventually(20, || async { app.campaign(&id).await.status == "failed" }).await;
    assert!(settled, "the sweeper settled the expired campaign");
    assert_eq!(app.balance(&ada).await, 1000);
    assert_eq!(app.ledger_balance(Account::Escrow(uuid(&id))).await, 0);
    app.assert_ledger_balances().await;
}

/// A settlement cut short before its commit (as a killed process leaves it) leaves no
/// trace: the campaign is still open, nothing moved, and the next close settles it once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_settlement_cut_short_leaves_the_campaign_open_for_the_next_close() {
    use diesel_async::AsyncConnection;
    use diesel_async::scoped_futures::ScopedFutureExt;
    let app = TestApp::spawn().await;
    let writer = app.user(&["writer"]).await;
    let ada = app.user(&["reader"]).await;
    let book = app.book(&writer, 499, true).await;
    app.recharge(&ada, 1000).await;
    let id = app
        .open_campaign(&writer, &book.book_id, 100, 30)
        .await
        .unwrap()
        .campaign_id;
    app.pledge(&ada, &id, 250, "").await.unwrap();

    let campaign = uuid(&id);
    let mut conn = app.conn().await;
    let cut = conn
        .transaction::<(), diesel::result::Error, _>(|conn| {
            async move {
                let settled = quire_wallet::campaigns::settle::settle(conn, campaign, 90)
                    .await
                    .unwrap();
                assert_eq!(settled.campaign.status, "funded");
                // The process dies here, before the commit.
                Err(diesel::result::Error::RollbackTransaction)
            }
            .scope_boxed()
        })
        .await;
    assert!(cut.is_err());
    let seen = app.campaign(&id).await;
    assert_eq!((seen.status.as_str(), seen.pledged_cents), ("open", 250));
    assert_eq!(app.entries_of(&writer).await, 0);
    assert_eq!(app.transfers_of_kind("campaign_payout").await, 0);
    assert_eq!(app.ledger_balance(Account::Escrow(campaign)).await, 250);

    let closed = app.close_campaign(&writer, &id).await.unwrap();
    assert_eq!(
        (closed.status.as_str(), closed.writer_cents),
        ("funded", 225)
    );
    assert_eq!(app.balance(&writer).await, 225);
    assert_eq!(app.ledger_balance(Account::Platform).await, 25);
    assert_eq!(app.transfers_of_kind("campaign_payout").await, 1);
    assert_eq!(app.campaign_outbox(&id).await.len(), 1);
    app.assert_ledger_balances().await;
}
