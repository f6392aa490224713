//! The admin's part of the wallet: the seller's share as a setting that the very next
//! trade and settlement use, the sales figures, and the audit entries of admin changes.

use quire_proto::ops::v1::StatsRequest;
use quire_proto::wallet::v1 as pb;
use quire_wallet::ledger::Account;
use tonic::Code;

use crate::support::{TestApp, User, WalletLedger, failure, req};

impl TestApp {
    async fn set_share(
        &self,
        by: &User,
        percent: u32,
    ) -> Result<pb::WalletSettings, tonic::Status> {
        self.client()
            .update_wallet_settings(req(
                pb::UpdateWalletSettingsRequest {
                    seller_share_percent: percent,
                },
                Some(by),
            ))
            .await
            .map(tonic::Response::into_inner)
    }

    /// The share as anyone (no token) reads it.
    async fn share(&self) -> u32 {
        self.client()
            .get_wallet_settings(req(pb::GetWalletSettingsRequest {}, None))
            .await
            .expect("anyone reads the settings")
            .into_inner()
            .seller_share_percent
    }

    async fn sales(&self, by: &User, days: u32) -> Result<pb::SalesStats, tonic::Status> {
        self.client()
            .sales_stats(req(StatsRequest { days }, Some(by)))
            .await
            .map(tonic::Response::into_inner)
    }

