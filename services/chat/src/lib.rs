//! quire-chat: Quinn, the book assistant. A reader says in their own words what they feel
//! like reading ("something cosy", "a mystery under $5", "shorter", "more like the
//! second"); the service understands it as a structured request, answers with a search
//! query or one clarifying question, and recommends the books that fit, each with a
//! reason. It owns the `chat` schema (conversations: messages, what was asked, what was
//! shown; the books, their vectors, sales and purchases it follows from `quire.book.v1`
//! and `quire.trade.v1`) and serves `quire.chat.v1.ChatService`.
//!
//! [`understanding`] is a pure, deterministic function from the previous request, the
//! books last shown and one utterance to the new request and the kind of reply. It has no
//! state of its own, reads no clock, file or random source, and needs no network or model.
//! [`ranking`] orders the candidates (catalog's search hits and the index) the same way.
//! The rest is the service: [`turn`] (Chat), [`recommend`] (RecommendBooks), [`history`]
//! (GetConversation), [`moods`] (ListMoods), the projections ([`events`]), the vectors
//! ([`embedding`]).
//!
//! It must never panic on any text a reader sends (callers refuse input over 500
//! characters, but every function here takes any string), send what a reader says
//! anywhere (no network, no hosted model unless an operator names one), invent a genre
//! outside the platform's taxonomy, or answer the same words differently twice. It must
//! never show a reader another reader's conversation (another's id is NOT_FOUND), let
//! anyone speak for someone else (`uid` is the caller), lose or double a message when two
//! turns of one conversation come at once (a turn holds its conversation's row), recommend
//! a book twice in one conversation or a book the reader bought, count a trade twice, or
//! let an older book snapshot replace a newer one. Without the model it still answers,
//! ranking on words alone, and says so in its log and on `/metrics`.
#![forbid(unsafe_code)]
#![cfg_attr(test, allow(clippy::unwrap_used, clippy::expect_used))]

pub mod books;
pub mod catalog;
pub mod config;
pub mod conversation;
pub mod db;
pub mod embedding;
pub mod error;
pub mod events;
pub mod grpc_api;
pub mod history;
pub mod input;
pub mod moods;
pub mod ranking;
pub mod reader;
pub mod recommend;
pub mod settings;
pub mod stats;
pub mod turn;
pub mod understanding;
pub mod view;

use std::sync::{Arc, RwLock};

use quire_kit::app::{Core, Spec};
use quire_kit::config::CommonConfig;
use quire_kit::db::PgPool;
use quire_kit::events::topics;
use quire_kit::jwks::Keys;
use quire_proto::chat::v1::chat_service_server::ChatServiceServer;

pub use config::ChatConfig;

/// The name Quinn introduces itself by unless an admin sets another.
pub const DEFAULT_NAME: &str = "Quinn";

/// The longest utterance callers accept, in characters.
pub const MAX_INPUT_CHARS: usize = 500;

pub const SERVICE: &str = "chat";
/// The name of its binary and its telemetry.
pub const SOURCE: &str = "quire-chat";

pub const SPEC: Spec = Spec {
    name: SERVICE,
    process: SOURCE,
    migrations: db::MIGRATIONS,
    topics: &[topics::BOOK, topics::TRADE],
    ports: quire_kit::config::ports::CHAT,
};

/// What every request handler needs.
#[derive(Clone)]
pub struct AppState {
    pub pool: PgPool,
    pub catalog: catalog::Catalog,
    pub config: Arc<ChatConfig>,
    /// The listed books, their vectors and sales (see [`events`] and [`embedding`]).
    pub index: Arc<RwLock<ranking::Index>>,
    pub vectors: Arc<embedding::Vectors>,
    /// Rung when books changed: the embedder looks for books without a vector.
    pub embed_wake: Arc<tokio::sync::Notify>,
}

/// The built service, bound to its ports and ready to run.
pub struct Application {
    state: AppState,
    core: Core,
    keys: Keys,
}

impl Application {
    /// Checks the settings, binds the ports (port 0 picks a free one, for tests), migrates
    /// the schema, loads the index from the tables and the model (when there is one), and
    /// loads the token keys (when auth answers already).
    pub async fn build(common: CommonConfig, config: ChatConfig) -> anyhow::Result<Self> {
        config.check()?;
        let core = Core::build(SPEC, common).await?;
        let keys = Keys::start(&config.auth_url).await?;
        let catalog = catalog::Catalog::new(&config.catalog_url, config.search_timeout())?;
        let index = {
            let mut conn = quire_kit::db::conn(&core.pool).await?;
            books::load_index(&mut conn).await?
        };
        tracing::info!(
            books = index.len(),
            with_vectors = index.vector_count(),
            "chat index loaded"
        );
        let model = if config.chat_semantic {
            tokio::task::spawn_blocking(quire_embed::MaybeEmbedder::from_env).await?
        } else {
            quire_embed::MaybeEmbedder::disabled("QUIRE_CHAT_SEMANTIC=false")
        };
        let vectors = embedding::Vectors::new(model, config.chat_query_cache);
        tracing::info!(embedder = vectors.status(), "chat matching");
        let state = AppState {
            pool: core.pool.clone(),
            catalog,
            config: Arc::new(config),
            index: Arc::new(RwLock::new(index)),
            vectors: Arc::new(vectors),
            embed_wake: Arc::new(tokio::sync::Notify::new()),
        };
        embedding::publish_counts(&state.index, state.vectors.semantic());
        Ok(Self { state, core, keys })
    }
}

impl quire_kit::app::Serve for Application {
    fn core(&self) -> &Core {
        &self.core
    }

    /// Serves gRPC and the admin routes, follows the book and trade events and embeds
    /// books until `stop`.
    async fn run_until(
        self,
        stop: impl std::future::Future<Output = ()> + Send + 'static,
    ) -> anyhow::Result<()> {
        let brokers = self.core.common.kafka_brokers.clone();
        let mut service = self.core.start(quire_kit::outbox::Wake::default())?;
        let keys = self.keys.clone();
        service.spawn(|stop| keys.run(stop));

        let state = &self.state;
        let (index, vectors) = (state.index.clone(), state.vectors.clone());
        service.ready_detail(move || embedding::readiness(&index, &vectors));
        let group = state.config.chat_events_group.clone();
        let consumer = quire_kit::consumer::BatchConsumer::new(
            &brokers,
            &group,
            &[topics::BOOK, topics::TRADE],
            100,
        )?;
        service.report_consumer(&group, &[topics::BOOK, topics::TRADE]);
        let projections = events::Projections::new(
            state.pool.clone(),
            &group,
            state.index.clone(),
            state.embed_wake.clone(),
        );
        service.spawn(|stop| consumer.run(projections, stop));

        let (pool, index, vectors, wake, batch) = (
            state.pool.clone(),
            state.index.clone(),
            state.vectors.clone(),
            state.embed_wake.clone(),
            state.config.chat_embed_batch,
        );
        service.spawn(|stop| embedding::run(pool, index, vectors, wake, batch, stop));

        let api = ChatServiceServer::new(grpc_api::ChatApi { state: self.state });
        service.serve(api, self.keys.interceptor(), stop).await
    }
}
