//! The OpsService (`quire.ops.v1`) every service serves beside its own API, behind the
//! same interceptor: its outbox backlog, its consumers' lag and its part of the audit log,
//! for admins only. [`crate::service::Service::serve`] mounts it; a service only reports
//! its consumer groups ([`crate::service::Service::report_consumer`]). The same figures
//! are Prometheus gauges ([`gauges`]).

mod backlog;
pub mod gauges;
pub(crate) mod lag;

pub use backlog::{Backlog, backlog};
pub use lag::{ConsumerGroup, lag_blocking};

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use chrono::{DateTime, SecondsFormat, Utc};
use quire_proto::ops::v1 as pb;
use quire_proto::ops::v1::ops_service_server::OpsService;
use tonic::{Request, Response, Status};

use crate::ApiError;
use crate::caller::caller_of;
use crate::db::PgPool;

/// Entries a page holds when the request leaves it out, and at most.
pub const DEFAULT_AUDIT_LIMIT: u32 = 50;
pub const MAX_AUDIT_LIMIT: u32 = 200;

/// How old an answer of the broker about lag may be before it is asked again. Each ask
/// makes a client and takes a few round trips per partition (about 170 ms here), and a
/// dashboard asks every service at once on each load; lag is a trend an operator watches,
/// for which a few seconds old is fresh. An older answer is still shown while the new one
/// is asked in the background, so no dashboard waits for the broker but the very first.
pub const LAG_FRESH_FOR: Duration = Duration::from_secs(5);

/// The last answer about lag and when it was asked.
type LastLags = Option<(Instant, Vec<pb::ConsumerLag>)>;

/// The OpsService of one service.
pub struct OpsApi {
    service: &'static str,
    pool: PgPool,
    brokers: String,
    consumers: Arc<[ConsumerGroup]>,
    last_lags: Arc<tokio::sync::Mutex<LastLags>>,
    /// Whether a background ask is under way.
    asking: Arc<AtomicBool>,
    /// Told when an ask has written its answer.
    answered: Arc<tokio::sync::Notify>,
}

/// How long a status call waits for the very first answer about lag before it answers
/// without one (-1, "not known yet"): within the dashboard's 5 s per part, whatever the
/// broker takes. The ask goes on and serves the next call.
const FIRST_ANSWER_WAIT: Duration = Duration::from_secs(4);

impl OpsApi {
    /// The ops of service `service` (its short name), whose consumer groups are `consumers`.
    pub fn new(
        service: &'static str,
        pool: PgPool,
        brokers: &str,
        consumers: Vec<ConsumerGroup>,
    ) -> Self {
        Self {
            service,
            pool,
            brokers: brokers.to_owned(),
            consumers: consumers.into(),
            last_lags: Arc::new(tokio::sync::Mutex::new(None)),
            asking: Arc::new(AtomicBool::new(false)),
            answered: Arc::new(tokio::sync::Notify::new()),
        }
    }

    /// Asks the broker in a task of its own, unless an ask is under way: the answer is
    /// kept whether or not the call that started it is still waiting.
    fn ask_in_background(&self) {
        if self.asking.swap(true, Ordering::AcqRel) {
            return;
        }
        let (brokers, consumers) = (self.brokers.clone(), self.consumers.clone());
        let (slot, asking, answered) = (
            self.last_lags.clone(),
            self.asking.clone(),
            self.answered.clone(),
        );
        tokio::spawn(async move {
            let lags = ask_lags(&brokers, &consumers).await;
            *slot.lock().await = Some((Instant::now(), lags));
            asking.store(false, Ordering::Release);
            answered.notify_waiters();
        });
    }

    /// The last answer about lag; asked anew in the background when older than
    /// [`LAG_FRESH_FOR`], and waited for (up to [`FIRST_ANSWER_WAIT`]) only when there is
    /// none yet.
    async fn recent_lags(&self) -> Vec<pb::ConsumerLag> {
        let answered = self.answered.notified();
        tokio::pin!(answered);
        answered.as_mut().enable();
        if let Some((at, lags)) = self.last_lags.lock().await.as_ref() {
            if at.elapsed() >= LAG_FRESH_FOR {
                self.ask_in_background();
            }
            return lags.clone();
        }
        self.ask_in_background();
        let _ = tokio::time::timeout(FIRST_ANSWER_WAIT, answered).await;
        match self.last_lags.lock().await.as_ref() {
            Some((_, lags)) => lags.clone(),
            None => self
                .consumers
                .iter()
                .flat_map(|g| {
                    g.topics.iter().map(|topic| pb::ConsumerLag {
                        group: g.group.clone(),
                        topic: topic.clone(),
                        lag: -1,
                    })
                })
                .collect(),
        }
    }
}

