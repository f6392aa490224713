//! `bench/trades.md`: the figures of a run, the targets and the verdicts.

use std::fmt::Write as _;
use std::time::Duration;

use super::{BOOKS, HOT_BOOKS, PRICE_CENTS, SELLERS, ms_at};
use crate::support::{Cpu, Stats, machine};

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Side {
    Gateway,
    Raw,
}

/// One measured point.
pub struct Point {
    pub clients: usize,
    pub side: Side,
    pub stats: Stats,
    /// CPU per trade, the events' delivery included.
    pub cpu: Cpu,
    pub delivery: Option<Delivery>,
}

/// A path measured for reference: no trade, so no event.
pub struct Reference {
    pub stats: Stats,
    /// CPU per call.
    pub cpu: Cpu,
}

/// What any trade through Quire costs beyond the raw transaction, measured at `clients`.
pub struct Floor {
    pub clients: usize,
    /// Catalog's GetBookForSale over gRPC: the price and seller every trade asks for.
    pub catalog: Reference,
    /// `POST /api/wallet/info` through the gateway and the wallet's GetWallet directly:
    /// the difference is the gateway's part of any call.
    pub info_gateway: Reference,
    pub info_direct: Reference,
}

/// How a point's events reached the consumer.
#[derive(Default)]
pub struct Delivery {
    pub answered: usize,
    pub received: usize,
    /// From the end of the point until every event was sent and received.
    pub drained: Duration,
    /// REST answer -> consumer, sorted.
    pub latencies: Vec<Duration>,
}

/// The event latency run, and where each event's time went (sorted).
#[derive(Default)]
pub struct Paced {
    pub delivery: Delivery,
    pub from_created: Vec<Duration>,
    pub in_transaction: Vec<Duration>,
    pub to_relay: Vec<Duration>,
    pub relay_to_consumer: Vec<Duration>,
    /// REST answer -> the services' own consumers took the event up.
    pub catalog_consumer: Vec<Duration>,
    pub wallet_consumer: Vec<Duration>,
}

pub struct Report {
    pub run: Duration,
    pub warmup: Duration,
    pub levels: Vec<usize>,
    pub buyers: usize,
    pub setup: Duration,
    pub load_before: String,
    pub load_after: String,
    pub uncontended: Vec<Point>,
    pub contended: Vec<Point>,
    pub wallet_direct: Stats,
    pub catalog_direct: Stats,
    pub floor: Option<Floor>,
    pub paced: Paced,
}

fn ms(us: f64) -> String {
    format!("{:.1}", us / 1e3)
}

fn cpu_ms(d: Duration) -> String {
    format!("{:.2}", d.as_secs_f64() * 1e3)
}

/// Every process's CPU together.
fn total(c: &Cpu) -> Duration {
    c.this_process + c.postgres + c.broker + c.redis
}

fn find(points: &[Point], clients: usize, side: Side) -> Option<&Point> {
    points
        .iter()
        .find(|p| p.clients == clients && p.side == side)
}

fn table(md: &mut String, points: &[Point]) {
    md.push_str(
        "| clients | side | trades/s | p50 (ms) | p99 (ms) | CPU ms per trade: bench process / \
         Postgres / broker / Redis | events, answer -> consumer: p50 / p99 (ms) |\n\
         |---|---|---|---|---|---|---|\n",
    );
    for p in points {
        let side = match p.side {
            Side::Gateway => "Quire: GET /api/trade through the gateway",
            Side::Raw => "raw SQL transaction (tokio-postgres)",
        };
        let events = p.delivery.as_ref().map_or("-".into(), |d| {
            format!(
                "{:.0} / {:.0} ({} of {}; all sent {:.1} s after the point)",
                ms_at(&d.latencies, 0.5),
                ms_at(&d.latencies, 0.99),
                d.received,
                d.answered,
                d.drained.as_secs_f64()
            )
        });
        let c = &p.cpu;
        let _ = writeln!(
            md,
            "| {} | {side} | {:.0} | {} | {} | {} / {} / {} / {} | {events} |",
            p.clients,
            p.stats.per_sec,
            ms(p.stats.p50_us),
            ms(p.stats.p99_us),
            cpu_ms(c.this_process),
            cpu_ms(c.postgres),
            cpu_ms(c.broker),
            cpu_ms(c.redis),
        );
    }
}

fn met(ok: bool) -> &'static str {
    if ok { "met" } else { "NOT met" }
}

