//! The run loop every gRPC service shares: one stop signal for all its parts, the gRPC
//! server (health, reflection, the caller's identity, the OpsService of [`crate::ops`]),
//! the admin HTTP routes with a database ready check, the outbox relay and whatever
//! background tasks the service adds.
//!
//! ```text
//! let core = app::Core::build(SPEC, common, &grpc_addr, &admin_addr).await?; // in build
//! let mut service = core.start(wake)?;          // in run (Service::start underneath)
//! service.spawn(|stop| keys.run(stop));
//! service.report_consumer(&group, &[topics::BOOK]); // where it builds its consumer
//! service.serve(api, interceptor, quire_kit::shutdown::signal()).await
//! ```

use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use quire_proto::ops::v1::ops_service_server::OpsServiceServer;
use tokio::net::TcpListener;
use tokio::sync::watch;
use tokio::task::JoinHandle;
use tonic::body::Body;
use tonic::codegen::Service as TowerService;
use tonic::server::NamedService;
use tonic::service::Interceptor;
use tonic::service::interceptor::InterceptedService;
use tonic::transport::server::TcpIncoming;

use crate::config::CommonConfig;
use crate::db::PgPool;
use crate::ops::{ConsumerGroup, OpsApi};

/// The future a background task ends on.
pub type StopFuture = Pin<Box<dyn Future<Output = ()> + Send + 'static>>;

/// Resolves once the service is told to stop (or its [`Service`] is dropped, so a failed
/// start never leaves tasks behind). Cheap to clone; every [`Self::wait`] is a new future.
#[derive(Clone)]
struct Stopping(watch::Receiver<bool>);

impl Stopping {
    fn wait(&self) -> StopFuture {
        let mut rx = self.0.clone();
        Box::pin(async move {
            let _ = rx.wait_for(|s| *s).await;
        })
    }
}

/// A service's gRPC and admin ports, bound while the service is built so that a caller
/// (a test binding port 0) learns them before the service runs.
pub struct Listeners {
    grpc: TcpListener,
    admin: TcpListener,
}

impl Listeners {
    pub async fn bind(grpc_addr: &str, admin_addr: &str) -> std::io::Result<Self> {
        Ok(Self {
            grpc: TcpListener::bind(grpc_addr).await?,
            admin: TcpListener::bind(admin_addr).await?,
        })
    }

    pub fn grpc_port(&self) -> u16 {
        port(&self.grpc)
    }

    pub fn admin_port(&self) -> u16 {
        port(&self.admin)
    }
}

/// A service bound to its ports, with its outbox relay already running.
pub struct Service {
    name: &'static str,
    grpc: TcpListener,
    admin: TcpListener,
    pool: PgPool,
    /// The migrations `/readyz` waits for (a pod started before its migrate Job finished
    /// takes no traffic until the schema is what it was built for).
    migrations: Arc<[String]>,
    brokers: String,
    consumers: Vec<ConsumerGroup>,
    stop_tx: watch::Sender<bool>,
    stopping: Stopping,
    tasks: Vec<JoinHandle<()>>,
    ready_detail: Option<crate::admin_http::ReadyDetail>,
}

impl Service {
    /// Announces the start of service `name` and starts relaying its outbox to Kafka,
    /// at once when `wake` rings, else every `outbox_poll_ms`; it is ready once the schema
    /// holds `migrations` (and then while the database answers).
    pub fn start(
        name: &'static str,
        listeners: Listeners,
        pool: PgPool,
        migrations: Vec<String>,
        common: &CommonConfig,
        wake: crate::outbox::Wake,
    ) -> anyhow::Result<Self> {
        let Listeners { grpc, admin } = listeners;
        let (stop_tx, stop_rx) = watch::channel(false);
        let mut service = Self {
            name,
            grpc,
            admin,
            pool,
            migrations: migrations.into(),
            brokers: common.kafka_brokers.clone(),
            consumers: Vec::new(),
            stop_tx,
            stopping: Stopping(stop_rx),
            tasks: Vec::new(),
            ready_detail: None,
        };
        tracing::info!(
            grpc_port = port(&service.grpc),
            admin_port = port(&service.admin),
            "{name} service starting"
        );
        let relay = crate::outbox::Relay::new(
            service.pool.clone(),
            &common.kafka_brokers,
            Duration::from_millis(common.outbox_poll_ms),
            wake,
        )?;
        service.spawn(|stop| relay.run(stop));
        Ok(service)
    }