/// The lag of every group in `consumers` on each of its topics, asked concurrently.
async fn ask_lags(brokers: &str, consumers: &[ConsumerGroup]) -> Vec<pb::ConsumerLag> {
    let asks = consumers.iter().map(|group| {
        let (brokers, group) = (brokers.to_owned(), group.clone());
        async move {
            let topics = group.topics.clone();
            let name = group.group.clone();
            let lags = tokio::task::spawn_blocking(move || lag_blocking(&brokers, &group))
                .await
                .unwrap_or_else(|error| {
                    tracing::warn!(%error, group = %name, "lag task failed");
                    topics.into_iter().map(|t| (t, -1)).collect()
                });
            lags.into_iter().map(move |(topic, lag)| pb::ConsumerLag {
                group: name.clone(),
                topic,
                lag,
            })
        }
    });
    futures::future::join_all(asks)
        .await
        .into_iter()
        .flatten()
        .collect()
}

#[tonic::async_trait]
impl OpsService for OpsApi {
    async fn get_ops_status(
        &self,
        request: Request<pb::GetOpsStatusRequest>,
    ) -> Result<Response<pb::OpsStatus>, Status> {
        caller_of(&request)?.require_admin()?;
        let backlog = async {
            let mut conn = crate::db::conn(&self.pool).await?;
            backlog(&mut conn).await
        };
        let (backlog, consumers) = tokio::join!(backlog, self.recent_lags());
        let backlog = backlog.map_err(ApiError::from)?;
        Ok(Response::new(pb::OpsStatus {
            service: self.service.to_owned(),
            outbox_pending: u64::try_from(backlog.pending).unwrap_or(0),
            outbox_oldest_secs: backlog.oldest_secs.max(0.0),
            consumers,
        }))
    }

    async fn list_audit_log(
        &self,
        request: Request<pb::ListAuditLogRequest>,
    ) -> Result<Response<pb::AuditPage>, Status> {
        caller_of(&request)?.require_admin()?;
        let req = request.get_ref();
        let limit = audit_limit(req.limit)?;
        let before = before(&req.before)?;
        let mut conn = crate::db::conn(&self.pool).await.map_err(ApiError::from)?;
        let page = crate::audit::list(&mut conn, before, limit)
            .await
            .map_err(ApiError::from)?;
        Ok(Response::new(pb::AuditPage {
            entries: page.entries.into_iter().map(entry).collect(),
            chain_intact: page.chain_intact,
        }))
    }
}

/// The page size a request asks for: 0 means the default; more than the maximum is refused.
pub fn audit_limit(limit: u32) -> Result<u32, ApiError> {
    match limit {
        0 => Ok(DEFAULT_AUDIT_LIMIT),
        l if l <= MAX_AUDIT_LIMIT => Ok(l),
        _ => Err(ApiError::bad_request(
            "invalid_limit",
            format!("limit must be between 1 and {MAX_AUDIT_LIMIT}"),
        )),
    }
}

/// The cursor of a request: empty for the newest entries, else an RFC 3339 time.
pub fn before(text: &str) -> Result<Option<DateTime<Utc>>, ApiError> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(None);
    }
    DateTime::parse_from_rfc3339(text)
        .map(|t| Some(t.with_timezone(&Utc)))
        .map_err(|_| {
            ApiError::bad_request(
                "invalid_before",
                "before must be a time in RFC 3339 (2026-01-31T12:00:00Z)",
            )
        })
}

fn entry(e: crate::audit::AuditEntry) -> pb::AuditEntry {
    pb::AuditEntry {
        id: e.id.to_string(),
        at: e.at.to_rfc3339_opts(SecondsFormat::Micros, true),
        service: e.service,
        actor_id: e.actor_id.to_string(),
        action: e.action,
        target: e.target,
        before_json: e.before,
        after_json: e.after,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_limit_defaults_to_fifty_and_is_bounded() {
        assert_eq!(audit_limit(0).unwrap(), 50);
        assert_eq!(audit_limit(1).unwrap(), 1);
        assert_eq!(audit_limit(200).unwrap(), 200);
        assert_eq!(audit_limit(201).unwrap_err().reason, "invalid_limit");
    }

    #[test]
    fn the_cursor_is_empty_or_rfc_3339() {
        assert_eq!(before("").unwrap(), None);
        let t = before("2026-01-31T13:00:00.000001+01:00").unwrap().unwrap();
        assert_eq!(
            t.to_rfc3339_opts(SecondsFormat::Micros, true),
            "2026-01-31T12:00:00.000001Z"
        );
        assert_eq!(before("yesterday").unwrap_err().reason, "invalid_before");
    }
}
