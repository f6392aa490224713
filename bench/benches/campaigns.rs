//! Settling a crowd-funding campaign of 10,000 pledges (`QUIRE_BENCH_PLEDGES`): 10,000
//! backers top up and pledge through the wallet's own code (the functions its gRPC methods
//! call, with the caller a token would carry), then the campaign is settled in its one
//! transaction: funded (the payout, a trade and a `trade.completed` per backer, the
//! writer's pending credit, `campaign.funded`) and, for a second campaign of the same
//! backers, failed (every pledge back as a pending credit, `campaign.failed`). Each is
//! timed, then checked to the cent: no pledge lost or doubled. Writes `bench/campaigns.md`.
//! Run with `make bench` (Postgres up; the broker is not needed: events stay in the outbox,
//! where they are counted).
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test or bench stops at the first surprise

use std::sync::Arc;
use std::time::{Duration, Instant};

use futures::StreamExt;
use quire_kit::caller::{AUDIENCE, Caller, Claims, ISSUER};
use quire_proto::catalog::v1::catalog_service_client::CatalogServiceClient;
use quire_proto::wallet::v1 as pb;
use quire_wallet::campaigns::{pledge, settle};
use quire_wallet::{AppState, WalletConfig, credits};
use support::{machine, pg, write_report};
use uuid::Uuid;

mod support;

const DATABASE: &str = "quire_bench";
const WALLET: &str = "wallet_bench_campaigns";
/// Clients pledging at once while the campaigns fill.
const CLIENTS: usize = 16;
/// The target the settlement of 10,000 pledges must meet.
const TARGET: Duration = Duration::from_secs(5);

fn env(key: &str, default: &str) -> String {
    std::env::var(key).unwrap_or_else(|_| default.to_owned())
}

/// A caller as a verified token makes it.
fn caller(user: Uuid, admin: bool) -> Caller {
    let role = if admin { "admin" } else { "reader" };
    let now = chrono::Utc::now().timestamp();
    Caller {
        claims: Claims {
            sub: user,
            role: role.into(),
            roles: vec![role.into()],
            jti: Uuid::new_v4(),
            sid: None,
            iat: now,
            exp: now + 3600,
            iss: ISSUER.into(),
            aud: AUDIENCE.into(),
        },
        token: String::new(),
    }
}

/// What backer `n` pledges: 1.00 to 9.99, so the writer's floor share rounds differently
/// from one backer to the next.
fn amount(n: usize) -> i64 {
    100 + (n as i64 * 37) % 900
}

/// Opens a campaign of `writer`'s as `CreateCampaign` writes it (its escrow account and its
/// row; the call to catalog that precedes it is not what is measured here).
async fn open(db: &tokio_postgres::Client, writer: Uuid, goal_cents: i64) -> Uuid {
    let id = Uuid::now_v7();
    let book = Uuid::now_v7();
    db.execute(
        &format!("INSERT INTO {WALLET}.accounts (id, kind) VALUES ($1::text::uuid, 'escrow')"),
        &[&id.to_string()],
    )
    .await
    .unwrap();
    db.execute(
        &format!(
            "INSERT INTO {WALLET}.campaigns (id, book_id, writer_uid, title, goal_cents, deadline) \
             VALUES ($1::text::uuid, $2::text::uuid, $3::text::uuid, \
             'The Lighthouse Keeper''s Ledger', $4, now() + interval '30 days')"
        ),
        &[
            &id.to_string(),
            &book.to_string(),
            &writer.to_string(),
            &goal_cents,
        ],
    )
    .await
    .unwrap();
    id
}

/// One number from the wallet's schema, about `id` (`$1`; tokio-postgres binds it as text).
async fn number(db: &tokio_postgres::Client, sql: &str, id: Uuid) -> i64 {
    let sql = sql.replace("{W}", WALLET).replace("$1", "$1::text::uuid");
    db.query_one(&sql, &[&id.to_string()]).await.unwrap().get(0)
}