    /// Adds a line to what `/readyz` answers (how well the service works now).
    pub fn ready_detail(&mut self, detail: impl Fn() -> String + Send + Sync + 'static) {
        self.ready_detail = Some(Arc::new(detail));
    }

    /// Names a consumer group of the service and the topics it reads, so that the
    /// OpsService reports how far it lags behind them.
    pub fn report_consumer(&mut self, group: &str, topics: &[&str]) {
        self.consumers.push(ConsumerGroup {
            group: group.to_owned(),
            topics: topics.iter().map(|t| (*t).to_owned()).collect(),
        });
    }

    /// Runs a background task that must end once the future it is given resolves; the
    /// service waits for it before [`Self::serve`] returns.
    pub fn spawn<T>(&mut self, task: impl FnOnce(StopFuture) -> T)
    where
        T: Future<Output = ()> + Send + 'static,
    {
        self.tasks.push(tokio::spawn(task(self.stopping.wait())));
    }

    /// Serves `api` and the OpsService behind `interceptor` (with health and reflection)
    /// and the admin routes until `stop` resolves, then waits for the background tasks.
    pub async fn serve<S, I>(
        mut self,
        api: S,
        interceptor: I,
        stop: impl Future<Output = ()> + Send + 'static,
    ) -> anyhow::Result<()>
    where
        S: NamedService,
        I: Interceptor + Clone + Send + Sync + 'static,
        InterceptedService<S, I>: TowerService<http::Request<Body>, Error = Infallible>
            + NamedService
            + Clone
            + Send
            + Sync
            + 'static,
        <InterceptedService<S, I> as TowerService<http::Request<Body>>>::Response:
            axum::response::IntoResponse,
        <InterceptedService<S, I> as TowerService<http::Request<Body>>>::Future: Send + 'static,
    {
        self.tasks.push(tokio::spawn(crate::ops::gauges::export(
            self.name,
            self.pool.clone(),
            self.brokers.clone(),
            self.consumers.clone(),
            self.stopping.wait(),
        )));
        let (health, health_service) = tonic_health::server::health_reporter();
        health.set_serving::<S>().await;
        let ops = OpsServiceServer::new(OpsApi::new(
            self.name,
            self.pool.clone(),
            &self.brokers,
            self.consumers,
        ));
        let grpc = crate::grpc::server()
            .add_service(health_service)
            .add_service(crate::grpc::reflection()?)
            .add_service(InterceptedService::new(ops, interceptor.clone()))
            .add_service(InterceptedService::new(api, interceptor))
            .serve_with_incoming_shutdown(
                // Accepted sockets need TCP_NODELAY themselves (the builder's setting only
                // reaches listeners it binds): without it a reply written in two parts
                // waits for the client's delayed ACK, about 40 ms per call.
                TcpIncoming::from(self.grpc).with_nodelay(Some(true)),
                self.stopping.wait(),
            );

        let pool = self.pool.clone();
        let migrations = self.migrations.clone();
        // Once the schema was seen current it stays so (a migration is never undone while
        // this build runs), and readiness is the database answering.
        let schema_current = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let ready: crate::admin_http::ReadyCheck = Arc::new(move || {
            let (pool, migrations) = (pool.clone(), migrations.clone());
            let schema_current = schema_current.clone();
            Box::pin(async move {
                use std::sync::atomic::Ordering::Relaxed;
                if schema_current.load(Relaxed) {
                    return crate::db::ping(&pool).await;
                }
                let current = crate::db::schema_is_current(&pool, &migrations).await;
                if current {
                    schema_current.store(true, Relaxed);
                } else {
                    tracing::warn!("not ready: the schema lacks migrations this build needs");
                }
                current
            })
        });
        let admin = crate::admin_http::serve(
            self.admin,
            ready,
            self.ready_detail.clone(),
            self.stopping.wait(),
        );

        let stop_tx = self.stop_tx;
        tokio::spawn(async move {
            stop.await;
            let _ = stop_tx.send(true);
        });
        let (g, a) = tokio::join!(grpc, admin);
        let _ = futures::future::join_all(self.tasks).await;
        g?;
        a?;
        tracing::info!("{} service stopped", self.name);
        Ok(())
    }
}

fn port(listener: &TcpListener) -> u16 {
    listener.local_addr().map(|a| a.port()).unwrap_or(0)
}