pub fn render(r: &Report) -> String {
    let mut md = String::new();
    let levels = r
        .levels
        .iter()
        .map(usize::to_string)
        .collect::<Vec<_>>()
        .join(", ");
    let _ = write!(
        md,
        "# Trades: GET /api/trade through the gateway vs the same transfer as raw SQL\n\n\
         Command: `make bench` (`RUST_LOG=error cargo bench -p quire-bench --bench trades`), \
         {}s per point after {}s warm-up (`QUIRE_BENCH_TRADE_SECS`), clients {levels} \
         (`QUIRE_BENCH_CLIENTS`).\n\
         Machine: {}; Postgres (synchronous_commit on), Redis, the broker (tansu, storage \
         `{}`), auth, catalog, wallet, the gateway and the load generator all share it. \
         Load average before the run {}, after {}.\n\
         Setup: {} buyers created, logged in and funded through the gateway, {SELLERS} sellers \
         with {BOOKS} books at {:.2} and a hot seller with {HOT_BOOKS}, in {:.1} s.\n\n\
         ## Uncontended: each client is its own buyer, buying books of sellers no other client \
         touches\n\n",
        r.run.as_secs(),
        r.warmup.as_secs(),
        machine(),
        std::env::var("QUIRE_TANSU_STORAGE").unwrap_or_else(|_| "sqlite://tansu.db".into()),
        r.load_before
            .split_whitespace()
            .take(3)
            .collect::<Vec<_>>()
            .join(" "),
        r.load_after
            .split_whitespace()
            .take(3)
            .collect::<Vec<_>>()
            .join(" "),
        r.buyers,
        PRICE_CENTS as f64 / 100.0,
        r.setup.as_secs_f64(),
    );
    table(&mut md, &r.uncontended);
    md.push_str("\n## Contended: every buyer buys the hot seller's book at once\n\n");
    table(&mut md, &r.contended);

    md.push_str("\n## Targets\n\n");
    for &clients in &r.levels {
        let (Some(g), Some(s)) = (
            find(&r.uncontended, clients, Side::Gateway),
            find(&r.uncontended, clients, Side::Raw),
        ) else {
            continue;
        };
        let ratio = g.stats.per_sec / s.stats.per_sec;
        let _ = writeln!(
            md,
            "- {clients} client(s), uncontended: gateway / raw SQL = {ratio:.2} (target >= 0.70: {})",
            met(ratio >= 0.7)
        );
    }
    for p in r.contended.iter().filter(|p| p.side == Side::Gateway) {
        let Some(u) = find(&r.uncontended, p.clients, Side::Gateway) else {
            continue;
        };
        let ratio = p.stats.per_sec / u.stats.per_sec;
        let raw = match (
            find(&r.contended, p.clients, Side::Raw),
            find(&r.uncontended, p.clients, Side::Raw),
        ) {
            (Some(h), Some(u)) => format!("{:.2}", h.stats.per_sec / u.stats.per_sec),
            _ => "-".into(),
        };
        let _ = writeln!(
            md,
            "- {} clients, contended / uncontended through the gateway = {ratio:.2} (target >= \
             0.70: {}); raw SQL, for reference: {raw}",
            p.clients,
            met(ratio >= 0.7)
        );
    }
    let d = &r.paced.delivery;
    let p99 = ms_at(&d.latencies, 0.99);
    let floor = r.floor.as_ref().and_then(|f| floor(r, f));
    if let Some((_, bound)) = &floor {
        let _ = writeln!(
            md,
            "- The most gateway / raw SQL can be on this machine at {} clients, whatever \
             Quire's code does: {bound:.2} (see The floor)",
            r.floor.as_ref().map_or(0, |f| f.clients)
        );
    }
    let _ = writeln!(
        md,
        "- Event latency, REST answer -> consumer, {} paced trades: p99 {p99:.1} ms (target <= \
         100 ms: {})",
        d.answered,
        met(p99 <= 100.0 && d.received == d.answered)
    );

    let one = find(&r.uncontended, 1, Side::Gateway);
    let raw = find(&r.uncontended, 1, Side::Raw);
    let row = |name: &str, s: Option<&Stats>| match s {
        Some(s) => format!(
            "| {name} | {:.0} | {} | {} |\n",
            s.per_sec,
            ms(s.p50_us),
            ms(s.p99_us)
        ),
        None => format!("| {name} | - | - | - |\n"),
    };
    md.push_str(
        "\n## Where the time goes (1 client)\n\n\
         | path | trades/s | p50 (ms) | p99 (ms) |\n|---|---|---|---|\n",
    );
    md.push_str(&row(
        "Quire: GET /api/trade through the gateway",
        one.map(|p| &p.stats),
    ));
    md.push_str(&row(
        "wallet's Trade over gRPC directly (no gateway, no Redis)",
        Some(&r.wallet_direct),
    ));
    md.push_str(&row(
        "catalog's GetBookForSale over gRPC (what the wallet asks first)",
        Some(&r.catalog_direct),
    ));
    md.push_str(&row("raw SQL transaction", raw.map(|p| &p.stats)));

    let p = &r.paced;
    let line = |name: &str, v: &[Duration]| {
        format!(
            "| {name} | {:.1} | {:.1} | {:.1} |\n",
            ms_at(v, 0.5),
            ms_at(v, 0.99),
            ms_at(v, 1.0)
        )
    };
    let _ = write!(
        md,
        "\n## Event latency: commit -> a consumer on quire.trade.v1 receives trade.completed\n\n\
         After the points above (their events all delivered), one client buys {} books one at a \
         time with a random pause of 0-20 ms between trades; the bench's consumer (the services' \
         settings, `quire_kit::consumer::client_config`, with fetch.wait.max.ms {}), assigned \
         to the topic's end, notes when each event arrives; {} of {} arrived.\n\n\
         | interval | p50 (ms) | p99 (ms) | max (ms) |\n|---|---|---|---|\n",
        d.answered,
        super::events::FETCH_WAIT_MS,
        d.received,
        d.answered,
    );
    md.push_str(&line(
        "REST answer -> consumer (the commit precedes the answer)",
        &d.latencies,
    ));
    md.push_str(&line(
        "trade row made in the transaction (`completed_at`) -> consumer (includes the commit)",
        &p.from_created,
    ));
    md.push_str(&line(
        "trade row made -> REST answer (the rest of the transaction, commit, the way back)",
        &p.in_transaction,
    ));
    md.push_str(&line(
        "REST answer -> the relay's transaction picks the row up (`published_at`)",
        &p.to_relay,
    ));
    md.push_str(&line(
        "relay pick-up -> consumer (produce, broker, fetch)",
        &p.relay_to_consumer,
    ));
    md.push_str(&line(
        "REST answer -> catalog's purchases projection takes it up (a service consumer, \
         default fetch wait)",
        &p.catalog_consumer,
    ));
    md.push_str(&line(
        "REST answer -> the wallet's rewards consumer takes it up (idem)",
        &p.wallet_consumer,
    ));

    if let Some((section, _)) = floor {
        md.push_str(&section);
    }

    md.push_str(
        "\n## Notes\n\n\
         - Quire: `GET /api/trade?buyer_uid=&book_id=` with the buyer's bearer token and a fresh \
           `Idempotency-Key` (reqwest, HTTP/1.1 keep-alive) -> gateway (token check, rate limit \
           and revocation in Redis) -> wallet over gRPC: the key and an earlier purchase looked \
           up (one round trip) while catalog is asked over gRPC for the price and seller, then \
           one transaction: the idempotency key, the trade row, the outbox row, the transfer, \
           the entries, the stored answer, then in id order the buyer's wallet (locked, then \
           debited with its pending credits taken in) and the writer's share (a pending \
           credit), COMMIT (the deferred checks run). The wallet sends the transaction's statements in one \
           flight (pipelined): three round trips, BEGIN, the statements, COMMIT. Every answer \
           is checked: 200 and not a replay.\n\
         - Raw SQL: the same transaction's statements in the same order (trade row, outbox row \
           with the same protobuf payload, transfer, the three entries, the buyer's wallet \
           locked and debited and the writer's pending credit in id order, COMMIT with the \
           deferred checks) on a copy of the wallet schema made by the wallet's own \
           migrations, prepared statements, one tokio-postgres connection per client in the \
           bench's process, each statement awaited before the next (nine round trips), as a \
           transaction written by hand is. No catalog call, no idempotency key, no \
           HTTP; its outbox rows are never relayed and its pending credits never folded, so no \
           broker, consumer or folder work follows.\n\
         - CPU per trade: the CPU time of this process (gateway, auth, catalog, wallet, their \
           consumers and relays, and the load generator), of Postgres (its backends and helper \
           processes, and the backends that ended meanwhile, which the postmaster reaped; the \
           bench is its only load), of the broker and of Redis, from the start of a point until its events \
           were all delivered, divided by the point's trades (warm-up included). On 2 cores the \
           throughput at 8 and more clients is about 2 s / (CPU per trade). The broker is \
           shared: its figure includes whatever else uses it meanwhile.\n\
         - Contended: every buyer buys book k of the one hot seller at step k, so every \
           transaction credits the hot seller (a pending credit: the wallet's folder adds them \
           to the row in batches, so buyers do not queue on it); uncontended clients never share a \
           seller (client c buys books j = c mod clients, book j is sold by seller j mod \
           256).\n\
         - Services in this process with their defaults (database pools of 16, outbox polled \
           every 50 ms and woken after its own service's commits, pending credits folded 100 ms \
           after a trade rings the folder); the catalog's purchases \
           projection and the wallet's rewards consumer read every trade.completed as in \
           production, each applying the events already fetched in one transaction. Event \
           latencies under load include the broker's backlog.\n",
    );
    md
}

