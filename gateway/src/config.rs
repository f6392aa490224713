//! The gateway's settings (`QUIRE_*` environment variables; see `.env.example`).

use serde::Deserialize;

#[derive(Debug, Clone, Deserialize)]
pub struct GatewayConfig {
    #[serde(default = "d_host")]
    pub http_host: String,
    /// 0 picks a free port (tests).
    #[serde(default = "d_port")]
    pub http_port: u16,
    #[serde(default = "d_auth")]
    pub auth_url: String,
    /// The catalog service (books, reading, shop, search).
    #[serde(default = "d_catalog")]
    pub catalog_url: String,
    /// The wallet service (wallets, recharges, top-ups, trades, rewards).
    #[serde(default = "d_wallet")]
    pub wallet_url: String,
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
    /// Take the client address from `X-Forwarded-For` (only behind a trusted proxy).
    #[serde(default)]
    pub trust_forwarded: bool,
    /// Requests per minute per client address, by class of route.
    #[serde(default = "d_rate_login")]
    pub rate_login_per_min: u32,
    #[serde(default = "d_rate_verify")]
    pub rate_verify_per_min: u32,
    #[serde(default = "d_rate_api")]
    pub rate_api_per_min: u32,
    #[serde(default = "d_rate_upload")]
    pub rate_upload_per_min: u32,
    #[serde(default = "d_workers")]
    pub http_workers: usize,
}

fn d_host() -> String {
    "0.0.0.0".into()
}
fn d_port() -> u16 {
    8080
}
fn d_auth() -> String {
    "http://127.0.0.1:50051".into()
}
fn d_catalog() -> String {
    "http://127.0.0.1:50053".into()
}
fn d_wallet() -> String {
    "http://127.0.0.1:50052".into()
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
