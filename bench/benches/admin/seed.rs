//! A year of history written straight into the services' own tables with `generate_series`:
//! making a year of accounts, books, sales and conversations through the API would take
//! hours and could not date them in the past. Every row keeps its table's constraints
//! (a trade's, a settled top-up's and a pledge's transfer is a `transfers` row, a
//! campaign's id an escrow account); the ledger's entries and the wallets' balances, which
//! no figure of the dashboard reads, are not written. Row `i` of a table is dated
//! `i % 364` days and `i * 7919 % 86000` seconds before now, so the year's every day has
//! rows and every row falls in a range of 365 days.
//!
//! [`Figures`] are what the dashboard must show; [`seeded`] computes the seed's share of
//! them in Rust from the same formulas the SQL uses, so a figure that disagrees is the
//! dashboard's doing, not the seed's.

use std::time::{Duration, Instant};

use chrono::NaiveDate;

pub const USERS: i64 = 100_000;
pub const BOOKS: i64 = 20_000;
pub const TRADES: i64 = 1_000_000;
pub const TOP_UPS: i64 = 200_000;
pub const CAMPAIGNS: i64 = 200;
pub const PLEDGES_EACH: i64 = 10;
pub const CONVERSATIONS: i64 = 50_000;
pub const MESSAGES_EACH: i64 = 10;

/// The services' schemas.
#[derive(Clone, Copy)]
pub struct Schemas<'a> {
    pub auth: &'a str,
    pub catalog: &'a str,
    pub wallet: &'a str,
    pub chat: &'a str,
}

/// The date of row `i` (an SQL expression of the bigint `i`).
fn dated(i: &str) -> String {
    format!("now() - ({i} % 364) * interval '1 day' - ({i} * 7919 % 86000) * interval '1 second'")
}

/// Book `n`'s price in cents, as the SQL writes it.
fn price(n: i64) -> i64 {
    199 + (n % 8) * 100
}

/// The book buyer `i % USERS` gets in trade `i` (an SQL expression of `i`): ten trades
/// per buyer (TRADES is ten times USERS, a multiple of BOOKS), each of another book (2003 k
/// mod BOOKS differs for the ten k of a buyer), so `(buyer, book)` is unique.
fn trade_book_sql() -> String {
    format!("((i % {USERS} + (i / {USERS}) * 2003) % {BOOKS} + 1)")
}

/// [`trade_book_sql`] in Rust.
fn trade_book(i: i64) -> i64 {
    (i % USERS + (i / USERS) * 2003) % BOOKS + 1
}

