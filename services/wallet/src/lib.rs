//! quire-wallet: every user's wallet as an account of a double-entry ledger in integer
//! cents; recharges through a payment provider, admins' top-ups, spending, book trades
//! (writer k = 0.9, platform the rest), invite rewards and crowd-funding campaigns whose
//! pledges wait in escrow accounts of the ledger. It owns the `wallet` schema and announces
//! trades on `quire.trade.v1`, recharges on `quire.wallet.v1` and settled campaigns on
//! `quire.campaign.v1`.
//!
//! It must never create, lose or double money: not under concurrency, client retries, a
//! killed process or a broker that is down. So every movement is one transfer whose
//! entries sum to zero (checked by the database at commit), written in one transaction
//! with what it pays for, its event and its idempotency answer; a user balance never goes
//! below zero (a CHECK); a price or seller is never taken from the client; and a caller
//! never acts for another user unless they are an admin. A campaign is settled exactly
//! once, in one transaction, and money pledged is always in its escrow or paid out of it.
#![forbid(unsafe_code)]
#![cfg_attr(test, allow(clippy::unwrap_used, clippy::expect_used))]

pub mod campaigns;
pub mod catalog;
pub mod config;
pub mod consume;
pub mod credits;
pub mod db;
pub mod error;
pub mod folder;
pub mod grpc_api;
pub mod idempotency;
pub mod input;
pub mod ledger;
pub mod payment;
pub mod recharges;
pub mod rewards;
pub mod sales_stats;
pub mod settings;

pub mod trades;
pub mod wallet_view;
pub mod wallets;

use std::sync::Arc;

use quire_kit::app::{Core, Spec};
use quire_kit::config::CommonConfig;
use quire_kit::db::{PgConn, PgPool};
use quire_kit::events::topics;
use quire_kit::jwks::Keys;
use quire_kit::upstream::Upstream;
use quire_proto::catalog::v1::catalog_service_client::CatalogServiceClient;
use quire_proto::wallet::v1::wallet_service_server::WalletServiceServer;

pub use config::WalletConfig;

pub const SERVICE: &str = "wallet";
/// `ce_source` of the events this service writes.
pub const SOURCE: &str = "quire-wallet";

/// What kit builds, migrates and starts of this service.
pub const SPEC: Spec = Spec {
    name: SERVICE,
    process: "quire-wallet",
    migrations: db::MIGRATIONS,
    topics: &[
        topics::TRADE,
        topics::USER,
        topics::WALLET,
        topics::CAMPAIGN,
    ],
    ports: quire_kit::config::ports::WALLET,
};

/// What every request handler needs.
#[derive(Clone)]
pub struct AppState {
    pub pool: PgPool,
    pub catalog: CatalogServiceClient<Upstream>,
    pub payments: Arc<dyn payment::PaymentProvider>,
    pub config: Arc<WalletConfig>,
    /// Rung after a commit that enqueued events, so the relay sends them at once.
    pub outbox: quire_kit::outbox::Wake,
    /// Rung after a commit that wrote pending credits, so the folder takes them in soon.
    pub folder: folder::Folder,
}

impl AppState {
    pub async fn conn(&self) -> error::Result<PgConn> {
        Ok(quire_kit::db::conn(&self.pool).await?)
    }
}

/// The built service, bound to its ports and ready to run.
pub struct Application {
    state: AppState,
    keys: Keys,
    core: Core,
}

impl Application {
    /// Checks the settings, binds the ports (port 0 picks a free one, for tests), migrates
    /// the schema, connects to Postgres and Kafka and loads the token keys (when auth
    /// answers already).
    pub async fn build(common: CommonConfig, config: WalletConfig) -> anyhow::Result<Self> {
        config.check()?;
        let core = Core::build(SPEC, common).await?;
        let keys = Keys::start(&config.auth_url).await?;
        let state = AppState {
            pool: core.pool.clone(),
            catalog: CatalogServiceClient::new(Upstream::new("catalog", &config.catalog_url)?),
            payments: payment::from_name(&config.payment_provider, config.allow_instant_payments)?,
            config: Arc::new(config),
            outbox: quire_kit::outbox::Wake::default(),
            folder: folder::Folder::default(),
        };
        Ok(Self { state, keys, core })
    }
}

impl quire_kit::app::Serve for Application {
    fn core(&self) -> &Core {
        &self.core
    }

    /// Serves gRPC and the admin routes, relays the outbox, pays rewards from events, folds
    /// pending credits, settles pending recharges and expired campaigns until `stop`.
    async fn run_until(
        self,
        stop: impl std::future::Future<Output = ()> + Send + 'static,
    ) -> anyhow::Result<()> {
        let brokers = self.core.common.kafka_brokers.clone();
        let mut service = self.core.start(self.state.outbox.clone())?;
        let keys = self.keys.clone();
        service.spawn(|stop| keys.run(stop));
        let consumer = quire_kit::consumer::EventConsumer::new(
            &brokers,
            &self.state.config.events_group,
            &[topics::USER, topics::TRADE],
            self.state.pool.clone(),
        )?;
        service.report_consumer(
            &self.state.config.events_group,
            &[topics::USER, topics::TRADE],
        );
        let rewards = rewards::Rewards {
            registered_cents: self.state.config.reward_registered_cents,
            first_purchase_cents: self.state.config.reward_first_purchase_cents,
        };
        service.spawn(|stop| consumer.run(rewards, stop));
        let (folder, pool) = (self.state.folder.clone(), self.state.pool.clone());
        service.spawn(|stop| folder.run(pool, stop));
        let settler = self.state.clone();
        service.spawn(|stop| recharges::run_settler(settler, stop));
        let sweeper = self.state.clone();
        service.spawn(|stop| campaigns::sweeper::run(sweeper, stop));
        let api = WalletServiceServer::new(grpc_api::WalletApi { state: self.state });
        service.serve(api, self.keys.interceptor(), stop).await
    }
}
