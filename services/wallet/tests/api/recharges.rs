use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use quire_proto::wallet::v1 as pb;
use quire_wallet::db::schema::{top_ups, transfers};
use quire_wallet::idempotency::Key;
use quire_wallet::recharges::{self, Begun};

use crate::support::{TestApp, WalletLedger, eventually, req};

/// What a process killed after writing the pending top-up (step 1) and before settling it
/// leaves behind.
async fn crash_after_begin(
    app: &TestApp,
    key: Option<&Key>,
    user: uuid::Uuid,
    amount: i64,
    provider: &str,
) -> uuid::Uuid {
    let mut conn = app.conn().await;
    match recharges::begin(&mut conn, key, user, amount, provider)
        .await
        .unwrap()
    {
        Begun::Pending(row) => row.id,
        Begun::Answered(_) => panic!("a fresh key has no answer"),
    }
}

async fn status(app: &TestApp, id: uuid::Uuid) -> (String, Option<uuid::Uuid>) {
    top_ups::table
        .find(id)
        .select((top_ups::status, top_ups::transfer_id))
        .first(&mut app.conn().await)
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn recharges_left_pending_by_a_crash_are_settled_exactly_once() {
    let mut app = TestApp::spawn().await;
    let reader = app.user(&["reader"]).await;
    let user = reader.uuid();
    app.stop_wallet();
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;

    let keyed = Key::parse(user, "crash-key", "Recharge", &[&reader.id, "500"])
        .unwrap()
        .unwrap();
    let with_key = crash_after_begin(&app, Some(&keyed), user, 500, "instant").await;
    let without_key = crash_after_begin(&app, None, user, 250, "instant").await;
    let resumed = Key::parse(user, "retry-key", "Recharge", &[&reader.id, "100"])
        .unwrap()
        .unwrap();
    let retried = crash_after_begin(&app, Some(&resumed), user, 100, "instant").await;
    // Another provider's payment is not this settler's to decide.
    let foreign = crash_after_begin(&app, None, user, 999, "elsewhere").await;
    assert_eq!(
        app.ledger_balance(quire_wallet::ledger::Account::User(user))
            .await,
        0,
        "nothing is credited before settling"
    );

    app.restart_wallet(|_| {}).await;
    // The client retries one of them while the start-up sweep runs.
    let retry = pb::RechargeRequest {
        amount_cents: 100,
        idempotency_key: "retry-key".into(),
        ..Default::default()
    };
    let answer = app
        .client()
        .recharge(req(retry, Some(&reader)))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(answer.record.unwrap().id, retried.to_string());

    let settled = eventually(30, || async {
        status(&app, with_key).await.0 == "settled"
            && status(&app, without_key).await.0 == "settled"
    })
    .await;
    assert!(settled, "the start-up sweep settles what the crash left");
    assert_eq!(app.balance(&reader).await, 850);
    assert_eq!(status(&app, foreign).await, ("pending".to_owned(), None));

    // The retry of the crashed request replays what the settler stored.
    let retry = pb::RechargeRequest {
        amount_cents: 500,
        idempotency_key: "crash-key".into(),
        ..Default::default()
    };
    let replay = app
        .client()
        .recharge(req(retry, Some(&reader)))
        .await
        .unwrap()
        .into_inner();
    let record = replay.record.unwrap();
    assert_eq!(
        (record.id, record.status.as_str()),
        (with_key.to_string(), "settled")
    );

    // Another start settles nothing twice.
    app.restart_wallet(|_| {}).await;
    tokio::time::sleep(std::time::Duration::from_secs(1)).await;
    assert_eq!(app.balance(&reader).await, 850);
    let recharges: i64 = transfers::table
        .filter(transfers::kind.eq("recharge"))
        .count()
        .get_result(&mut app.conn().await)
        .await
        .unwrap();
    assert_eq!(recharges, 3, "one transfer per settled recharge");
    use quire_kit::db::schema::outbox;
    let announced: i64 = outbox::table
        .filter(outbox::event_type.eq("quire.wallet.recharged.v1"))
        .count()
        .get_result(&mut app.conn().await)
        .await
        .unwrap();
    assert_eq!(announced, 3, "one wallet.recharged per settled recharge");
    app.assert_ledger_balances().await;
}
