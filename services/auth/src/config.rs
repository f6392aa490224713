//! The auth service's settings (`QUIRE_*` environment variables; see `.env.example`).

use serde::Deserialize;

#[derive(Debug, Clone, Deserialize)]
pub struct AuthConfig {
    /// Ed25519 signing key (PKCS#8 PEM); created on first start when missing. Unset: an
    /// ephemeral key, so tokens die with the process (tests only). The keys published
    /// beside it, when present, lie in the same folder: `<name>.next.pem` (signs after the
    /// next rotation) and `<name>.previous.pem` (signed before the last one); see
    /// [`crate::tokens`].
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
    /// Password attempts at one account from one address in 15 minutes.
    #[serde(default = "d_login_per_address")]
    pub login_attempts_per_address: u32,
    /// Attempts at one account from addresses that never signed in to it, before each
    /// further one waits (1, 2, 4, ... seconds, up to `login_max_delay_secs`).
    #[serde(default = "d_login_free")]
    pub login_free_attempts: u32,
    #[serde(default = "d_login_max_delay")]
    pub login_max_delay_secs: u32,
    /// The identity provider (`QUIRE_OIDC_*`, read by [`Self::from_env`]); off when a
    /// config is built by hand (tests, benches) unless it names one.
    #[serde(skip)]
    pub oidc: OidcSettings,
}

/// The OpenID Connect provider users may sign in with. Off while the issuer is unset.
#[derive(Debug, Clone, Deserialize)]
pub struct OidcSettings {
    /// The provider's issuer URL; its discovery document is at
    /// `<issuer>/.well-known/openid-configuration`.
    #[serde(default)]
    pub oidc_issuer: Option<String>,
    #[serde(default)]
    pub oidc_client_id: Option<String>,
    #[serde(default)]
    pub oidc_client_secret: Option<secrecy::SecretString>,
    /// What the sign-in button names: "Sign in with <display name>".
    #[serde(default = "d_oidc_display_name")]
    pub oidc_display_name: String,
    /// Where the provider may send the browser back (comma list); a sign-in names one.
    #[serde(default)]
    pub oidc_redirect_uris: String,
}

impl Default for OidcSettings {
    /// Off.
    fn default() -> Self {
        Self {
            oidc_issuer: None,
            oidc_client_id: None,
            oidc_client_secret: None,
            oidc_display_name: d_oidc_display_name(),
            oidc_redirect_uris: String::new(),
        }
    }
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
fn d_login_per_address() -> u32 {
    10
}
fn d_login_free() -> u32 {
    5
}
fn d_login_max_delay() -> u32 {
    60
}
fn d_oidc_display_name() -> String {
    "your identity provider".into()
}

impl AuthConfig {
    /// The password-guessing limits (see `login_throttle`).
    pub fn login_limits(&self) -> crate::login_throttle::Limits {
        crate::login_throttle::Limits {
            attempts_per_address: self.login_attempts_per_address,
            free_attempts: self.login_free_attempts,
            max_delay_secs: self.login_max_delay_secs,
            window_secs: 15 * 60,
        }
    }

    /// `QUIRE_*`, the identity provider's `QUIRE_OIDC_*` included.
    pub fn from_env() -> Result<Self, envy::Error> {
        let mut config: Self = quire_kit::config::from_env()?;
        config.oidc = quire_kit::config::from_env()?;
        Ok(config)
    }
}
