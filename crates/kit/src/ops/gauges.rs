//! The ops figures as Prometheus gauges, so that alerts can watch what the OpsService
//! answers admins: the outbox backlog and every consumer group's lag, refreshed every
//! [`EVERY`] while the service runs (each replica reports the same shared figures: alert
//! on their `max`).
//!
//! | metric | labels |
//! |---|---|
//! | `quire_outbox_pending_events` | `service` |
//! | `quire_outbox_oldest_pending_seconds` | `service` |
//! | `quire_consumer_lag_records` | `group`, `topic` (absent while the broker cannot say) |

use std::time::Duration;

use crate::db::PgPool;
use crate::service::StopFuture;

use super::{ConsumerGroup, ask_lags, backlog};

pub const OUTBOX_PENDING: &str = "quire_outbox_pending_events";
pub const OUTBOX_OLDEST: &str = "quire_outbox_oldest_pending_seconds";
pub const CONSUMER_LAG: &str = "quire_consumer_lag_records";

/// How often the gauges are refreshed: about a Prometheus scrape interval, and cheap (one
/// indexed count, a few offset requests per partition).
pub const EVERY: Duration = Duration::from_secs(15);

/// Refreshes the gauges of `service` until `stop` resolves.
pub async fn export(
    service: &'static str,
    pool: PgPool,
    brokers: String,
    consumers: Vec<ConsumerGroup>,
    stop: StopFuture,
) {
    // The recorder first: a gauge set before it is installed goes nowhere.
    crate::admin_http::prometheus();
    tokio::pin!(stop);
    let mut tick = tokio::time::interval(EVERY);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = &mut stop => return,
            _ = tick.tick() => refresh(service, &pool, &brokers, &consumers).await,
        }
    }
}

/// Sets every gauge once from the database and the broker.
pub async fn refresh(
    service: &'static str,
    pool: &PgPool,
    brokers: &str,
    consumers: &[ConsumerGroup],
) {
    match crate::db::conn(pool).await {
        Ok(mut conn) => match backlog(&mut conn).await {
            Ok(b) => {
                ::metrics::gauge!(OUTBOX_PENDING, "service" => service).set(b.pending as f64);
                ::metrics::gauge!(OUTBOX_OLDEST, "service" => service).set(b.oldest_secs);
            }
            Err(error) => tracing::warn!(%error, "cannot read the outbox backlog"),
        },
        Err(error) => tracing::warn!(%error, "cannot read the outbox backlog"),
    }
    for lag in ask_lags(brokers, consumers).await {
        if lag.lag >= 0 {
            ::metrics::gauge!(CONSUMER_LAG, "group" => lag.group, "topic" => lag.topic)
                .set(lag.lag as f64);
        }
    }
}
