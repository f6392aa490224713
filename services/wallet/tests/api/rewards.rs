use quire_proto::wallet::v1 as pb;

use crate::support::{TestApp, User, eventually, req};

async fn rewards(app: &TestApp, inviter: &User) -> pb::RewardPage {
    app.client()
        .list_rewards(req(pb::ListRewardsRequest::default(), Some(inviter)))
        .await
        .unwrap()
        .into_inner()
}

async fn until_rewarded(app: &TestApp, inviter: &User, count: u64) {
    let paid = eventually(30, || async { rewards(app, inviter).await.total >= count }).await;
    assert!(paid, "{count} rewards paid");
}

fn reasons(page: &pb::RewardPage) -> Vec<(String, i64)> {
    let mut r: Vec<(String, i64)> = page
        .rewards
        .iter()
        .map(|r| (r.reason.clone(), r.amount_cents))
        .collect();
    r.sort();
    r
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_inviter_is_paid_once_on_registration_and_once_on_the_first_purchase() {
    let app = TestApp::spawn().await;
    let inviter = app.user(&["reader"]).await;
    let invitee = app.user(&["reader"]).await;
    let writer = app.user(&["writer"]).await;

    app.produce_registered(&invitee.id, &inviter.id).await;
    until_rewarded(&app, &inviter, 1).await;
    assert_eq!(
        app.balance(&inviter).await,
        100,
        "the reward opened the wallet"
    );

    app.recharge(&invitee, 1000).await;
    let free = app.book(&writer, 0, true).await;
    let gift = app.buy(&invitee, &free.book_id).await.unwrap();
    app.until_processed(app.outbox_event(&gift.trade_id).await)
        .await;
    assert_eq!(
        rewards(&app, &inviter).await.total,
        1,
        "a free book is no purchase to reward"
    );

    let first = app.book(&writer, 300, true).await;
    app.buy(&invitee, &first.book_id).await.unwrap();
    until_rewarded(&app, &inviter, 2).await;

    // Repeats change nothing: the registration again, a second purchase.
    let again = app.produce_registered(&invitee.id, &inviter.id).await;
    app.until_processed(again).await;
    let second = app.book(&writer, 300, true).await;
    let trade = app.buy(&invitee, &second.book_id).await.unwrap();
    app.until_processed(app.outbox_event(&trade.trade_id).await)
        .await;

    let page = rewards(&app, &inviter).await;
    assert_eq!(
        reasons(&page),
        vec![("first_purchase".into(), 200), ("registered".into(), 100)]
    );
    assert_eq!(page.total_cents, 300);
    assert!(
        page.rewards
            .iter()
            .all(|r| r.invitee_id == invitee.id && r.user_id == inviter.id)
    );
    let wallet = app
        .client()
        .get_wallet(req(pb::GetWalletRequest::default(), Some(&inviter)))
        .await
        .unwrap()
        .into_inner();
    assert_eq!((wallet.balance_cents, wallet.earned_cents), (300, 300));
    app.assert_ledger_balances().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_registration_arriving_after_the_purchase_pays_both_rewards_once() {
    let app = TestApp::spawn().await;
    let inviter = app.user(&["reader"]).await;
    let invitee = app.user(&["reader"]).await;
    let writer = app.user(&["writer"]).await;
    let book = app.book(&writer, 250, true).await;
    app.recharge(&invitee, 1000).await;
    let trade = app.buy(&invitee, &book.book_id).await.unwrap();
    app.until_processed(app.outbox_event(&trade.trade_id).await)
        .await;
    assert_eq!(
        rewards(&app, &inviter).await.total,
        0,
        "nobody is known to have invited them yet"
    );

    app.produce_registered(&invitee.id, &inviter.id).await;
    until_rewarded(&app, &inviter, 2).await;
    let again = app.produce_registered(&invitee.id, &inviter.id).await;
    app.until_processed(again).await;

    let page = rewards(&app, &inviter).await;
    assert_eq!(
        reasons(&page),
        vec![("first_purchase".into(), 200), ("registered".into(), 100)]
    );
    assert_eq!(app.balance(&inviter).await, 300);
    app.assert_ledger_balances().await;
}
