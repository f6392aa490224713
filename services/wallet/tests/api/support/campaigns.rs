//! Crowd-funding calls and the campaign rows behind them.

use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use quire_proto::wallet::v1 as pb;
use uuid::Uuid;

use super::{TestApp, User, WalletLedger, req};

impl TestApp {
    pub async fn open_campaign(
        &self,
        by: &User,
        book_id: &str,
        goal_cents: i64,
        days: u32,
    ) -> Result<pb::Campaign, tonic::Status> {
        self.client()
            .create_campaign(req(
                pb::CreateCampaignRequest {
                    book_id: book_id.into(),
                    goal_cents,
                    days,
                    idempotency_key: String::new(),
                },
                Some(by),
            ))
            .await
            .map(tonic::Response::into_inner)
    }

    pub async fn pledge(
        &self,
        backer: &User,
        campaign_id: &str,
        amount_cents: i64,
        key: &str,
    ) -> Result<pb::PledgeReply, tonic::Status> {
        self.client()
            .pledge(req(
                pb::PledgeRequest {
                    campaign_id: campaign_id.into(),
                    amount_cents,
                    idempotency_key: key.into(),
                },
                Some(backer),
            ))
            .await
            .map(tonic::Response::into_inner)
    }

    pub async fn close_campaign(
        &self,
        by: &User,
        campaign_id: &str,
    ) -> Result<pb::Campaign, tonic::Status> {
        self.client()
            .close_campaign(req(
                pb::CloseCampaignRequest {
                    campaign_id: campaign_id.into(),
                },
                Some(by),
            ))
            .await
            .map(tonic::Response::into_inner)
    }

    /// The campaign as anyone (no token) sees it.
    pub async fn campaign(&self, campaign_id: &str) -> pb::Campaign {
        self.client()
            .get_campaign(req(
                pb::GetCampaignRequest {
                    campaign_id: campaign_id.into(),
                },
                None,
            ))
            .await
            .expect("the campaign is there")
            .into_inner()
    }

    /// Moves the campaign's deadline into the past, as time would.
    pub async fn expire(&self, campaign_id: &str) {
        use quire_wallet::db::schema::campaigns;
        diesel::update(campaigns::table.find(Uuid::parse_str(campaign_id).unwrap()))
            .set(campaigns::deadline.eq(chrono::Utc::now() - chrono::Duration::seconds(1)))
            .execute(&mut self.conn().await)
            .await
            .unwrap();
    }

    /// How many transfers of `kind` the ledger holds.
    pub async fn transfers_of_kind(&self, kind: &str) -> i64 {
        use quire_wallet::db::schema::transfers;
        transfers::table
            .filter(transfers::kind.eq(kind))
            .count()
            .get_result(&mut self.conn().await)
            .await
            .unwrap()
    }

    /// The `(event_type, key)` of each event this wallet wrote on the campaign topic.
    pub async fn campaign_outbox(&self, campaign_id: &str) -> Vec<String> {
        use quire_kit::db::schema::outbox;
        outbox::table
            .filter(outbox::topic.eq(quire_kit::events::topics::CAMPAIGN))
            .filter(outbox::event_key.eq(campaign_id))
            .select(outbox::event_type)
            .load(&mut self.conn().await)
            .await
            .unwrap()
    }

    /// A user's balance as the ledger's entries sum it (0 without a wallet).
    pub async fn entries_of(&self, user: &User) -> i64 {
        self.ledger_balance(quire_wallet::ledger::Account::User(user.uuid()))
            .await
    }
}
