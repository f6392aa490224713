//! `GET /api/users/me/` through the gateway against the same `GetMe` gRPC call made
//! directly to auth, in one run on one machine, at 1 and 32 concurrent clients.
//! Writes `bench/users-me.md`. Run with `make bench` (Postgres, Redis and the broker up).
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test or bench stops at the first surprise

use quire_kit::config::CommonConfig;
use quire_proto::auth::v1 as pb;
use support::{RUN, Stats, WARMUP, load, spawn_auth};

mod support;

/// GETs `url` (with `token` as bearer when given) from `clients` concurrent clients.
async fn http_load(
    clients: usize,
    http: &reqwest::Client,
    url: String,
    token: Option<String>,
) -> Stats {
    let http = http.clone();
    load(clients, move |_, _| {
        let (http, url, token) = (http.clone(), url.clone(), token.clone());
        async move {
            let mut request = http.get(&url);
            if let Some(t) = &token {
                request = request.bearer_auth(t);
            }
            let r = request.send().await.expect("gateway answers");
            assert!(r.status().is_success(), "{url}: {}", r.status());
            r.bytes().await.expect("body");
        }
    })
    .await
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    // As in production: the subscriber with its always-on tracer (logs quiet via RUST_LOG).
    let _telemetry = quire_kit::telemetry::init("quire-bench");
    let schema = format!("auth_bench_{}", std::process::id());
    let common = CommonConfig {
        outbox_poll_ms: 100,
        ..support::common(&support::database_url(), &schema, 16)
    };
    let grpc_url = spawn_auth(&common).await?;
    // Only auth is needed here.
    let none = "http://127.0.0.1:1";
    let base = support::spawn_gateway(&grpc_url, none, none, &common.redis_url).await?;
    let http = reqwest::Client::builder()
        .pool_max_idle_per_host(64)
        .build()?;
    let (token, _) = support::login(&http, &base, "bench@quire.local", "bench-password").await?;
    let channel = quire_kit::grpc::channel(&grpc_url)?;

    let mut rows = Vec::new();
    for clients in [1usize, 32] {
        let via_gateway = http_load(
            clients,
            &http,
            format!("{base}/api/users/me/"),
            Some(token.clone()),
        )
        .await;
        let plain = http_load(clients, &http, format!("{base}/healthz"), None).await;
        let roles_gw = http_load(clients, &http, format!("{base}/api/roles/"), None).await;
        let ch = channel.clone();
        let roles_direct = load(clients, move |_, _| {
            let ch = ch.clone();
            async move {
                pb::auth_service_client::AuthServiceClient::new(ch)
                    .list_roles(pb::ListRolesRequest {})
                    .await
                    .expect("grpc answers");
            }
        })
        .await;
        let (ch, t) = (channel.clone(), token.clone());
        let direct = load(clients, move |_, _| {
            let (ch, t) = (ch.clone(), t.clone());
            async move {
                let mut req = tonic::Request::new(pb::GetMeRequest {});
                req.metadata_mut().insert(
                    "authorization",
                    format!("Bearer {t}").parse().expect("header"),
                );
                pb::auth_service_client::AuthServiceClient::new(ch)
                    .get_me(req)
                    .await
                    .expect("grpc answers");
            }
        })
        .await;
        rows.push((clients, via_gateway, direct, plain, roles_gw, roles_direct));
    }

    let mut md = format!(
        "# GET /api/users/me/ through the gateway vs GetMe over gRPC directly\n\n\
         Command: `make bench` (cargo bench -p quire-bench --bench users_me), {}s per point after {}s warm-up.\n\
         Machine: {}; servers and load generator share it.\n\n\
         | clients | path | requests/s | p50 (us) | p99 (us) |\n|---|---|---|---|---|\n",
        RUN.as_secs(),
        WARMUP.as_secs(),
        support::machine(),
    );
    let mut verdicts = String::new();
    for (clients, g, d, p, rg, rd) in &rows {
        md.push_str(&format!(
            "| {clients} | gateway (REST) | {:.0} | {:.0} | {:.0} |\n",
            g.per_sec, g.p50_us, g.p99_us
        ));
        md.push_str(&format!(
            "| {clients} | direct gRPC | {:.0} | {:.0} | {:.0} |\n",
            d.per_sec, d.p50_us, d.p99_us
        ));
        md.push_str(&format!("| {clients} | reference: gateway /api/roles/ (no token, no database) | {:.0} | {:.0} | {:.0} |\n", rg.per_sec, rg.p50_us, rg.p99_us));
        md.push_str(&format!(
            "| {clients} | reference: direct ListRoles | {:.0} | {:.0} | {:.0} |\n",
            rd.per_sec, rd.p50_us, rd.p99_us
        ));
        md.push_str(&format!(
            "| {clients} | reference: gateway /healthz (HTTP only) | {:.0} | {:.0} | {:.0} |\n",
            p.per_sec, p.p50_us, p.p99_us
        ));
        let added = g.p50_us - d.p50_us;
        let ratio = g.per_sec / d.per_sec;
        verdicts.push_str(&format!(
            "- {clients} client(s): gateway adds {added:.0} us at p50 (target: <= 250 us with 1 client); throughput ratio {ratio:.2} (target >= 0.50)\n"
        ));
    }
    md.push('\n');
    md.push_str(&verdicts);
    support::write_report("users-me.md", &md)?;
    std::process::exit(0);
}