/// Writes the seed; answers how long each table took, for the report.
pub async fn write(
    db: &tokio_postgres::Client,
    s: Schemas<'_>,
) -> anyhow::Result<Vec<(&'static str, Duration)>> {
    // Days of exactly 24 hours whatever the server's zone.
    db.batch_execute("SET TIME ZONE 'UTC'").await?;
    let Schemas {
        auth,
        catalog,
        wallet,
        chat,
    } = s;
    let at = dated("i");
    let trade_book = trade_book_sql();
    let steps: Vec<(&'static str, String)> = vec![
        (
            "auth: users and user_roles",
            format!(
                "INSERT INTO {auth}.users (id, email, username, active_role, created_at, disabled_at)
                 SELECT md5('user' || i)::uuid, 'seed-' || i || '@bench.quire.local',
                        'Seeded reader ' || i, 'reader', {at},
                        CASE WHEN i % 100 = 0 THEN now() END
                 FROM generate_series(1::bigint, {USERS}) AS i;
                 INSERT INTO {auth}.user_roles (user_id, role)
                 SELECT md5('user' || i)::uuid, r.role
                 FROM generate_series(1::bigint, {USERS}) AS i
                 CROSS JOIN (VALUES ('reader', 1), ('writer', 10), ('publisher', 50)) AS r (role, every)
                 WHERE i % r.every = 0;"
            ),
        ),
        (
            "catalog: books",
            format!(
                "INSERT INTO {catalog}.books (id, title, authors, author, price_cents, created_time,
                        published_at, upload_writer_id, genre, language, writer_on, taken_down,
                        taken_down_reason)
                 SELECT md5('book' || i)::uuid, 'Seeded book ' || i, ARRAY['Writer ' || i % 1000],
                        'Writer ' || i % 1000, 199 + (i % 8) * 100, {at}, {at},
                        md5('user' || (i % 1000 * 10 + 10))::uuid,
                        (ARRAY['Romance', 'Mystery', 'Fantasy', 'Science Fiction'])[(i % 4 + 1)::int],
                        'en', i % 5 <> 0, i % 7 = 0,
                        CASE WHEN i % 7 = 0 THEN 'seeded takedown' ELSE '' END
                 FROM generate_series(1::bigint, {BOOKS}) AS i;"
            ),
        ),
        (
            "wallet: transfers and trades",
            format!(
                "INSERT INTO {wallet}.transfers (id, kind, created_at)
                 SELECT md5('trade' || i)::uuid, 'trade', {at}
                 FROM generate_series(1::bigint, {TRADES}) AS i;
                 INSERT INTO {wallet}.trades (id, buyer_uid, book_id, seller_uid, title, price_cents,
                        seller_cents, platform_cents, transfer_id, created_at)
                 SELECT md5('trade' || i)::uuid, md5('user' || (i % {USERS} + 1))::uuid,
                        md5('book' || b.n)::uuid, md5('user' || (b.n % 1000 * 10 + 10))::uuid,
                        'Seeded book ' || b.n, b.p, b.p * 9 / 10, b.p - b.p * 9 / 10,
                        md5('trade' || i)::uuid, {at}
                 FROM generate_series(1::bigint, {TRADES}) AS i
                 CROSS JOIN LATERAL (SELECT {trade_book} AS n,
                                            199 + ({trade_book} % 8) * 100 AS p) AS b;"
            ),
        ),
        (
            "wallet: transfers and top_ups",
            // Settled and failed ones (failed: no transfer); none pending, which the wallet's
            // settler would take up meanwhile.
            format!(
                "INSERT INTO {wallet}.transfers (id, kind, created_at)
                 SELECT md5('top-up' || i)::uuid,
                        CASE WHEN i % 4 = 0 THEN 'top_up' ELSE 'recharge' END, {at}
                 FROM generate_series(1::bigint, {TOP_UPS}) AS i WHERE i % 10 <> 5;
                 INSERT INTO {wallet}.top_ups (id, user_id, amount_cents, kind, status, provider,
                        transfer_id, created_at, settled_at)
                 SELECT md5('top-up' || i)::uuid, md5('user' || (i % {USERS} + 1))::uuid,
                        500 + (i % 20) * 250,
                        CASE WHEN i % 4 = 0 THEN 'top_up' ELSE 'recharge' END,
                        CASE WHEN i % 10 = 5 THEN 'failed' ELSE 'settled' END, 'bench',
                        CASE WHEN i % 10 <> 5 THEN md5('top-up' || i)::uuid END, {at},
                        CASE WHEN i % 10 <> 5 THEN {at} END
                 FROM generate_series(1::bigint, {TOP_UPS}) AS i;"
            ),
        ),
        (
            "wallet: campaigns and pledges",
            // A quarter funded, a quarter failed, half open with a deadline a month away
            // (the sweeper settles the open ones past theirs).
            format!(
                "INSERT INTO {wallet}.accounts (id, kind)
                 SELECT md5('campaign' || i)::uuid, 'escrow'
                 FROM generate_series(1::bigint, {CAMPAIGNS}) AS i;
                 INSERT INTO {wallet}.transfers (id, kind, created_at)
                 SELECT md5('payout' || i)::uuid, 'campaign_payout', now() - interval '1 day'
                 FROM generate_series(1::bigint, {CAMPAIGNS}) AS i WHERE i % 4 = 0;
                 INSERT INTO {wallet}.campaigns (id, book_id, writer_uid, title, goal_cents, status,
                        deadline, created_at, settled_at, writer_cents, platform_cents, transfer_id)
                 SELECT md5('campaign' || i)::uuid, md5('book' || i)::uuid,
                        md5('user' || (i % 1000 * 10 + 10))::uuid, 'Seeded campaign ' || i, 100000,
                        CASE i % 4 WHEN 0 THEN 'funded' WHEN 1 THEN 'failed' ELSE 'open' END,
                        CASE WHEN i % 4 < 2 THEN now() - interval '1 day'
                             ELSE now() + interval '30 days' END,
                        now() - interval '60 days',
                        CASE WHEN i % 4 < 2 THEN now() - interval '1 day' END,
                        CASE WHEN i % 4 = 0 THEN 90000 ELSE 0 END,
                        CASE WHEN i % 4 = 0 THEN 10000 ELSE 0 END,
                        CASE WHEN i % 4 = 0 THEN md5('payout' || i)::uuid END
                 FROM generate_series(1::bigint, {CAMPAIGNS}) AS i;
                 INSERT INTO {wallet}.transfers (id, kind, created_at)
                 SELECT md5('pledge' || j)::uuid, 'pledge', now() - interval '30 days'
                 FROM generate_series(1::bigint, {CAMPAIGNS} * {PLEDGES_EACH}) AS j;
                 INSERT INTO {wallet}.pledges (id, campaign_id, backer_uid, amount_cents,
                        transfer_id, created_at)
                 SELECT md5('pledge' || j)::uuid,
                        md5('campaign' || ((j - 1) / {PLEDGES_EACH} + 1))::uuid,
                        md5('user' || j)::uuid, 100 + (j % 10) * 50, md5('pledge' || j)::uuid,
                        now() - interval '30 days'
                 FROM generate_series(1::bigint, {CAMPAIGNS} * {PLEDGES_EACH}) AS j;"
            ),
        ),
        (
            "chat: conversations and messages",
            // A reader's turn, then Quinn's answer, five times per conversation, ten seconds
            // apart, ending at the conversation's date.
            format!(
                "INSERT INTO {chat}.conversations (id, owner, created_at, updated_at)
                 SELECT 'seed-' || i, md5('user' || (i % {USERS} + 1))::uuid, {at}, {at}
                 FROM generate_series(1::bigint, {CONVERSATIONS}) AS i;
                 INSERT INTO {chat}.messages (id, conversation_id, kind, content, created_at)
                 SELECT md5('message' || i || '-' || m)::uuid, 'seed-' || i,
                        CASE WHEN m % 2 = 0 THEN 'user' ELSE 'bot' END,
                        CASE WHEN m % 2 = 0 THEN 'A mystery at sea, please'
                             ELSE 'Here are three books you may like.' END,
                        {at} - ({MESSAGES_EACH} - 1 - m) * interval '10 seconds'
                 FROM generate_series(1::bigint, {CONVERSATIONS}) AS i
                 CROSS JOIN generate_series(0::bigint, {MESSAGES_EACH} - 1) AS m;"
            ),
        ),
    ];
    let mut took = Vec::new();
    for (what, sql) in steps {
        let started = Instant::now();
        db.batch_execute(&format!("BEGIN; {sql} COMMIT;"))
            .await
            .map_err(|e| anyhow::anyhow!("seeding {what}: {e}"))?;
        took.push((what, started.elapsed()));
    }
    // As autovacuum leaves a table a year old: statistics, and the visibility map that lets
    // the counts read their indexes alone.
    let started = Instant::now();
    for table in [
        format!("{auth}.users"),
        format!("{auth}.user_roles"),
        format!("{catalog}.books"),
        format!("{wallet}.transfers"),
        format!("{wallet}.trades"),
        format!("{wallet}.top_ups"),
        format!("{wallet}.campaigns"),
        format!("{wallet}.pledges"),
        format!("{chat}.conversations"),
        format!("{chat}.messages"),
    ] {
        db.batch_execute(&format!("VACUUM (ANALYZE) {table}"))
            .await?;
    }
    took.push(("VACUUM (ANALYZE) of the seeded tables", started.elapsed()));
    Ok(took)
}

