//! What every benchmark of the gateway shares: the load generator, its statistics, and a
//! real auth service to sign tokens with.

use std::future::Future;
use std::time::{Duration, Instant};

use quire_kit::config::CommonConfig;

/// Every point is measured for this long, after a warm-up of connections and caches.
pub const RUN: Duration = Duration::from_secs(8);
pub const WARMUP: Duration = Duration::from_secs(2);

pub struct Stats {
    /// Requests per second over the measured run.
    pub per_sec: f64,
    pub p50_us: f64,
    pub p99_us: f64,
}

fn stats(mut lat: Vec<Duration>, elapsed: Duration) -> Stats {
    lat.sort();
    let pick =
        |q: f64| lat[((lat.len() as f64 * q) as usize).min(lat.len() - 1)].as_secs_f64() * 1e6;
    Stats {
        per_sec: lat.len() as f64 / elapsed.as_secs_f64(),
        p50_us: pick(0.50),
        p99_us: pick(0.99),
    }
}

/// Runs `clients` concurrent loops of `make(client, n)` (the n-th request of that client),
/// a warm-up first, then the measured run.
pub async fn load<F, Fut>(clients: usize, make: F) -> Stats
where
    F: Fn(usize, usize) -> Fut + Clone + Send + 'static,
    Fut: Future<Output = ()> + Send,
{
    let mut measured = Vec::new();
    let mut elapsed = Duration::ZERO;
    for phase in [WARMUP, RUN] {
        let started = Instant::now();
        let tasks: Vec<_> = (0..clients)
            .map(|client| {
                let make = make.clone();
                tokio::spawn(async move {
                    let mut lat = Vec::new();
                    let mut n = 0;
                    while started.elapsed() < phase {
                        let t = Instant::now();
                        make(client, n).await;
                        lat.push(t.elapsed());
                        n += 1;
                    }
                    lat
                })
            })
            .collect();
        measured.clear();
        for t in tasks {
            measured.extend(t.await.unwrap());
        }
        elapsed = started.elapsed();
    }
    stats(measured, elapsed)
}

/// Starts auth in this process (creating the database when missing), with the admin
/// `bench@quire.local` / `bench-password`; returns its gRPC URL.
pub async fn spawn_auth(common: &CommonConfig) -> anyhow::Result<String> {
    let auth = quire_auth::Application::build(
        common.clone(),
        quire_auth::AuthConfig {
            grpc_addr: "127.0.0.1:0".into(),
            admin_addr: "127.0.0.1:0".into(),
            jwt_key_file: None,
            access_token_ttl_secs: 3600,
            refresh_token_ttl_secs: 3600,
            smtp_url: None,
            mail_from: "Quire <bench@quire.local>".into(),
            admin_email: Some("bench@quire.local".into()),
            admin_password: Some("bench-password".to_owned().into()),
            siwe_domain: "localhost".into(),
            verify_resend_secs: 60,
            login_failures_per_window: 10,
        },
    )
    .await?;
    let url = format!("http://127.0.0.1:{}", auth.grpc_port());
    tokio::spawn(auth.run_until(std::future::pending()));
    Ok(url)
}
