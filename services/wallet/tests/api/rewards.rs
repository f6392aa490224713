//! Invite rewards: the inviter earns both rewards (registration and first purchase, once
//! each) only when the invitee buys a priced book with money they recharged through the
//! payment provider; registering, an admin's top-up or a free book earn nothing.

use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use quire_kit::events::{topics, types};
use quire_proto::events::v1 as events;
use quire_proto::wallet::v1 as pb;
use quire_wallet::db::schema::invitations;
use quire_wallet::ledger::Account;

use crate::support::{TestApp, User, WalletLedger, eventually, req};

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

/// Tells the wallet that `inviter` invited `invitee` and waits until it took that in.
async fn register(app: &TestApp, invitee: &User, inviter: &User) {
    let event = app.produce_registered(&invitee.id, &inviter.id).await;
    app.until_processed(event).await;
}

/// `buyer` buys `book_id`; waits until the rewards consumer handled the trade's event.
async fn bought(app: &TestApp, buyer: &User, book_id: &str) -> pb::Trade {
    let trade = app.buy(buyer, book_id).await.unwrap();
    app.until_processed(app.outbox_event(&trade.trade_id).await)
        .await;
    trade
}

/// The trade's `trade.completed` once more, under a new event id (a redelivery the
/// consumer's `processed_events` cannot recognise); waits until it was handled.
async fn replay(app: &TestApp, trade: &pb::Trade) {
    let data = events::TradeCompleted {
        trade_id: trade.trade_id.clone(),
        buyer_uid: trade.buyer_uid.clone(),
        book_id: trade.book_id.clone(),
        seller_uid: trade.seller_uid.clone(),
        price_cents: trade.price_cents,
        seller_cents: trade.seller_cents,
        platform_cents: trade.platform_cents,
        completed_at: trade.created_at.clone(),
        campaign_id: String::new(),
    };
    let event = app
        .produce(
            topics::TRADE,
            types::TRADE_COMPLETED,
            &trade.trade_id,
            &data,
        )
        .await;
    app.until_processed(event).await;
}

/// An admin credits `user` from outside: money that is not the user's own payment.
async fn top_up(app: &TestApp, user: &User, amount_cents: i64) {
    app.client()
        .top_up(req(
            pb::TopUpRequest {
                user_id: user.id.clone(),
                amount_cents,
                idempotency_key: String::new(),
                note: "goodwill".into(),
            },
            Some(&app.admin),
        ))
        .await
        .expect("the admin tops up");
}

/// Nothing was paid to `inviter`, nor to anyone out of the promotions account.
async fn assert_unpaid(app: &TestApp, inviter: &User, why: &str) {
    let page = rewards(app, inviter).await;
    assert_eq!((page.total, page.total_cents), (0, 0), "{why}");
    assert_eq!(app.ledger_balance(Account::Promotions).await, 0, "{why}");
}

