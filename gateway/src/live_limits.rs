//! The rate limits in force now: the classes of routes limited together and how many
//! requests a minute each allows. Each class allows the admin's override, kept by auth
//! (`GetAccessSettings`), or else the gateway's configured default. A background task
//! asks auth every `settings_refresh_ms`, so every replica follows a change within that
//! time without a restart; while auth cannot be asked, the last values it gave stay.
//!
//! The handlers' state holds them and `crate::rate_limit` counts requests against them;
//! they know nothing of either.

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::time::Duration;

use quire_kit::upstream::Upstream;
use quire_proto::auth::v1 as pb;
use quire_proto::auth::v1::auth_service_client::AuthServiceClient;

use crate::config::GatewayConfig;

/// Routes limited together.
#[derive(Debug, Clone, Copy)]
pub enum Class {
    Login,
    Verify,
    Api,
    /// Calls that carry a file (covers).
    Upload,
    /// A chat turn or a recommendation, counted per user.
    Chat,
    /// Any `/api` call without a bearer token.
    Anonymous,
}

impl Class {
    /// Every class, in the order [`Class::index`] numbers them.
    pub const ALL: [Class; 6] = [
        Self::Login,
        Self::Verify,
        Self::Api,
        Self::Upload,
        Self::Chat,
        Self::Anonymous,
    ];

    /// The position of the class in [`Class::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// The class's name in the keys of its windows and in metrics.
    pub fn name(self) -> &'static str {
        match self {
            Self::Login => "login",
            Self::Verify => "verify",
            Self::Api => "api",
            Self::Upload => "upload",
            Self::Chat => "chat",
            Self::Anonymous => "anon",
        }
    }
}

/// Requests per minute of each class, in the order of [`Class::ALL`].
pub type Rates = [u32; 6];

/// The limits every worker reads; one per gateway, shared.
pub struct Limits {
    defaults: Rates,
    current: [AtomicU32; 6],
    /// Counts the changes made here (an admin's update through this gateway), so that a
    /// refresh which asked auth before such a change does not put the older values back.
    changes: AtomicU64,
}

impl Limits {
    /// The configured defaults, in force until auth names an override.
    pub fn new(config: &GatewayConfig) -> Arc<Self> {
        let defaults = [
            config.rate_login_per_min,
            config.rate_verify_per_min,
            config.rate_api_per_min,
            config.rate_upload_per_min,
            config.rate_chat_per_min,
            config.rate_anonymous_per_min,
        ];
        Arc::new(Self {
            defaults,
            current: defaults.map(AtomicU32::new),
            changes: AtomicU64::new(0),
        })
    }

    /// What `class` allows now.
    pub fn per_minute(&self, class: Class) -> u32 {
        self.current[class.index()].load(Ordering::Relaxed)
    }

    /// Every class's limit now.
    pub fn current(&self) -> Rates {
        Class::ALL.map(|c| self.per_minute(c))
    }

    /// The gateway's own defaults.
    pub fn defaults(&self) -> Rates {
        self.defaults
    }

    /// Each class's limit under `settings`: the override, or the default when unset (or
    /// 0, which auth never stores).
    pub fn effective(&self, settings: &pb::AccessSettings) -> Rates {
        let overrides = overrides(settings);
        Class::ALL.map(|c| {
            overrides[c.index()]
                .filter(|&n| n > 0)
                .unwrap_or(self.defaults[c.index()])
        })
    }

    /// Puts `settings` in force at once (an admin changed them through this gateway).
    pub fn apply(&self, settings: &pb::AccessSettings) {
        self.changes.fetch_add(1, Ordering::SeqCst);
        self.store(settings);
    }

    /// Puts `settings`, read by a refresh begun at change `seen`, in force unless a
    /// change was applied here since.
    fn apply_refreshed(&self, seen: u64, settings: &pb::AccessSettings) {
        if self.changes.load(Ordering::SeqCst) == seen {
            self.store(settings);
        }
    }

    fn store(&self, settings: &pb::AccessSettings) {
        for (slot, rate) in self.current.iter().zip(self.effective(settings)) {
            slot.store(rate, Ordering::Relaxed);
        }
    }
}

/// The overrides of `settings`, in the order of [`Class::ALL`].
pub fn overrides(s: &pb::AccessSettings) -> [Option<u32>; 6] {
    [
        s.rate_login_per_min,
        s.rate_verify_per_min,
        s.rate_api_per_min,
        s.rate_upload_per_min,
        s.rate_chat_per_min,
        s.rate_anonymous_per_min,
    ]
}

