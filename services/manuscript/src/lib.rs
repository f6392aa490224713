//! quire-manuscript: writers' manuscripts. It takes a writer's upload (one or more files:
//! epub, pdf, txt, docx, markdown), keeps the files, extracts the text (quire-bookfile, in
//! a worker process under OS limits on memory and CPU time: `uploads::worker`, the
//! binary's `extract` subcommand), analyses it offline (quire-analysis: summaries,
//! authors, tags, genre, characters, quality scores, the AI check), refuses a text anyone
//! uploaded before (exactly or nearly), and has catalog make the unlisted book the writer
//! prices and publishes later. It answers the advisory AI check of any text, the progress
//! of an upload, and a writer's manuscripts. It owns the `manuscript` schema and announces
//! `manuscript.analyzed` on `quire.manuscript.v1`; it follows `quire.book.v1` to tell
//! which books are in the shop.
//! For pricing and sales analytics it keeps projections of every book (`quire.book.v1`),
//! every trade (`quire.trade.v1`) and every settled campaign (`quire.campaign.v1`): the
//! revenue curve of a book (quire-pricing's demand model calibrated on those sales) and a
//! writer's or publisher's sales over time.
//!
//! The code stands in two wings that do not import each other: [`uploads`] (a manuscript
//! from the writer's files to the unlisted book) and [`analytics`] (pricing and sales).
//! `grpc_api` calls into both; what both use (the catalog client, the input checks, the
//! error, the `db` models) stands at the top beside it.
//!
//! It must never parse an upload in its own process (a hostile file may exhaust the
//! memory or the CPU of whatever reads it: only a worker, which dies alone, reads one),
//! trust a worker's answer past its bound, leave a worker running after its upload, let a
//! writer upload for someone else (only an admin may), let a reader upload at all, keep
//! half a manuscript (a failed upload leaves no row, no book and no
//! stored file behind: see `uploads::publish`), let the same text in twice (not even two
//! copies at once), publish a book (the switch into the shop stays the writer's), send a
//! manuscript anywhere for analysis (no network, no hosted model), use a file name as a
//! path, or complete a manuscript without writing its event in the same transaction. Its
//! analytics must never show a book's curve or sales to anyone but its writer, its
//! publisher or an admin (others are told the book is not there), count a sale twice (a
//! replayed event, the same trade again), count a campaign backer's trade as a sale or as
//! earnings (the campaign's payout is counted once), or serve a calibration older than the
//! sales it has applied.
#![forbid(unsafe_code)]
#![cfg_attr(test, allow(clippy::unwrap_used, clippy::expect_used))]

pub mod analytics;
pub mod catalog;
pub mod config;
pub mod db;
pub mod error;
pub mod grpc_api;
pub mod input;
pub mod uploads;

use std::sync::Arc;

use quire_kit::app::{Core, Spec};
use quire_kit::config::CommonConfig;
use quire_kit::db::PgPool;
use quire_kit::events::topics;
use quire_kit::jwks::Keys;
use quire_kit::objects::Objects;
use quire_proto::manuscript::v1::manuscript_service_server::ManuscriptServiceServer;

pub use config::ManuscriptConfig;

use crate::analytics::projections::Projections;
use crate::uploads::book_events::BookEvents;

pub const SERVICE: &str = "manuscript";
/// `ce_source` of the events this service writes, and the name of its binary.
pub const SOURCE: &str = "quire-manuscript";

pub const SPEC: Spec = Spec {
    name: SERVICE,
    process: SOURCE,
    migrations: db::MIGRATIONS,
    topics: &[
        topics::MANUSCRIPT,
        topics::BOOK,
        topics::TRADE,
        topics::CAMPAIGN,
    ],
    ports: quire_kit::config::ports::MANUSCRIPT,
};

/// A gRPC request's room beyond the files it carries (field tags, names, the rest).
const MESSAGE_SLACK: usize = 1024 * 1024;

/// What every request handler needs.
#[derive(Clone)]
pub struct AppState {
    pub pool: PgPool,
    pub objects: Objects,
    pub catalog: catalog::Catalog,
    pub config: Arc<ManuscriptConfig>,
    /// Rung after a commit that enqueued an event, so the relay sends it at once.
    pub outbox: quire_kit::outbox::Wake,
    /// Readings and analyses under way at once: one per core, the rest wait their turn
    /// (each holds an upload's files and text in memory and keeps a core busy).
    pub cpu: Arc<tokio::sync::Semaphore>,
    /// The calibrated demand models of this replica (see `analytics::pricing_cache`).
    pub pricing: Arc<analytics::pricing_cache::PricingCache>,
}

