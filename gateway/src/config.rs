//! The gateway's settings (`QUIRE_*` environment variables; see `.env.example`).

use serde::Deserialize;

#[derive(Debug, Clone, Deserialize)]
pub struct GatewayConfig {
    #[serde(default = "d_host")]
    pub http_host: String,
    /// 0 picks a free port (tests).
    #[serde(default = "d_port")]
    pub http_port: u16,
    #[serde(default = "quire_kit::config::auth_url")]
    pub auth_url: String,
    /// The catalog service (books, reading, shop, search).
    #[serde(default = "quire_kit::config::catalog_url")]
    pub catalog_url: String,
    /// The wallet service (wallets, recharges, top-ups, trades, rewards).
    #[serde(default = "quire_kit::config::wallet_url")]
    pub wallet_url: String,
    /// The manuscript service (writers' uploads, their analysis, the AI check).
    #[serde(default = "quire_kit::config::manuscript_url")]
    pub manuscript_url: String,
    /// The chat service (Quinn, the book assistant: conversations and recommendations).
    #[serde(default = "quire_kit::config::chat_url")]
    pub chat_url: String,
    #[serde(default = "d_redis")]
    pub redis_url: String,
    /// The built web app (`frontend/dist`), served under `/platform`.
    #[serde(default = "d_frontend")]
    pub frontend_dir: String,
    /// Largest JSON body accepted, in bytes.
    #[serde(default = "d_json_limit")]
    pub json_limit_bytes: usize,
    /// Largest file accepted in an upload (a book cover), in bytes; larger is a 413.
    #[serde(default = "d_upload_limit")]
    pub upload_limit_bytes: usize,
    /// Largest manuscript upload (`publish_entry`: all its files together), in bytes;
    /// larger is a 413. At most 60 MiB (the largest gRPC message the gateway sends).
    #[serde(default = "d_manuscript_limit")]
    pub manuscript_limit_bytes: usize,
    /// How many proxies in front of the gateway append to `X-Forwarded-For` (an ingress: 1).
    /// The client is the address the outermost of them saw: that many hops from the
    /// right. 0 (the default) takes the peer address and ignores the header, which any
    /// client can write.
    #[serde(default)]
    pub trusted_proxy_hops: usize,
    /// Requests per minute per client address, by class of route.
    #[serde(default = "d_rate_login")]
    pub rate_login_per_min: u32,
    #[serde(default = "d_rate_verify")]
    pub rate_verify_per_min: u32,
    #[serde(default = "d_rate_api")]
    pub rate_api_per_min: u32,
    #[serde(default = "d_rate_upload")]
    pub rate_upload_per_min: u32,
    /// Chat turns and recommendations per minute per user (each costs the chat service
    /// real work: understanding the words, ranking books).
    #[serde(default = "d_rate_chat")]
    pub rate_chat_per_min: u32,
    /// `/api` requests per minute per client address from callers without a token.
    #[serde(default = "d_rate_anonymous")]
    pub rate_anonymous_per_min: u32,
    /// The six rates above are defaults: an admin may override each (kept by auth).
    /// How often, in milliseconds, the gateway asks auth for the overrides (and whether
    /// registration is open); at least 1.
    #[serde(default = "d_settings_refresh")]
    pub settings_refresh_ms: u64,
    /// Seconds a request may take to send its whole body; past that it is answered 408.
    #[serde(default = "d_body_timeout")]
    pub body_timeout_secs: u64,
    /// `/healthz`, `/readyz` and `/metrics`: never on the public port.
    #[serde(default = "d_admin_addr")]
    pub admin_addr: String,
    #[serde(default = "d_workers")]
    pub http_workers: usize,
}

fn d_host() -> String {
    "0.0.0.0".into()
}
fn d_port() -> u16 {
    8080
}
fn d_redis() -> String {
    "redis://127.0.0.1:6379".into()
}
fn d_frontend() -> String {
    "frontend/dist".into()
}
fn d_json_limit() -> usize {
    64 * 1024
}
fn d_upload_limit() -> usize {
    5 * 1024 * 1024
}
fn d_manuscript_limit() -> usize {
    50 * 1024 * 1024
}
fn d_rate_login() -> u32 {
    20
}
fn d_rate_verify() -> u32 {
    10
}
fn d_rate_api() -> u32 {
    1200
}
fn d_rate_upload() -> u32 {
    30
}
fn d_rate_chat() -> u32 {
    30
}
fn d_rate_anonymous() -> u32 {
    600
}
fn d_settings_refresh() -> u64 {
    1000
}
fn d_body_timeout() -> u64 {
    30
}
fn d_admin_addr() -> String {
    "0.0.0.0:9100".into()
}
fn d_workers() -> usize {
    std::thread::available_parallelism()
        .map(usize::from)
        .unwrap_or(2)
}

impl GatewayConfig {
    pub fn from_env() -> Result<Self, envy::Error> {
        quire_kit::config::from_env()
    }
}

impl Default for GatewayConfig {
    /// The settings with no variable set (tests change what they need).
    fn default() -> Self {
        Self {
            http_host: d_host(),
            http_port: d_port(),
            auth_url: quire_kit::config::auth_url(),
            catalog_url: quire_kit::config::catalog_url(),
            wallet_url: quire_kit::config::wallet_url(),
            manuscript_url: quire_kit::config::manuscript_url(),
            chat_url: quire_kit::config::chat_url(),
            redis_url: d_redis(),
            frontend_dir: d_frontend(),
            json_limit_bytes: d_json_limit(),
            upload_limit_bytes: d_upload_limit(),
            manuscript_limit_bytes: d_manuscript_limit(),
            trusted_proxy_hops: 0,
            rate_login_per_min: d_rate_login(),
            rate_verify_per_min: d_rate_verify(),
            rate_api_per_min: d_rate_api(),
            rate_upload_per_min: d_rate_upload(),
            rate_chat_per_min: d_rate_chat(),
            rate_anonymous_per_min: d_rate_anonymous(),
            settings_refresh_ms: d_settings_refresh(),
            body_timeout_secs: d_body_timeout(),
            admin_addr: d_admin_addr(),
            http_workers: d_workers(),
        }
    }
}