    /// The wallet's audit entries, newest first, and whether their chain is intact.
    async fn audit(&self) -> quire_kit::audit::AuditPage {
        let mut conn = self.conn().await;
        quire_kit::audit::list(&mut conn, None, 200).await.unwrap()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_an_admin_changes_the_share_or_reads_the_figures_and_anyone_reads_the_share() {
    let app = TestApp::spawn().await;
    let writer = app.user(&["writer"]).await;
    let publisher = app.user(&["publisher"]).await;
    for user in [&writer, &publisher] {
        assert_eq!(
            failure(app.set_share(user, 50).await).0,
            Code::PermissionDenied
        );
        assert_eq!(failure(app.sales(user, 7).await).0, Code::PermissionDenied);
    }
    let anonymous = app
        .client()
        .sales_stats(req(StatsRequest { days: 7 }, None))
        .await;
    assert_eq!(failure(anonymous).0, Code::Unauthenticated);
    assert_eq!(app.share().await, 90, "the configured default");
    assert!(app.audit().await.entries.is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bad_share_is_refused_naming_the_field_and_changes_nothing() {
    let app = TestApp::spawn().await;
    for bad in [101, 1000, u32::MAX] {
        let (code, reason) = failure(app.set_share(&app.admin, bad).await);
        assert_eq!(
            (code, reason.as_str()),
            (Code::InvalidArgument, "invalid_seller_share_percent")
        );
    }
    assert_eq!(app.share().await, 90);
    assert!(app.audit().await.entries.is_empty());

    // The edges are shares like any other, each change audited once.
    assert_eq!(
        app.set_share(&app.admin, 0)
            .await
            .unwrap()
            .seller_share_percent,
        0
    );
    assert_eq!(
        app.set_share(&app.admin, 100)
            .await
            .unwrap()
            .seller_share_percent,
        100
    );
    // Setting the share in effect changes nothing and records nothing.
    app.set_share(&app.admin, 100).await.unwrap();
    assert_eq!(app.share().await, 100);
    let audit = app.audit().await;
    let changes: Vec<(&str, &str)> = audit
        .entries
        .iter()
        .map(|e| (e.before.as_str(), e.after.as_str()))
        .collect();
    assert_eq!(changes, [("0", "100"), ("90", "0")], "newest first");
    assert!(audit.chain_intact);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_changed_share_pays_the_very_next_trade_and_settlement_without_a_restart() {
    let app = TestApp::spawn().await;
    let writer = app.user(&["writer"]).await;
    let (ada, bob) = (app.user(&["reader"]).await, app.user(&["reader"]).await);
    let first = app.book(&writer, 1000, true).await;
    let second = app.book(&writer, 1000, true).await;
    let funded = app.book(&writer, 499, true).await;
    app.recharge(&ada, 2000).await;
    app.recharge(&bob, 2000).await;

    let before = app.buy(&ada, &first.book_id).await.unwrap();
    assert_eq!((before.seller_cents, before.platform_cents), (900, 100));

    let changed = app.set_share(&app.admin, 70).await.unwrap();
    assert_eq!(changed.seller_share_percent, 70);
    assert_eq!(app.share().await, 70);

    let after = app.buy(&bob, &second.book_id).await.unwrap();
    assert_eq!((after.seller_cents, after.platform_cents), (700, 300));
    assert_eq!(app.balance(&bob).await, 1000);
    assert_eq!(app.balance(&writer).await, 900 + 700);
    assert_eq!(app.ledger_balance(Account::Platform).await, 100 + 300);

    // A campaign settled after the change pays the writer 70% of each backer's pledges.
    let campaign = app
        .open_campaign(&writer, &funded.book_id, 500, 30)
        .await
        .unwrap();
    app.pledge(&ada, &campaign.campaign_id, 333, "")
        .await
        .unwrap();
    app.pledge(&bob, &campaign.campaign_id, 299, "")
        .await
        .unwrap();
    let closed = app
        .close_campaign(&writer, &campaign.campaign_id)
        .await
        .unwrap();
    // floor(0.7 * 333) = 233 and floor(0.7 * 299) = 209.
    assert_eq!(closed.status, "funded");
    assert_eq!((closed.writer_cents, closed.platform_cents), (442, 190));
    assert_eq!(app.balance(&writer).await, 900 + 700 + 442);
    assert_eq!(app.ledger_balance(Account::Platform).await, 100 + 300 + 190);
    app.assert_ledger_balances().await;

    let audit = app.audit().await;
    assert_eq!(audit.entries.len(), 1);
    let entry = &audit.entries[0];
    assert_eq!(
        (
            entry.service.as_str(),
            entry.action.as_str(),
            entry.target.as_str(),
            entry.before.as_str(),
            entry.after.as_str(),
        ),
        (
            "wallet",
            "settings.update",
            "setting:seller_share_percent",
            "90",
            "70"
        )
    );
    assert_eq!(entry.actor_id, app.admin.uuid());
    assert!(audit.chain_intact);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_sales_figures_count_trades_money_in_and_campaigns_over_the_range() {
    let app = TestApp::spawn().await;
    let writer = app.user(&["writer"]).await;
    let (ada, bob) = (app.user(&["reader"]).await, app.user(&["reader"]).await);
    let cheap = app.book(&writer, 499, true).await;
    let dear = app.book(&writer, 1000, true).await;
    let older = app.book(&writer, 250, true).await;
    app.recharge(&ada, 2000).await;
    app.recharge(&bob, 2000).await;
    let top_up = app
        .client()
        .top_up(req(
            pb::TopUpRequest {
                user_id: ada.id.clone(),
                amount_cents: 500,
                note: "goodwill".into(),
                idempotency_key: String::new(),
            },
            Some(&app.admin),
        ))
        .await
        .unwrap()
        .into_inner();
    assert_eq!(top_up.amount_cents, 500);

    app.buy(&ada, &cheap.book_id).await.unwrap();
    app.buy(&bob, &dear.book_id).await.unwrap();
    // A sale of ten days ago: inside a range of 30 days, outside one of 7.
    let old = app.buy(&bob, &older.book_id).await.unwrap();
    backdate_trade(&app, &old.trade_id, 10).await;
    // Funded (a trade of 600 for the backer), failed, and open with 300 in escrow.
    for (goal, pledge, close) in [(500, 600, true), (5000, 100, true), (5000, 300, false)] {
        let book = app.book(&writer, 499, true).await;
        let c = app
            .open_campaign(&writer, &book.book_id, goal, 30)
            .await
            .unwrap();
        app.pledge(&ada, &c.campaign_id, pledge, "").await.unwrap();
        if close {
            app.close_campaign(&writer, &c.campaign_id).await.unwrap();
        }
    }

    let week = app.sales(&app.admin, 7).await.unwrap();
    // 499 + 1000 + 600; the platform keeps what the writer's floor of 90% leaves.
    assert_eq!(
        (week.trades, week.revenue, week.platform_revenue),
        (3, 2099, 50 + 100 + 60)
    );
    assert_eq!(week.trades_per_day.len(), 7);
    assert_eq!(week.top_ups_per_day.len(), 7);
    let sum = |points: &[quire_proto::ops::v1::DailyPoint]| {
        points
            .iter()
            .fold((0, 0), |(n, c), p| (n + p.count, c + p.amount))
    };
    assert_eq!(sum(&week.trades_per_day), (3, 2099));
    // Two recharges and the admin's top-up.
    assert_eq!(sum(&week.top_ups_per_day), (3, 4500));
    assert_eq!(
        (
            week.campaigns_open,
            week.campaigns_funded,
            week.campaigns_failed,
            week.escrow
        ),
        (1, 1, 1, 300)
    );
    // Days run oldest first, one each, ending today.
    let days: Vec<chrono::NaiveDate> = week
        .trades_per_day
        .iter()
        .map(|p| p.day.parse().unwrap())
        .collect();
    for pair in days.windows(2) {
        assert_eq!(pair[1] - pair[0], chrono::Duration::days(1));
    }

    let month = app.sales(&app.admin, 30).await.unwrap();
    assert_eq!((month.trades, month.revenue), (4, 2349));
    assert_eq!(month.trades_per_day.len(), 30);
    assert_eq!(sum(&month.trades_per_day), (4, 2349));
    let ten_days_ago = month.trades_per_day[30 - 1 - 10].clone();
    assert_eq!((ten_days_ago.count, ten_days_ago.amount), (1, 250));
    assert_eq!(
        app.sales(&app.admin, 0).await.unwrap().trades_per_day.len(),
        30
    );
    let (code, reason) = failure(app.sales(&app.admin, 367).await);
    assert_eq!(
        (code, reason.as_str()),
        (Code::InvalidArgument, "invalid_days")
    );

    // The admin's top-up is audited: who credited whom with what.
    let audit = app.audit().await;
    assert_eq!(audit.entries.len(), 1);
    let entry = &audit.entries[0];
    assert_eq!(
        (
            entry.action.as_str(),
            entry.target.as_str(),
            entry.before.as_str(),
            entry.after.as_str()
        ),
        (
            "wallet.top_up",
            format!("user:{}", ada.id).as_str(),
            "null",
            r#"{"amount_cents": 500}"#
        )
    );
    assert_eq!(entry.actor_id, app.admin.uuid());
}

/// Moves a trade `days` days into the past, as time would.
async fn backdate_trade(app: &TestApp, trade_id: &str, days: i64) {
    use diesel::prelude::*;
    use diesel_async::RunQueryDsl;
    use quire_wallet::db::schema::trades;
    let id: uuid::Uuid = trade_id.parse().unwrap();
    let moved = diesel::update(trades::table.find(id))
        .set(trades::created_at.eq(chrono::Utc::now() - chrono::Duration::days(days)))
        .execute(&mut app.conn().await)
        .await
        .unwrap();
    assert_eq!(moved, 1);
}
