//! The auth service's settings (`QUIRE_*` environment variables; see `.env.example`).

use serde::Deserialize;

#[derive(Debug, Clone, Deserialize)]
pub struct AuthConfig {
    #[serde(default = "d_grpc")]
    pub grpc_addr: String,
    #[serde(default = "d_admin")]
    pub admin_addr: String,
    /// Ed25519 signing key (PKCS#8 PEM); created on first start when missing. Unset: an
    /// ephemeral key, so tokens die with the process (tests only).
    #[serde(default)]
    pub jwt_key_file: Option<String>,
    #[serde(default = "d_access_ttl")]
    pub access_token_ttl_secs: u32,
    #[serde(default = "d_refresh_ttl")]
    pub refresh_token_ttl_secs: u32,
    /// `smtp://host:port` (or `smtps://user:pass@host`); unset: mails go to the log.
    #[serde(default)]
    pub smtp_url: Option<String>,
    #[serde(default = "d_from")]
    pub mail_from: String,
    #[serde(default)]
    pub admin_email: Option<String>,
    #[serde(default)]
    pub admin_password: Option<secrecy::SecretString>,
    /// The host (and port) users sign in from; SIWE messages must name it.
    #[serde(default = "d_domain")]
    pub siwe_domain: String,
    /// Seconds a new verification code must wait after the previous one.
    #[serde(default = "d_resend")]
    pub verify_resend_secs: u32,
    /// Failed logins per e-mail in 15 minutes before further tries are refused.
    #[serde(default = "d_login_failures")]
    pub login_failures_per_window: u32,
}

fn d_grpc() -> String {
    "0.0.0.0:50051".into()
}
fn d_admin() -> String {
    "0.0.0.0:9101".into()
}
fn d_access_ttl() -> u32 {
    3600
}
fn d_refresh_ttl() -> u32 {
    30 * 24 * 3600
}
fn d_from() -> String {
    "Quire <no-reply@quire.local>".into()
}
fn d_domain() -> String {
    "localhost:8080".into()
}
fn d_resend() -> u32 {
    60
}
fn d_login_failures() -> u32 {
    10
}

impl AuthConfig {
    pub fn from_env() -> Result<Self, envy::Error> {
        quire_kit::config::from_env()
    }
}
