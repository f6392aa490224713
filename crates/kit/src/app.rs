//! What every service's `Application` is built on, and how its binary starts.
//!
//! A service describes itself once in a [`Spec`]. Its `Application::build` opens a [`Core`]
//! (ports bound, schema migrated, pool open, topics there) and adds its own state; its
//! `run_until` turns the core into a running [`Service`] and adds its consumers and its
//! gRPC API. Its `main.rs` is [`main`]: telemetry, the shared settings, and the `migrate`
//! subcommand.
//!
//! ```text
//! pub const SPEC: Spec = Spec { name: "wallet", process: "quire-wallet", ... }; // lib.rs
//! let core = Core::build(SPEC, common).await?;                  // Application::build
//! let mut service = self.core.start(wake)?;                       // Serve::run_until
//! quire_kit::app::main(SPEC, |common| async move { ... }).await   // main.rs
//! ```
//!
//! [`Serve`] gives every `Application` the same outside: its ports and its run loops.

use std::future::Future;

use diesel_migrations::EmbeddedMigrations;

use crate::config::{CommonConfig, Ports};
use crate::db::{DbError, PgPool};
use crate::outbox::Wake;
use crate::service::{Listeners, Service};

/// What kit needs to know of a service to build, migrate and start it. Every use takes a
/// fresh copy of the service's `const SPEC` (its migrations cannot be copied).
pub struct Spec {
    /// Its short name: its default schema, and what its logs call it (`"wallet"`).
    pub name: &'static str,
    /// What its telemetry is named (`"quire-wallet"`, as its binary is).
    pub process: &'static str,
    /// Its own migrations, applied after kit's into its schema.
    pub migrations: EmbeddedMigrations,
    /// The topics it writes or reads, created at start when missing (production creates
    /// them ahead with Strimzi and sets `kafka_create_topics` false; creating them keeps a
    /// bare broker and the tests working).
    pub topics: &'static [&'static str],
    /// Where it listens unless `QUIRE_GRPC_ADDR` / `QUIRE_ADMIN_ADDR` say otherwise.
    pub ports: Ports,
}

/// The part of every built service that is the same everywhere: its ports bound (so that a
/// test binding port 0 learns them before the service runs), its schema migrated (when
/// `migrate_on_start`), its pool open and its topics created.
pub struct Core {
    name: &'static str,
    pub common: CommonConfig,
    /// Connections confined to the service's schema.
    pub pool: PgPool,
    listeners: Listeners,
    /// The migrations this build needs applied before it is ready.
    migrations: Vec<String>,
}

impl Core {
    /// Binds the ports first (a test that reserved a port frees it just before), then
    /// migrates, opens the pool and creates the topics.
    pub async fn build(spec: Spec, common: CommonConfig) -> anyhow::Result<Self> {
        let (grpc_addr, admin_addr) = common.listen_addrs(spec.ports);
        let listeners = Listeners::bind(&grpc_addr, &admin_addr).await?;
        let schema = common.schema_or(spec.name);
        let migrations = crate::db::migration_versions(&spec.migrations)?;
        if common.migrate_on_start {
            crate::db::run_migrations(common.migrate_url(), &schema, spec.migrations).await?;
        }
        let pool = crate::db::pool(&common.database_url, &schema, common.db_pool_size)?;
        if common.kafka_create_topics {
            crate::events::ensure_topics(&common.kafka_brokers, spec.topics).await?;
        } else {
            let missing = crate::events::missing_topics(&common.kafka_brokers, spec.topics).await?;
            anyhow::ensure!(
                missing.is_empty(),
                "the topics {missing:?} do not exist and QUIRE_KAFKA_CREATE_TOPICS is false \
                 (in Kubernetes Strimzi's topic operator creates them from their KafkaTopic)"
            );
        }
        Ok(Self {
            name: spec.name,
            common,
            pool,
            listeners,
            migrations,
        })
    }

    pub fn grpc_port(&self) -> u16 {
        self.listeners.grpc_port()
    }

    pub fn admin_port(&self) -> u16 {
        self.listeners.admin_port()
    }

    /// Starts the service on its ports, relaying its outbox (at once when `wake` rings).
    pub fn start(self, wake: Wake) -> anyhow::Result<Service> {
        Service::start(
            self.name,
            self.listeners,
            self.pool,
            self.migrations,
            &self.common,
            wake,
        )
    }
}

/// What every service's `Application` is from the outside: built, it knows its ports (a
/// test that bound port 0 learns them here) and runs until a stop or SIGTERM.
pub trait Serve: Sized + Send + 'static {
    /// The bound ports and shared parts the service was built on.
    fn core(&self) -> &Core;

    /// Serves gRPC and the admin routes, relays the outbox and runs the consumers until
    /// `stop` resolves (tests), then drains and returns.
    fn run_until(
        self,
        stop: impl Future<Output = ()> + Send + 'static,
    ) -> impl Future<Output = anyhow::Result<()>> + Send;

    fn grpc_port(&self) -> u16 {
        self.core().grpc_port()
    }

    fn admin_port(&self) -> u16 {
        self.core().admin_port()
    }

    /// [`Self::run_until`] SIGTERM or Ctrl-C.
    fn run_until_stopped(self) -> impl Future<Output = anyhow::Result<()>> + Send {
        self.run_until(crate::shutdown::signal())
    }
}

/// Applies the kit's and the service's migrations to its schema.
pub async fn migrate(spec: Spec, common: &CommonConfig) -> Result<(), DbError> {
    let schema = common.schema_or(spec.name);
    crate::db::run_migrations(common.migrate_url(), &schema, spec.migrations).await?;
    tracing::info!(schema, "migrations applied");
    Ok(())
}

/// A service binary: starts telemetry and reads the shared settings; then `<binary>
/// migrate` applies the migrations and exits, and anything else runs `serve` (which builds
/// the service from its own settings and runs it until SIGTERM).
pub async fn main<F, Fut>(spec: Spec, serve: F) -> anyhow::Result<()>
where
    F: FnOnce(CommonConfig) -> Fut,
    Fut: Future<Output = anyhow::Result<()>>,
{
    let _telemetry = crate::telemetry::init(spec.process);
    let common = CommonConfig::from_env()?;
    if std::env::args().nth(1).as_deref() == Some("migrate") {
        return Ok(migrate(spec, &common).await?);
    }
    serve(common).await
}