/// The figures of the dashboard the bench checks. Counts over the range are the sums of
/// the daily series.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Figures {
    pub users: i64,
    pub disabled: i64,
    pub readers: i64,
    pub writers: i64,
    pub publishers: i64,
    pub admins: i64,
    pub signups: i64,
    pub books: i64,
    pub listed: i64,
    pub taken_down: i64,
    pub books_created: i64,
    pub trades: i64,
    pub revenue_cents: i64,
    pub platform_cents: i64,
    pub top_ups: i64,
    pub top_up_cents: i64,
    pub campaigns_open: i64,
    pub campaigns_funded: i64,
    pub campaigns_failed: i64,
    pub escrow_cents: i64,
    pub conversations: i64,
    pub turns: i64,
}

impl Figures {
    /// Field by field sum: what was there before the seed plus the seed.
    pub fn plus(&self, o: &Self) -> Self {
        Self {
            users: self.users + o.users,
            disabled: self.disabled + o.disabled,
            readers: self.readers + o.readers,
            writers: self.writers + o.writers,
            publishers: self.publishers + o.publishers,
            admins: self.admins + o.admins,
            signups: self.signups + o.signups,
            books: self.books + o.books,
            listed: self.listed + o.listed,
            taken_down: self.taken_down + o.taken_down,
            books_created: self.books_created + o.books_created,
            trades: self.trades + o.trades,
            revenue_cents: self.revenue_cents + o.revenue_cents,
            platform_cents: self.platform_cents + o.platform_cents,
            top_ups: self.top_ups + o.top_ups,
            top_up_cents: self.top_up_cents + o.top_up_cents,
            campaigns_open: self.campaigns_open + o.campaigns_open,
            campaigns_funded: self.campaigns_funded + o.campaigns_funded,
            campaigns_failed: self.campaigns_failed + o.campaigns_failed,
            escrow_cents: self.escrow_cents + o.escrow_cents,
            conversations: self.conversations + o.conversations,
            turns: self.turns + o.turns,
        }
    }

