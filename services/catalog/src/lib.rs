//! quire-catalog: books and their files, the shop's listings, who may read what (whole
//! book or trial part), what readers do with books (comments, bookmarks, progress,
//! favourites, history), publishers' shelves and the search index. It owns the `catalog`
//! schema and announces book changes on `quire.book.v1`.
//!
//! It must never hand more than the trial part to someone not entitled to the whole book,
//! show an unlisted book to anyone but its writer, its publisher and admins, let a caller
//! act for another user unless the caller is an admin, count a rating from anyone who does
//! not own the book, show the analysis's quality score to anyone but the writer and admins,
//! or change a book without writing its event in the same transaction (readers' rating
//! totals are the readers', not the book's, and carry no event).
#![forbid(unsafe_code)]
#![cfg_attr(test, allow(clippy::unwrap_used, clippy::expect_used))]

pub mod access;
pub mod book_stats;
pub mod bookmarks;
pub mod books;
pub mod comments;
pub mod config;
pub mod covers;
pub mod db;
pub mod error;
pub mod favourites;
pub mod grpc_api;
pub mod history;
pub mod input;
pub mod listing;
pub mod names;
pub mod objects;
pub mod progress;
pub mod projections;
pub mod ratings;
pub mod reading;
pub mod search;
pub mod settings;
pub mod shelves;
pub mod trial_cache;
pub mod wallet_purchases;

use std::sync::Arc;

use quire_book_search::SearchIndex;
use quire_kit::app::{Core, Spec};
use quire_kit::config::CommonConfig;
use quire_kit::db::PgPool;
use quire_kit::events::topics;
use quire_kit::objects::Objects;
use quire_proto::catalog::v1::catalog_service_server::CatalogServiceServer;

pub use config::CatalogConfig;

pub const SERVICE: &str = "catalog";

/// What kit builds, migrates and starts of this service.
pub const SPEC: Spec = Spec {
    name: SERVICE,
    process: "quire-catalog",
    migrations: db::MIGRATIONS,
    topics: &[topics::BOOK, topics::TRADE, topics::USER],
    ports: quire_kit::config::ports::CATALOG,
};

/// What every request handler needs.
#[derive(Clone)]
pub struct AppState {
    pub pool: PgPool,
    pub objects: Objects,
    pub index: SearchIndex,
    pub trials: trial_cache::TrialCache,
    pub wallet: wallet_purchases::WalletPurchases,
    pub config: Arc<CatalogConfig>,
}

/// The built service, bound to its ports and ready to run.
pub struct Application {
    state: AppState,
    keys: quire_kit::jwks::Keys,
    core: Core,
}

impl Application {
    /// Binds the ports (port 0 picks a free one, for tests), migrates the schema, connects
    /// to Postgres, the object store and Kafka, opens the search index and loads the token
    /// keys (when auth answers already).
    pub async fn build(common: CommonConfig, config: CatalogConfig) -> anyhow::Result<Self> {
        let core = Core::build(SPEC, common).await?;
        let objects = Objects::open(&config.object_store_url())?;
        let index =
            SearchIndex::open(config.search_index_dir.as_deref().map(std::path::Path::new))?;
        let keys = quire_kit::jwks::Keys::start(&config.auth_url).await?;
        let state = AppState {
            pool: core.pool.clone(),
            objects,
            index,
            trials: trial_cache::TrialCache::new(config.trial_cache_bytes),
            wallet: wallet_purchases::WalletPurchases::new(
                &config.wallet_url,
                std::time::Duration::from_millis(config.wallet_timeout_ms),
            )?,
            config: Arc::new(config),
        };
        Ok(Self { state, keys, core })
    }
}

impl quire_kit::app::Serve for Application {
    fn core(&self) -> &Core {
        &self.core
    }

    /// Serves gRPC and the admin routes, relays the outbox and runs the consumers until `stop`.
    async fn run_until(
        self,
        stop: impl std::future::Future<Output = ()> + Send + 'static,
    ) -> anyhow::Result<()> {
        let brokers = self.core.common.kafka_brokers.clone();
        // Its writers leave their events to the relay's poll.
        let mut service = self.core.start(quire_kit::outbox::Wake::default())?;
        let keys = self.keys.clone();
        service.spawn(|stop| keys.run(stop));
        let projections = quire_kit::consumer::EventConsumer::new(
            &brokers,
            &self.state.config.events_group,
            &[topics::TRADE, topics::USER],
            self.state.pool.clone(),
        )?;
        service.report_consumer(
            &self.state.config.events_group,
            &[topics::TRADE, topics::USER],
        );
        service.spawn(|stop| projections.run(projections::Projections, stop));
        let search_group = self.state.config.search_group();
        let indexer = search::Indexer::start(self.state.clone(), &brokers, &search_group).await?;
        service.report_consumer(&search_group, &[topics::BOOK]);
        service.spawn(|stop| indexer.run(stop));

        let limit = usize::try_from(self.state.config.max_upload_bytes)
            .unwrap_or(usize::MAX)
            .saturating_add(1024 * 1024);
        let api = CatalogServiceServer::new(grpc_api::CatalogApi { state: self.state })
            .max_decoding_message_size(limit)
            .max_encoding_message_size(limit);
        service.serve(api, self.keys.interceptor(), stop).await
    }
}
