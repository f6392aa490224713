//! The wallet service's settings (`QUIRE_*` environment variables; see `.env.example`).

use serde::Deserialize;

#[derive(Debug, Clone, Deserialize)]
pub struct WalletConfig {
    /// The auth service, whose JWKS verifies the callers' tokens.
    #[serde(default = "quire_kit::config::auth_url")]
    pub auth_url: String,
    /// The catalog service, asked for a book's price and seller before a trade.
    #[serde(default = "quire_kit::config::catalog_url")]
    pub catalog_url: String,
    /// Consumer group of the rewards consumer (shared by replicas).
    #[serde(default = "d_events_group")]
    pub events_group: String,
    /// ISO 4217 code of the one currency of the platform.
    #[serde(default = "d_currency")]
    pub currency: String,
    /// The writer's share of a sale in percent (k = 0.9); the platform keeps the rest. The
    /// default only: an admin's setting (`crate::settings`) replaces it while the wallet
    /// runs.
    #[serde(default = "d_share")]
    pub seller_share_percent: u8,
    /// Paid to the inviter for an invited user who registered, once that user qualifies
    /// (bought a priced book with money they recharged; see `rewards`), not before.
    #[serde(default = "d_reward_registered")]
    pub reward_registered_cents: i64,
    /// Paid to the inviter for an invited user's first purchase, with the one above.
    #[serde(default = "d_reward_first_purchase")]
    pub reward_first_purchase_cents: i64,
    /// The payment provider recharges go through: `instant` (settles at once).
    #[serde(default = "d_provider")]
    pub payment_provider: String,
    /// `instant` collects no money: the wallet refuses to start with it unless this says
    /// the platform is not taking real money (local runs, demos, tests).
    #[serde(default)]
    pub allow_instant_payments: bool,
    /// The deadline of the call to catalog before a trade.
    #[serde(default = "d_catalog_timeout")]
    pub catalog_timeout_ms: u64,
    /// How often the campaign sweeper settles the open campaigns past their deadline.
    #[serde(default = "d_campaign_sweep")]
    pub campaign_sweep_secs: u64,
}

fn d_events_group() -> String {
    "wallet".into()
}
fn d_currency() -> String {
    "USD".into()
}
fn d_share() -> u8 {
    90
}
fn d_reward_registered() -> i64 {
    100
}
fn d_reward_first_purchase() -> i64 {
    200
}
fn d_provider() -> String {
    "instant".into()
}
fn d_catalog_timeout() -> u64 {
    3000
}
fn d_campaign_sweep() -> u64 {
    30
}

impl WalletConfig {
    pub fn from_env() -> Result<Self, envy::Error> {
        quire_kit::config::from_env()
    }

    /// Refuses settings that would move money wrongly, before anything starts.
    pub fn check(&self) -> anyhow::Result<()> {
        anyhow::ensure!(
            self.seller_share_percent <= 100,
            "QUIRE_SELLER_SHARE_PERCENT must be between 0 and 100"
        );
        anyhow::ensure!(
            self.reward_registered_cents >= 0 && self.reward_first_purchase_cents >= 0,
            "reward amounts must not be negative"
        );
        anyhow::ensure!(
            self.currency.len() == 3 && self.currency.bytes().all(|b| b.is_ascii_uppercase()),
            "QUIRE_CURRENCY must be an ISO 4217 code such as USD"
        );
        anyhow::ensure!(
            self.campaign_sweep_secs > 0,
            "QUIRE_CAMPAIGN_SWEEP_SECS must be at least 1"
        );
        Ok(())
    }
}

impl Default for WalletConfig {
    fn default() -> Self {
        Self {
            auth_url: quire_kit::config::auth_url(),
            catalog_url: quire_kit::config::catalog_url(),
            events_group: d_events_group(),
            currency: d_currency(),
            seller_share_percent: d_share(),
            reward_registered_cents: d_reward_registered(),
            reward_first_purchase_cents: d_reward_first_purchase(),
            payment_provider: d_provider(),
            allow_instant_payments: false,
            catalog_timeout_ms: d_catalog_timeout(),
            campaign_sweep_secs: d_campaign_sweep(),
        }
    }
}