    /// Counted straight from the tables, over the range starting at `since` (a UTC day):
    /// what was there before the seed, and what a range shorter than the seed's year holds.
    pub async fn counted(
        db: &tokio_postgres::Client,
        s: Schemas<'_>,
        since: NaiveDate,
    ) -> anyhow::Result<Self> {
        let Schemas {
            auth,
            catalog,
            wallet,
            chat,
        } = s;
        let from = format!("timestamptz '{since} 00:00:00+00'");
        let one = |sql: String| async move {
            let row = db
                .query_one(&sql, &[])
                .await
                .map_err(|e| anyhow::anyhow!("{sql}: {e}"))?;
            anyhow::Ok(row.get::<_, i64>(0))
        };
        let role = |r: &'static str| {
            one(format!(
                "SELECT count(*) FROM {auth}.user_roles WHERE role = '{r}'"
            ))
        };
        let status = |st: &'static str| {
            one(format!(
                "SELECT count(*) FROM {wallet}.campaigns WHERE status = '{st}'"
            ))
        };
        Ok(Self {
            users: one(format!("SELECT count(*) FROM {auth}.users")).await?,
            disabled: one(format!(
                "SELECT count(*) FROM {auth}.users WHERE disabled_at IS NOT NULL"
            ))
            .await?,
            readers: role("reader").await?,
            writers: role("writer").await?,
            publishers: role("publisher").await?,
            admins: role("admin").await?,
            signups: one(format!(
                "SELECT count(*) FROM {auth}.users WHERE created_at >= {from}"
            ))
            .await?,
            books: one(format!("SELECT count(*) FROM {catalog}.books")).await?,
            listed: one(format!(
                "SELECT count(*) FROM {catalog}.books WHERE writer_on AND NOT taken_down"
            ))
            .await?,
            taken_down: one(format!(
                "SELECT count(*) FROM {catalog}.books WHERE taken_down"
            ))
            .await?,
            books_created: one(format!(
                "SELECT count(*) FROM {catalog}.books WHERE created_time >= {from}"
            ))
            .await?,
            trades: one(format!(
                "SELECT count(*) FROM {wallet}.trades WHERE created_at >= {from}"
            ))
            .await?,
            revenue_cents: one(format!(
                "SELECT COALESCE(sum(price_cents), 0)::bigint FROM {wallet}.trades \
                 WHERE created_at >= {from}"
            ))
            .await?,
            platform_cents: one(format!(
                "SELECT COALESCE(sum(platform_cents), 0)::bigint FROM {wallet}.trades \
                 WHERE created_at >= {from}"
            ))
            .await?,
            top_ups: one(format!(
                "SELECT count(*) FROM {wallet}.top_ups \
                 WHERE created_at >= {from} AND status = 'settled'"
            ))
            .await?,
            top_up_cents: one(format!(
                "SELECT COALESCE(sum(amount_cents), 0)::bigint FROM {wallet}.top_ups \
                 WHERE created_at >= {from} AND status = 'settled'"
            ))
            .await?,
            campaigns_open: status("open").await?,
            campaigns_funded: status("funded").await?,
            campaigns_failed: status("failed").await?,
            escrow_cents: one(format!(
                "SELECT COALESCE(sum(p.amount_cents), 0)::bigint FROM {wallet}.pledges p \
                 JOIN {wallet}.campaigns c ON c.id = p.campaign_id WHERE c.status = 'open'"
            ))
            .await?,
            conversations: one(format!("SELECT count(*) FROM {chat}.conversations")).await?,
            turns: one(format!(
                "SELECT count(*) FROM {chat}.messages WHERE kind = 'user' AND created_at >= {from}"
            ))
            .await?,
        })
    }
}