async fn invitations_of(app: &TestApp, inviter: &User) -> i64 {
    invitations::table
        .filter(invitations::inviter_id.eq(uuid::Uuid::parse_str(&inviter.id).unwrap()))
        .count()
        .get_result(&mut app.conn().await)
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn registering_invitees_alone_pays_the_inviter_nothing() {
    let app = TestApp::spawn().await;
    let inviter = app.user(&["reader"]).await;
    for _ in 0..3 {
        let invitee = app.user(&["reader"]).await;
        register(&app, &invitee, &inviter).await;
    }
    assert_eq!(
        invitations_of(&app, &inviter).await,
        3,
        "every invitation is recorded"
    );
    assert_unpaid(
        &app,
        &inviter,
        "throwaway accounts earn their inviter nothing",
    )
    .await;
    app.assert_ledger_balances().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_invitee_buying_with_an_admin_top_up_or_a_free_book_pays_nothing() {
    let app = TestApp::spawn().await;
    let inviter = app.user(&["reader"]).await;
    let invitee = app.user(&["reader"]).await;
    let writer = app.user(&["writer"]).await;
    register(&app, &invitee, &inviter).await;

    top_up(&app, &invitee, 1000).await;
    let priced = app.book(&writer, 300, true).await;
    let free = app.book(&writer, 0, true).await;
    let trade = bought(&app, &invitee, &priced.book_id).await;
    bought(&app, &invitee, &free.book_id).await;
    replay(&app, &trade).await;
    assert_eq!(
        app.balance(&invitee).await,
        700,
        "the top-up paid for the book"
    );
    assert_unpaid(&app, &inviter, "the admin's money is not the invitee's own").await;
    app.assert_ledger_balances().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn buying_the_inviters_own_book_pays_no_reward() {
    let app = TestApp::spawn().await;
    let inviter = app.user(&["writer"]).await;
    let invitee = app.user(&["reader"]).await;
    register(&app, &invitee, &inviter).await;
    app.recharge(&invitee, 1000).await;
    bought(&app, &invitee, &app.book(&inviter, 100, true).await.book_id).await;
    assert_unpaid(&app, &inviter, "the inviter's own book").await;

    // Another writer's book does count.
    let writer = app.user(&["writer"]).await;
    bought(&app, &invitee, &app.book(&writer, 300, true).await.book_id).await;
    until_rewarded(&app, &inviter, 2).await;
    app.assert_ledger_balances().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_purchase_counts_only_once_recharged_money_covers_its_price() {
    let app = TestApp::spawn().await;
    let inviter = app.user(&["reader"]).await;
    let invitee = app.user(&["reader"]).await;
    let writer = app.user(&["writer"]).await;
    register(&app, &invitee, &inviter).await;

    // Recharged 100, but a 300 book needs the admin's money too.
    top_up(&app, &invitee, 1000).await;
    app.recharge(&invitee, 100).await;
    let first = bought(&app, &invitee, &app.book(&writer, 300, true).await.book_id).await;
    assert_unpaid(&app, &inviter, "100 recharged does not pay for a 300 book").await;

    // A recharge after the purchase does not make it one paid with recharged money, even
    // when both events are handled again.
    app.recharge(&invitee, 500).await;
    replay(&app, &first).await;
    register(&app, &invitee, &inviter).await;
    assert_unpaid(&app, &inviter, "the purchase came before the recharge").await;

    // The next purchase does count.
    bought(&app, &invitee, &app.book(&writer, 300, true).await.book_id).await;
    until_rewarded(&app, &inviter, 2).await;
    let page = rewards(&app, &inviter).await;
    assert_eq!(
        reasons(&page),
        vec![("first_purchase".into(), 200), ("registered".into(), 100)]
    );
    assert_eq!(app.ledger_balance(Account::Promotions).await, -300);
    app.assert_ledger_balances().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_invitee_who_recharged_and_bought_pays_the_inviter_both_rewards_once() {
    let app = TestApp::spawn().await;
    let inviter = app.user(&["reader"]).await;
    let invitee = app.user(&["reader"]).await;
    let writer = app.user(&["writer"]).await;
    register(&app, &invitee, &inviter).await;
    assert_unpaid(&app, &inviter, "registering earns nothing yet").await;

    app.recharge(&invitee, 1000).await;
    let free = app.book(&writer, 0, true).await;
    bought(&app, &invitee, &free.book_id).await;
    assert_unpaid(&app, &inviter, "a free book is no purchase to reward").await;

    let first = app.book(&writer, 300, true).await;
    let trade = bought(&app, &invitee, &first.book_id).await;
    until_rewarded(&app, &inviter, 2).await;

    // Repeats change nothing: both events again, a second purchase.
    register(&app, &invitee, &inviter).await;
    replay(&app, &trade).await;
    let second = app.book(&writer, 300, true).await;
    bought(&app, &invitee, &second.book_id).await;

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
    assert_eq!(app.ledger_balance(Account::Promotions).await, -300);
    app.assert_ledger_balances().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_registration_arriving_after_the_purchase_pays_both_rewards_once() {
    let app = TestApp::spawn().await;
    let inviter = app.user(&["reader"]).await;
    let invitee = app.user(&["reader"]).await;
    let writer = app.user(&["writer"]).await;
    let book = app.book(&writer, 300, true).await;
    app.recharge(&invitee, 1000).await;
    bought(&app, &invitee, &book.book_id).await;
    assert_unpaid(&app, &inviter, "nobody is known to have invited them yet").await;

    app.produce_registered(&invitee.id, &inviter.id).await;
    until_rewarded(&app, &inviter, 2).await;
    register(&app, &invitee, &inviter).await;

    let page = rewards(&app, &inviter).await;
    assert_eq!(
        reasons(&page),
        vec![("first_purchase".into(), 200), ("registered".into(), 100)]
    );
    assert_eq!(app.balance(&inviter).await, 300);
    app.assert_ledger_balances().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_rewards_are_never_worth_more_than_what_the_invitee_paid() {
    let app = TestApp::spawn().await;
    let inviter = app.user(&["reader"]).await;
    let invitee = app.user(&["reader"]).await;
    let writer = app.user(&["writer"]).await;
    register(&app, &invitee, &inviter).await;
    app.recharge(&invitee, 1000).await;

    // The cheapest book: 1.49 covers the registration reward (1.00), not the 2.00 more.
    bought(&app, &invitee, &app.book(&writer, 149, true).await.book_id).await;
    until_rewarded(&app, &inviter, 1).await;
    let page = rewards(&app, &inviter).await;
    assert_eq!(reasons(&page), vec![("registered".into(), 100)]);
    // A second one (2.98 in all) still does not cover 3.00.
    bought(&app, &invitee, &app.book(&writer, 149, true).await.book_id).await;
    assert_eq!(rewards(&app, &inviter).await.total_cents, 100);
    // The third (4.47) does: the first-purchase reward is paid whole, once.
    bought(&app, &invitee, &app.book(&writer, 149, true).await.book_id).await;
    until_rewarded(&app, &inviter, 2).await;
    let page = rewards(&app, &inviter).await;
    assert_eq!(
        reasons(&page),
        vec![("first_purchase".into(), 200), ("registered".into(), 100)]
    );
    assert!(page.total_cents <= 3 * 149);
    assert_eq!(app.balance(&inviter).await, 300);
    app.assert_ledger_balances().await;
}