/// The floor section and the highest gateway / raw SQL ratio it allows: the raw
/// transaction's CPU plus what a trade through Quire cannot do without (the catalog call,
/// the gateway's part of a call, the broker's work for the event), on 2 cores.
fn floor(r: &Report, f: &Floor) -> Option<(String, f64)> {
    let raw = find(&r.uncontended, f.clients, Side::Raw)?;
    let quire = find(&r.uncontended, f.clients, Side::Gateway)?;
    let gateway = total(&f.info_gateway.cpu).saturating_sub(total(&f.info_direct.cpu));
    let parts = [
        (
            "the raw SQL transaction (its point above: bench process, Postgres)",
            total(&raw.cpu),
        ),
        (
            "catalog's GetBookForSale over gRPC (the price and seller; catalog's process and \
             Postgres)",
            total(&f.catalog.cpu),
        ),
        (
            "the gateway's part of a call (wallet/info through the gateway minus GetWallet \
             directly: HTTP, the token, Redis, the gRPC client)",
            gateway,
        ),
        (
            "the broker's work for the trade's event (Quire's point above)",
            quire.cpu.broker,
        ),
    ];
    let sum: Duration = parts.iter().map(|(_, d)| *d).sum();
    let at_most = 2.0 / sum.as_secs_f64();
    let bound = at_most / raw.stats.per_sec;
    let mut md = String::new();
    let _ = write!(
        md,
        "\n## The floor: what any trade through Quire costs beyond the raw transaction ({} \
         clients)\n\n\
         Each call measured for {}s after {}s warm-up at {} clients; CPU per call of every \
         process, as above.\n\n\
         | path | calls/s | p50 (ms) | CPU ms per call: bench process / Postgres / broker / \
         Redis |\n|---|---|---|---|\n",
        f.clients,
        r.run.as_secs(),
        r.warmup.as_secs(),
        f.clients,
    );
    for (name, reference) in [
        ("catalog's GetBookForSale over gRPC", &f.catalog),
        ("POST /api/wallet/info through the gateway", &f.info_gateway),
        ("the wallet's GetWallet over gRPC directly", &f.info_direct),
    ] {
        let c = &reference.cpu;
        let _ = writeln!(
            md,
            "| {name} | {:.0} | {} | {} / {} / {} / {} |",
            reference.stats.per_sec,
            ms(reference.stats.p50_us),
            cpu_ms(c.this_process),
            cpu_ms(c.postgres),
            cpu_ms(c.broker),
            cpu_ms(c.redis),
        );
    }
    md.push_str(
        "\nA trade through Quire does at least these, each required by the issue or the \
         spec (REST in through the gateway, the price and seller from catalog over gRPC, \
         the `trade.completed` event through Kafka), and its transaction runs at least the \
         raw transaction's statements (it adds the idempotency key and its stored answer). \
         Their CPU per trade, at this client count:\n\n",
    );
    for (name, d) in &parts {
        let _ = writeln!(md, "- {name}: {} ms", cpu_ms(*d));
    }
    let _ = writeln!(
        md,
        "- together: {} ms. Not counted: the wallet's own gRPC server and its pre-trade \
         reads, the relay, the two services' consumers of the event, the idempotency key.\n\n\
         With the two cores fully used that is at most {at_most:.0} trades/s, {bound:.2} of \
         raw SQL's {:.0}/s at {} clients: the target of 0.70 would need the floor at {} ms \
         or less. Production runs the gateway, the services, the broker and Postgres on \
         machines of their own; this bench puts them all, and the load generator, on two \
         cores.",
        cpu_ms(sum),
        raw.stats.per_sec,
        f.clients,
        cpu_ms(Duration::from_secs_f64(2.0 / (0.7 * raw.stats.per_sec))),
    );
    Some((md, bound))
}
