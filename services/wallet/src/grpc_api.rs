//! The gRPC face of the wallet: each method reads its request, calls the domain module
//! that does the work, and converts the answer. No rule lives here.

use quire_kit::caller::{Caller, caller_of};
use quire_proto::wallet::v1 as pb;
use quire_proto::wallet::v1::wallet_service_server::WalletService;
use tonic::{Request, Response, Status};

use crate::{
    AppState, campaigns, consume, credits, recharges, rewards, sales_stats, settings, trades,
    wallets,
};

pub struct WalletApi {
    pub state: AppState,
}

type Reply<T> = Result<Response<T>, Status>;

/// Every method needs a verified caller, but the public reads of campaigns and settings.
fn caller<T>(req: &Request<T>) -> Result<Caller, Status> {
    caller_of(req).cloned().map_err(Status::from)
}

/// The verified caller of a public read, when the request carried a token.
fn maybe_caller<T>(req: &Request<T>) -> Option<Caller> {
    caller_of(req).ok().cloned()
}

fn reply<T>(result: crate::error::Result<T>) -> Reply<T> {
    result.map(Response::new).map_err(Status::from)
}

#[tonic::async_trait]
impl WalletService for WalletApi {
    async fn open_wallet(&self, req: Request<pb::OpenWalletRequest>) -> Reply<pb::Wallet> {
        let who = caller(&req)?;
        reply(wallets::open(&self.state, &who, req.get_ref()).await)
    }

    async fn get_wallet(&self, req: Request<pb::GetWalletRequest>) -> Reply<pb::Wallet> {
        let who = caller(&req)?;
        reply(wallets::get(&self.state, &who, &req.get_ref().user_id).await)
    }

    async fn recharge(&self, req: Request<pb::RechargeRequest>) -> Reply<pb::RechargeReply> {
        let who = caller(&req)?;
        reply(recharges::recharge_request(&self.state, &who, req.get_ref()).await)
    }

    async fn consume(&self, req: Request<pb::ConsumeRequest>) -> Reply<pb::ConsumeReply> {
        let who = caller(&req)?;
        reply(consume::consume(&self.state, &who, req.get_ref()).await)
    }

    async fn list_wallets(&self, req: Request<pb::ListWalletsRequest>) -> Reply<pb::WalletPage> {
        let who = caller(&req)?;
        reply(wallets::list(&self.state, &who, req.get_ref()).await)
    }

    async fn top_up(&self, req: Request<pb::TopUpRequest>) -> Reply<pb::TopUpRecord> {
        let who = caller(&req)?;
        reply(credits::top_up(&self.state, &who, req.get_ref()).await)
    }

    async fn list_top_ups(&self, req: Request<pb::ListTopUpsRequest>) -> Reply<pb::TopUpPage> {
        let who = caller(&req)?;
        reply(credits::list(&self.state, &who, req.get_ref()).await)
    }

    async fn trade(&self, req: Request<pb::TradeRequest>) -> Reply<pb::Trade> {
        let who = caller(&req)?;
        reply(trades::trade(&self.state, &who, req.get_ref()).await)
    }

    async fn list_trades(&self, req: Request<pb::ListTradesRequest>) -> Reply<pb::TradePage> {
        let who = caller(&req)?;
        reply(trades::list(&self.state, &who, req.get_ref()).await)
    }

    async fn list_rewards(&self, req: Request<pb::ListRewardsRequest>) -> Reply<pb::RewardPage> {
        let who = caller(&req)?;
        reply(rewards::list(&self.state, &who, req.get_ref()).await)
    }

    async fn get_purchase(&self, req: Request<pb::GetPurchaseRequest>) -> Reply<pb::Purchase> {
        let who = caller(&req)?;
        reply(trades::purchase(&self.state, &who, req.get_ref()).await)
    }

    async fn create_campaign(
        &self,
        req: Request<pb::CreateCampaignRequest>,
    ) -> Reply<pb::Campaign> {
        let who = caller(&req)?;
        reply(campaigns::create(&self.state, &who, req.get_ref()).await)
    }

    async fn get_campaign(&self, req: Request<pb::GetCampaignRequest>) -> Reply<pb::Campaign> {
        let who = maybe_caller(&req);
        reply(campaigns::get(&self.state, who.as_ref(), req.get_ref()).await)
    }

    async fn list_campaigns(
        &self,
        req: Request<pb::ListCampaignsRequest>,
    ) -> Reply<pb::CampaignList> {
        let who = maybe_caller(&req);
        reply(campaigns::list(&self.state, who.as_ref(), req.get_ref()).await)
    }

    async fn pledge(&self, req: Request<pb::PledgeRequest>) -> Reply<pb::PledgeReply> {
        let who = caller(&req)?;
        reply(campaigns::pledge::pledge(&self.state, &who, req.get_ref()).await)
    }

    async fn close_campaign(&self, req: Request<pb::CloseCampaignRequest>) -> Reply<pb::Campaign> {
        let who = caller(&req)?;
        reply(campaigns::settle::close(&self.state, &who, req.get_ref()).await)
    }

    async fn sales_stats(
        &self,
        req: Request<quire_proto::ops::v1::StatsRequest>,
    ) -> Reply<pb::SalesStats> {
        let who = caller(&req)?;
        reply(sales_stats::sales_stats(&self.state, &who, req.get_ref()).await)
    }

    async fn get_wallet_settings(
        &self,
        _req: Request<pb::GetWalletSettingsRequest>,
    ) -> Reply<pb::WalletSettings> {
        reply(settings::get(&self.state).await)
    }

    async fn update_wallet_settings(
        &self,
        req: Request<pb::UpdateWalletSettingsRequest>,
    ) -> Reply<pb::WalletSettings> {
        let who = caller(&req)?;
        reply(settings::update(&self.state, &who, req.get_ref()).await)
    }
}