/// The seed's share of the figures over a range of 365 days (which holds every seeded
/// row), from the formulas of [`write`].
pub fn seeded() -> Figures {
    let mut f = Figures {
        users: USERS,
        disabled: USERS / 100,
        readers: USERS,
        writers: USERS / 10,
        publishers: USERS / 50,
        signups: USERS,
        books: BOOKS,
        books_created: BOOKS,
        trades: TRADES,
        conversations: CONVERSATIONS,
        turns: CONVERSATIONS * ((MESSAGES_EACH + 1) / 2),
        ..Figures::default()
    };
    for n in 1..=BOOKS {
        if n % 5 != 0 && n % 7 != 0 {
            f.listed += 1;
        }
        if n % 7 == 0 {
            f.taken_down += 1;
        }
    }
    for i in 1..=TRADES {
        let p = price(trade_book(i));
        f.revenue_cents += p;
        f.platform_cents += p - p * 9 / 10;
    }
    for i in (1..=TOP_UPS).filter(|i| i % 10 != 5) {
        f.top_ups += 1;
        f.top_up_cents += 500 + (i % 20) * 250;
    }
    for i in 1..=CAMPAIGNS {
        match i % 4 {
            0 => f.campaigns_funded += 1,
            1 => f.campaigns_failed += 1,
            _ => f.campaigns_open += 1,
        }
    }
    for j in 1..=CAMPAIGNS * PLEDGES_EACH {
        if ((j - 1) / PLEDGES_EACH + 1) % 4 >= 2 {
            f.escrow_cents += 100 + (j % 10) * 50;
        }
    }
    f
}
