//! Per-day totals against the real Postgres: closed days are summed once and then read
//! from `daily_totals`, today is summed from the rows on every ask, days with nothing
//! count as zero, and two series in one schema are kept apart.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test stops at the first surprise

mod support;

use chrono::{Days, NaiveDate, Utc};
use diesel_async::RunQueryDsl;
use quire_kit::daily_totals::{DayTotal, Series, daily_totals};
use quire_kit::db::PgConn;

/// Sales of the test: one row per sale, dated when it happened.
const SALES: Series<'static> = Series {
    name: "sales",
    source: "SELECT (at AT TIME ZONE 'UTC')::date AS day, count(*) AS count, \
               COALESCE(sum(cents), 0)::bigint AS amount, \
               COALESCE(sum(fee), 0)::bigint AS extra \
             FROM sales WHERE at >= $1 AND at < $2 GROUP BY 1",
};

/// Only the large ones, over the same rows.
const LARGE_SALES: Series<'static> = Series {
    name: "large_sales",
    source: "SELECT (at AT TIME ZONE 'UTC')::date AS day, count(*) AS count, \
               0::bigint AS amount, 0::bigint AS extra \
             FROM sales WHERE cents >= 1000 AND at >= $1 AND at < $2 GROUP BY 1",
};

/// A fresh schema holding an empty `sales` table, and a connection to it.
async fn with_sales(prefix: &str) -> (quire_kit::db::PgPool, PgConn) {
    let (_, pool) = support::fresh_schema(prefix).await;
    let mut conn = quire_kit::db::conn(&pool).await.unwrap();
    diesel::sql_query(
        "CREATE TABLE sales (at TIMESTAMPTZ NOT NULL, cents BIGINT NOT NULL, fee BIGINT NOT NULL)",
    )
    .execute(&mut conn)
    .await
    .unwrap();
    (pool, conn)
}

fn days_ago(n: u64) -> NaiveDate {
    Utc::now()
        .date_naive()
        .checked_sub_days(Days::new(n))
        .unwrap()
}

/// A sale at noon `n` days ago (noon of a closed day is never near the margin; today's
/// sales are dated now).
async fn sell(conn: &mut PgConn, n: u64, cents: i64, fee: i64) {
    let at = if n == 0 {
        Utc::now()
    } else {
        days_ago(n).and_hms_opt(12, 0, 0).unwrap().and_utc()
    };
    diesel::sql_query("INSERT INTO sales (at, cents, fee) VALUES ($1, $2, $3)")
        .bind::<diesel::sql_types::Timestamptz, _>(at)
        .bind::<diesel::sql_types::BigInt, _>(cents)
        .bind::<diesel::sql_types::BigInt, _>(fee)
        .execute(conn)
        .await
        .unwrap();
}

/// (days ago, count, amount, extra) of every day with something, oldest first.
async fn totals(
    conn: &mut PgConn,
    series: Series<'_>,
    first: NaiveDate,
) -> Vec<(i64, i64, i64, i64)> {
    let mut days: Vec<DayTotal> = daily_totals(conn, series, first).await.unwrap();
    days.sort_by_key(|d| d.day);
    let today = Utc::now().date_naive();
    days.iter()
        .filter(|d| d.count != 0 || d.amount != 0 || d.extra != 0)
        .map(|d| ((today - d.day).num_days(), d.count, d.amount, d.extra))
        .collect()
}

async fn kept_days(conn: &mut PgConn, series: &str) -> i64 {
    #[derive(diesel::QueryableByName)]
    struct N {
        #[diesel(sql_type = diesel::sql_types::BigInt)]
        n: i64,
    }
    diesel::sql_query("SELECT count(*) AS n FROM daily_totals WHERE series = $1")
        .bind::<diesel::sql_types::Text, _>(series)
        .get_result::<N>(conn)
        .await
        .unwrap()
        .n
}

#[tokio::test(flavor = "multi_thread")]
async fn closed_days_are_summed_once_and_today_on_every_ask() {
    let (_pool, mut conn) = with_sales("kit_daily").await;
    sell(&mut conn, 9, 500, 50).await; // before the range asked
    sell(&mut conn, 5, 700, 70).await;
    sell(&mut conn, 5, 1_200, 120).await;
    sell(&mut conn, 2, 300, 30).await;
    sell(&mut conn, 0, 2_000, 200).await;

    let first = days_ago(6);
    assert_eq!(
        totals(&mut conn, SALES, first).await,
        [(5, 2, 1_900, 190), (2, 1, 300, 30), (0, 1, 2_000, 200)]
    );
    // Six closed days (6 to 1 days ago) are kept, the empty ones as zeros; today is not.
    // (Within an hour after midnight, yesterday is still open.)
    let closed = if Utc::now().time() < chrono::NaiveTime::from_hms_opt(1, 0, 0).unwrap() {
        5
    } else {
        6
    };
    assert_eq!(kept_days(&mut conn, "sales").await, closed);

    // A row that appears in a closed day afterwards (no real writer does this) is not
    // seen: that day is read from what was kept, not summed again.
    sell(&mut conn, 5, 10_000, 1_000).await;
    // Today is summed on every ask.
    sell(&mut conn, 0, 1, 0).await;
    assert_eq!(
        totals(&mut conn, SALES, first).await,
        [(5, 2, 1_900, 190), (2, 1, 300, 30), (0, 2, 2_001, 200)]
    );

    // A longer range sums only the days not kept yet (9 to 7 days ago): day 5 is still
    // read as it was kept.
    assert_eq!(
        totals(&mut conn, SALES, days_ago(9)).await,
        [
            (9, 1, 500, 50),
            (5, 2, 1_900, 190),
            (2, 1, 300, 30),
            (0, 2, 2_001, 200)
        ]
    );
    assert_eq!(kept_days(&mut conn, "sales").await, closed + 3);

    // Another series over the same rows is summed and kept apart.
    assert_eq!(
        totals(&mut conn, LARGE_SALES, first).await,
        [(5, 2, 0, 0), (0, 1, 0, 0)]
    );
    assert_eq!(kept_days(&mut conn, "large_sales").await, closed);
}

#[tokio::test(flavor = "multi_thread")]
async fn replicas_filling_the_same_days_at_once_agree() {
    let (pool, mut conn) = with_sales("kit_daily_race").await;
    for n in 1..=30 {
        sell(&mut conn, n, 100 * n as i64, n as i64).await;
    }
    let first = days_ago(30);
    let asks = (0..4).map(|_| {
        let pool = pool.clone();
        tokio::spawn(async move {
            let mut conn = quire_kit::db::conn(&pool).await.unwrap();
            totals(&mut conn, SALES, first).await
        })
    });
    let answers: Vec<_> = futures::future::join_all(asks)
        .await
        .into_iter()
        .map(Result::unwrap)
        .collect();
    let expected: Vec<(i64, i64, i64, i64)> = (1..=30).rev().map(|n| (n, 1, 100 * n, n)).collect();
    for answer in &answers {
        assert_eq!(answer, &expected);
    }
    // Every closed day kept once (yesterday is still open in the hour after midnight).
    assert!(kept_days(&mut conn, "sales").await >= 29);
}