/// Asks auth once and puts what it says in force; on failure changes nothing.
pub async fn refresh(
    limits: &Limits,
    auth: &mut AuthServiceClient<Upstream>,
) -> Result<(), tonic::Status> {
    let seen = limits.changes.load(Ordering::SeqCst);
    let settings = auth
        .get_access_settings(crate::grpc_call::call(
            pb::GetAccessSettingsRequest {},
            None,
        ))
        .await?
        .into_inner();
    limits.apply_refreshed(seen, &settings);
    Ok(())
}

/// The refresh task; dropping it stops the task (with the gateway that owns it).
pub struct RefreshTask(tokio::task::JoinHandle<()>);

impl Drop for RefreshTask {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// Refreshes `limits` from auth every `every`, first at once, until the answer is
/// dropped. A failure is logged when it starts and when it ends, not on every tick.
pub fn spawn_refresh(
    limits: Arc<Limits>,
    mut auth: AuthServiceClient<Upstream>,
    every: Duration,
) -> RefreshTask {
    RefreshTask(tokio::spawn(async move {
        let mut ticks = tokio::time::interval(every);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut failing = false;
        loop {
            ticks.tick().await;
            match refresh(&limits, &mut auth).await {
                Ok(()) if failing => {
                    failing = false;
                    tracing::info!("rate limit settings read from auth again");
                }
                Ok(()) => {}
                Err(status) if !failing => {
                    failing = true;
                    tracing::warn!(%status, "rate limit settings unreadable, keeping the last");
                }
                Err(_) => {}
            }
        }
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config() -> GatewayConfig {
        GatewayConfig {
            rate_login_per_min: 1,
            rate_verify_per_min: 2,
            rate_api_per_min: 3,
            rate_upload_per_min: 4,
            rate_chat_per_min: 5,
            rate_anonymous_per_min: 6,
            ..GatewayConfig::default()
        }
    }

    #[test]
    fn classes_are_numbered_in_order() {
        for (i, class) in Class::ALL.iter().enumerate() {
            assert_eq!(class.index(), i, "{class:?}");
        }
    }

    #[test]
    fn an_override_replaces_its_default_and_unset_brings_the_default_back() {
        let limits = Limits::new(&config());
        assert_eq!(limits.current(), [1, 2, 3, 4, 5, 6]);
        limits.apply(&pb::AccessSettings {
            rate_api_per_min: Some(30),
            rate_chat_per_min: Some(50),
            rate_login_per_min: Some(0),
            ..Default::default()
        });
        assert_eq!(limits.current(), [1, 2, 30, 4, 50, 6]);
        assert_eq!(limits.per_minute(Class::Api), 30);
        limits.apply(&pb::AccessSettings {
            rate_chat_per_min: Some(51),
            ..Default::default()
        });
        assert_eq!(limits.current(), [1, 2, 3, 4, 51, 6]);
        assert_eq!(limits.defaults(), [1, 2, 3, 4, 5, 6]);
    }

    #[test]
    fn a_refresh_begun_before_a_change_here_does_not_undo_it() {
        let limits = Limits::new(&config());
        let seen = limits.changes.load(Ordering::SeqCst);
        limits.apply(&pb::AccessSettings {
            rate_api_per_min: Some(7),
            ..Default::default()
        });
        limits.apply_refreshed(seen, &pb::AccessSettings::default());
        assert_eq!(limits.per_minute(Class::Api), 7);
        let seen = limits.changes.load(Ordering::SeqCst);
        limits.apply_refreshed(
            seen,
            &pb::AccessSettings {
                rate_api_per_min: Some(8),
                ..Default::default()
            },
        );
        assert_eq!(limits.per_minute(Class::Api), 8);
    }

    #[tokio::test]
    async fn while_auth_cannot_be_asked_the_last_values_stay() {
        let limits = Limits::new(&config());
        limits.apply(&pb::AccessSettings {
            rate_api_per_min: Some(9),
            ..Default::default()
        });
        // Nothing listens on this port: auth is down.
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let channel = Upstream::new("auth", &format!("http://127.0.0.1:{port}")).unwrap();
        let mut auth = AuthServiceClient::new(channel);
        assert!(refresh(&limits, &mut auth).await.is_err());
        assert_eq!(limits.current(), [1, 2, 9, 4, 5, 6]);
    }
}