impl AppState {
    /// Waits for a core to be free for CPU work (see [`AppState::cpu`]).
    pub async fn cpu_slot(&self) -> error::Result<tokio::sync::SemaphorePermit<'_>> {
        self.cpu.acquire().await.map_err(|e| {
            <error::ManuscriptError as quire_kit::CommonErrors>::internal(format!(
                "cpu slots closed: {e}"
            ))
        })
    }
}

/// The built service, bound to its ports and ready to run.
pub struct Application {
    state: AppState,
    core: Core,
    keys: Keys,
}

impl Application {
    /// Checks the settings (the extraction worker's program included), binds the ports (port 0 picks a free one, for tests),
    /// migrates the schema, connects to Postgres, the object store and Kafka, and loads the
    /// token keys (when auth answers already).
    pub async fn build(common: CommonConfig, config: ManuscriptConfig) -> anyhow::Result<Self> {
        config.check()?;
        let config = ManuscriptConfig {
            manuscript_extract_worker: Some(uploads::worker::program(&config)?),
            ..config
        };
        let core = Core::build(SPEC, common).await?;
        let objects = Objects::open(&config.object_store_url())?;
        let keys = Keys::start(&config.auth_url).await?;
        let catalog = catalog::Catalog::new(
            &config.catalog_url,
            config.catalog_timeout(),
            max_message(&config),
        )?;
        let state = AppState {
            pool: core.pool.clone(),
            objects,
            catalog,
            config: Arc::new(config),
            outbox: quire_kit::outbox::Wake::default(),
            cpu: cpu_slots(),
            pricing: Arc::default(),
        };
        Ok(Self { state, core, keys })
    }
}

impl quire_kit::app::Serve for Application {
    fn core(&self) -> &Core {
        &self.core
    }

    /// Serves gRPC and the admin routes, relays the outbox, follows the book events (and,
    /// for analytics, the trade and campaign events) and sweeps abandoned uploads until `stop`.
    async fn run_until(
        self,
        stop: impl std::future::Future<Output = ()> + Send + 'static,
    ) -> anyhow::Result<()> {
        let brokers = self.core.common.kafka_brokers.clone();
        let mut service = self.core.start(self.state.outbox.clone())?;
        let keys = self.keys.clone();
        service.spawn(|stop| keys.run(stop));
        let books = quire_kit::consumer::EventConsumer::new(
            &brokers,
            &self.state.config.events_group,
            &[topics::BOOK],
            self.state.pool.clone(),
        )?;
        service.report_consumer(&self.state.config.events_group, &[topics::BOOK]);
        service.spawn(|stop| books.run(BookEvents, stop));
        let analytics_group = self.state.config.analytics_group();
        let analytics_topics = [topics::BOOK, topics::TRADE, topics::CAMPAIGN];
        let analytics = quire_kit::consumer::EventConsumer::new(
            &brokers,
            &analytics_group,
            &analytics_topics,
            self.state.pool.clone(),
        )?;
        service.report_consumer(&analytics_group, &analytics_topics);
        service.spawn(|stop| analytics.run(Projections, stop));
        let sweeper = self.state.clone();
        service.spawn(|stop| uploads::sweeper::run(sweeper, stop));

        let limit = max_message(&self.state.config);
        let api = ManuscriptServiceServer::new(grpc_api::ManuscriptApi { state: self.state })
            .max_decoding_message_size(limit);
        service.serve(api, self.keys.interceptor(), stop).await
    }
}

/// One slot of CPU work per core.
pub fn cpu_slots() -> Arc<tokio::sync::Semaphore> {
    let cores = std::thread::available_parallelism().map_or(2, usize::from);
    Arc::new(tokio::sync::Semaphore::new(cores))
}

/// The largest request: every file of an upload at its limit.
fn max_message(config: &ManuscriptConfig) -> usize {
    usize::try_from(config.manuscript_max_bytes)
        .unwrap_or(usize::MAX)
        .saturating_add(MESSAGE_SLACK)
}