/// A settlement timed and checked.
struct Settled {
    status: String,
    elapsed: Duration,
    pledged: i64,
    writer: i64,
    platform: i64,
}

async fn settle_timed(state: &AppState, id: Uuid) -> Settled {
    let mut conn = state.conn().await.unwrap();
    let started = Instant::now();
    let settled = settle::settle(&mut conn, id, state.config.seller_share_percent)
        .await
        .unwrap();
    let elapsed = started.elapsed();
    assert!(settled.now, "settled by this call");
    let c = settled.campaign;
    Settled {
        status: c.status,
        elapsed,
        pledged: c.writer_cents + c.platform_cents,
        writer: c.writer_cents,
        platform: c.platform_cents,
    }
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let _telemetry = quire_kit::telemetry::init("quire-bench");
    let pledges: usize = env("QUIRE_BENCH_PLEDGES", "10000").parse()?;
    let database_url = env(
        "QUIRE_BENCH_DATABASE_URL",
        &format!("postgres://postgres@127.0.0.1:5432/{DATABASE}"),
    );
    quire_kit::db::ensure_database(&database_url).await?;
    let db = pg(&database_url).await?;
    db.batch_execute(&format!("DROP SCHEMA IF EXISTS {WALLET} CASCADE"))
        .await?;
    quire_kit::db::run_migrations(&database_url, WALLET, quire_wallet::db::MIGRATIONS).await?;
    let config = WalletConfig {
        allow_instant_payments: true,
        ..WalletConfig::default()
    };
    let state = AppState {
        pool: quire_kit::db::pool(&database_url, WALLET, CLIENTS + 2)?,
        // Never called: the campaigns are opened above, without catalog.
        catalog: CatalogServiceClient::new(quire_kit::upstream::Upstream::new(
            "catalog",
            &config.catalog_url,
        )?),
        payments: quire_wallet::payment::from_name("instant", true)?,
        config: Arc::new(config),
        outbox: quire_kit::outbox::Wake::default(),
        folder: quire_wallet::folder::Folder::default(),
    };

    let writer = Uuid::now_v7();
    let funded = open(&db, writer, 1).await;
    let failing = open(&db, writer, 100_000_000).await;
    let backers: Vec<Uuid> = (0..pledges).map(|_| Uuid::now_v7()).collect();
    let admin = caller(Uuid::now_v7(), true);

    // Every backer tops up what its two pledges need, then pledges to both campaigns.
    let started = Instant::now();
    futures::stream::iter(backers.iter().enumerate())
        .map(|(n, backer)| {
            let (state, admin) = (&state, &admin);
            async move {
                credits::top_up(
                    state,
                    admin,
                    &pb::TopUpRequest {
                        user_id: backer.to_string(),
                        amount_cents: 2 * amount(n),
                        note: "bench".into(),
                        idempotency_key: String::new(),
                    },
                )
                .await
                .unwrap();
                let me = caller(*backer, false);
                for campaign in [funded, failing] {
                    pledge::pledge(
                        state,
                        &me,
                        &pb::PledgeRequest {
                            campaign_id: campaign.to_string(),
                            amount_cents: amount(n),
                            idempotency_key: format!("bench-{n}-{campaign}"),
                        },
                    )
                    .await
                    .unwrap();
                }
            }
        })
        .buffer_unordered(CLIENTS)
        .collect::<Vec<()>>()
        .await;
    let filling = started.elapsed();
    let expected: i64 = (0..pledges).map(amount).sum();
    let writer_expected: i64 = (0..pledges)
        .map(|n| quire_wallet::trades::split(amount(n), 90).0)
        .sum();

    let paid = settle_timed(&state, funded).await;
    let back = settle_timed(&state, failing).await;

    // To the cent: nothing lost, nothing doubled.
    assert_eq!(
        (paid.status.as_str(), back.status.as_str()),
        ("funded", "failed")
    );
    assert_eq!(paid.pledged, expected);
    assert_eq!(
        (paid.writer, paid.platform),
        (writer_expected, expected - writer_expected)
    );
    let escrow =
        "SELECT COALESCE(sum(amount_cents), 0)::bigint FROM {W}.entries WHERE account_id = $1";
    for id in [funded, failing] {
        assert_eq!(number(&db, escrow, id).await, 0, "the escrow is empty");
        let n = number(
            &db,
            "SELECT count(*) FROM {W}.pledges WHERE campaign_id = $1",
            id,
        )
        .await;
        assert_eq!(n, pledges as i64, "every pledge kept");
    }
    let trades = number(
        &db,
        "SELECT count(*) FROM {W}.trades WHERE campaign_id = $1",
        funded,
    )
    .await;
    assert_eq!(trades, pledges as i64, "a trade per backer");
    let events = number(
        &db,
        "SELECT count(*) FROM {W}.outbox o JOIN {W}.trades t ON o.event_key = t.id::text \
         WHERE t.campaign_id = $1",
        funded,
    )
    .await;
    assert_eq!(events, pledges as i64, "a trade.completed per trade");
    let writer_has = number(
        &db,
        "SELECT balance_cents FROM {W}.wallet_balances WHERE user_id = $1",
        writer,
    )
    .await;
    assert_eq!(writer_has, writer_expected, "the writer's pending credit");
    // Every backer paid one pledge out (the funded one) and got the other back.
    let held = number(
        &db,
        "SELECT COALESCE(sum(balance_cents), 0)::bigint FROM {W}.wallet_balances \
         WHERE user_id <> $1",
        writer,
    )
    .await;
    assert_eq!(
        held, expected,
        "each backer holds the pledge that came back"
    );
    let unbalanced: i64 = db
        .query_one(
            &format!(
                "SELECT count(*) FROM (SELECT transfer_id FROM {WALLET}.entries \
                 GROUP BY transfer_id HAVING sum(amount_cents) <> 0) u"
            ),
            &[],
        )
        .await?
        .get(0);
    assert_eq!(unbalanced, 0, "every transfer sums to zero");

    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let verdict = |d: Duration| if d < TARGET { "met" } else { "MISSED" };
    let md = format!(
        "# Settling a crowd-funding campaign\n\n\
         `cargo bench -p quire-bench --bench campaigns` ({}). {pledges} backers each top up \
         and pledge to two campaigns through the wallet's own code ({CLIENTS} at once): \
         {:.1} s for {} top-ups and {} pledges ({:.0} pledges/s with their top-ups). Then \
         each campaign is settled in its one transaction, timed from BEGIN to COMMIT:\n\n\
         | campaign | pledges | settled in | target (< {} s) | what it wrote |\n\
         |---|---|---|---|---|\n\
         | funded | {pledges} | {:.0} ms | {} | the payout transfer, {trades} trades, {events} `trade.completed`, the writer's pending credit, `campaign.funded` |\n\
         | failed | {pledges} | {:.0} ms | {} | the refund transfer ({pledges} entries), {pledges} pending credits, `campaign.failed` |\n\n\
         Checked after: {:.2} pledged, the writer {:.2} (the floor of 90 % per backer), the \
         platform {:.2}; both escrows empty; every pledge kept and every transfer balanced; \
         each backer holds exactly the pledge that came back.\n",
        machine(),
        filling.as_secs_f64(),
        pledges,
        2 * pledges,
        (2 * pledges) as f64 / filling.as_secs_f64(),
        TARGET.as_secs(),
        ms(paid.elapsed),
        verdict(paid.elapsed),
        ms(back.elapsed),
        verdict(back.elapsed),
        expected as f64 / 100.0,
        paid.writer as f64 / 100.0,
        paid.platform as f64 / 100.0,
    );
    write_report("campaigns.md", &md)?;
    anyhow::ensure!(
        paid.elapsed < TARGET && back.elapsed < TARGET,
        "a settlement took longer than {TARGET:?}"
    );
    Ok(())
}
