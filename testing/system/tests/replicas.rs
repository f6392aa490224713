//! Two of everything: two replicas each of catalog, wallet and chat behind the real
//! balancing (quire_kit::upstream), as production runs every service.
//!
//! - A book published is found by both catalog replicas and recommended by both chat
//!   replicas within 2 s (each keeps its own index, fed by its own consumer group).
//! - A sale counts once: in the wallet, in catalog's purchases, in chat's sales, and in
//!   each chat replica's index.
//! - (Catalog's purchases under kills are only checked for doubles: see the note there.)
//! - Readers and buyers keep going while one replica of each service is SIGKILLed and
//!   started again: every read is answered (the gateway sends a read that a dying replica
//!   dropped to the other one), every purchase sent again with its key is done exactly
//!   once, and no event is lost: every projection ends with every trade.
//! - With chat stopped, search, the shop, book pages, reading and buying answer; Quinn's
//!   route fails at once with 503, `chat_unavailable` and `Retry-After`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

// The bank test's broker, processes and sign-in, used as they are.
#[allow(dead_code)]
#[path = "bank/broker.rs"]
mod broker;
#[allow(dead_code)]
#[path = "bank/process.rs"]
mod process;
#[path = "bank/settings.rs"]
mod settings;
#[allow(dead_code)]
#[path = "bank/sign_in.rs"]
mod sign_in;

mod replicas {
    pub mod shop;
    pub mod stack;
}

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use diesel::sql_types::BigInt;
use quire_kit::db::PgPool;
use replicas::shop::{Client, found_by, publish, recommended_by, within};
use replicas::stack::{TestApp, User};

const BUYERS: usize = 3;
const BOOKS_UNDER_LOAD: usize = 10;

async fn count(pool: &PgPool, sql: &str) -> i64 {
    use diesel_async::RunQueryDsl;
    let mut conn = quire_kit::db::conn(pool).await.unwrap();
    diesel::select(diesel::dsl::sql::<BigInt>(&format!("({sql})")))
        .get_result(&mut conn)
        .await
        .unwrap()
}

/// Until both catalog replicas find `book` for `query` and both chat replicas recommend
/// it; answers how long that took.
async fn known_everywhere(
    app: &TestApp,
    reader: &User,
    book: &str,
    query: &str,
    patience: Duration,
) -> Option<Duration> {
    within(patience, || async {
        for catalog in &app.catalog.0 {
            if !found_by(&catalog.grpc, query)
                .await
                .iter()
                .any(|id| id == book)
            {
                return false;
            }
        }
        for chat in &app.chat.0 {
            let books = recommended_by(&chat.grpc, reader, query).await;
            if !books.iter().any(|(id, _)| id == book) {
                return false;
            }
        }
        true
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_replicas_of_each_service_serve_as_one_and_survive_losing_one() {
    let app = TestApp::spawn().await;
    let client = Client::new(&app);
    let writer = app.user(true).await;
    let mut buyers = Vec::new();
    for n in 0..BUYERS {
        let buyer = app.user(false).await;
        assert!(client.recharge(&buyer, 50_00, &format!("first-{n}")).await);
        buyers.push(buyer);
    }
    let token = uuid::Uuid::new_v4().simple().to_string()[..10].to_owned();

    // A first book: the replicas' consumers have joined once it is known everywhere.
    let summary = "A keeper of a lighthouse finds a message in a bottle.";
    let first = publish(
        &app.catalog.0[0].grpc,
        &writer,
        &format!("Beacon {token}a"),
        summary,
        300,
    )
    .await;
    let query = format!("lighthouse Beacon {token}a");
    let known = known_everywhere(&app, &buyers[0], &first, &query, Duration::from_secs(60)).await;
    assert!(
        known.is_some(),
        "the first book never reached every replica"
    );

    // Published through either replica, a book reaches all four indexes within 2 s.
    for (n, via) in app.catalog.0.iter().enumerate() {
        let title = format!("Beacon {token}{n}");
        let book = publish(&via.grpc, &writer, &title, summary, 300 + n as i64).await;
        let query = format!("lighthouse {title}");
        let took = known_everywhere(&app, &buyers[0], &book, &query, Duration::from_secs(2)).await;
        eprintln!("[replicas] a book published via catalog {n} was known everywhere in {took:?}");
        assert!(
            took.is_some(),
            "book {book} not found and recommended by both replicas within 2 s"
        );
    }

    // Three sales of one book count three times, once each, everywhere.
    for (n, buyer) in buyers.iter().enumerate() {
        assert!(client.buy(buyer, &first, &format!("buy-first-{n}")).await);
        // The same purchase sent again with its key is the same purchase.
        assert!(client.buy(buyer, &first, &format!("buy-first-{n}")).await);
    }
    let book_sql = |table: &str, column: &str| {
        format!("SELECT count(*) FROM {table} WHERE {column} = '{first}'")
    };
    assert_eq!(
        count(&app.wallet_db, &book_sql("trades", "book_id")).await,
        3
    );
    let counted = within(Duration::from_secs(30), || async {
        count(
            &app.chat_db,
            &format!("SELECT coalesce(sum(count), 0)::bigint FROM sales WHERE book_id = '{first}'"),
        )
        .await
            == 3
            && count(&app.catalog_db, &book_sql("purchases", "book_id")).await == 3
    })
    .await;
    assert!(
        counted.is_some(),
        "chat's sales or catalog's purchases did not count 3 sales"
    );
    let popular = within(Duration::from_secs(10), || async {
        let reader = app.user(false).await;
        let mut everywhere = true;
        for chat in &app.chat.0 {
            let books = recommended_by(&chat.grpc, &reader, &query).await;
            everywhere &= books
                .iter()
                .any(|(id, reason)| id == &first && reason.contains("popular with readers"));
        }
        everywhere
    })
    .await;
    assert!(
        popular.is_some(),
        "a chat replica's index did not count the sales"
    );

    // Readers and buyers while one replica of each service dies and comes back.
    let mut shelf = Vec::new();
    for n in 0..BOOKS_UNDER_LOAD {
        let title = format!("Tide Table {token} {n}");
        let via = &app.catalog.0[n % 2].grpc;
        shelf.push(publish(via, &writer, &title, summary, 100 + n as i64).await);
    }
    for book in &shelf {
        let query = format!("Tide Table {token}");
        let known = within(Duration::from_secs(30), || async {
            let mut all = true;
            for catalog in &app.catalog.0 {
                all &= found_by(&catalog.grpc, &query).await.contains(book);
            }
            all
        })
        .await;
        assert!(known.is_some());
    }
    let stop = AtomicBool::new(false);
    let bought = AtomicU64::new(0);
    let buying = async {
        let runs = buyers.iter().enumerate().map(|(b, buyer)| {
            let (client, shelf, bought) = (&client, &shelf, &bought);
            async move {
                for (n, book) in shelf.iter().enumerate() {
                    if client.buy(buyer, book, &format!("load-{b}-{n}")).await {
                        bought.fetch_add(1, Ordering::Relaxed);
                    }
                    tokio::time::sleep(Duration::from_millis(300)).await;
                }
            }
        });
        futures::future::join_all(runs).await;
    };
    let reading = async {
        let runs = (0..2).map(|r| {
            let (client, shelf, stop, buyers, token, first) =
                (&client, &shelf, &stop, &buyers, &token, &first);
            async move {
                let mut n = r;
                while !stop.load(Ordering::Relaxed) {
                    let book = &shelf[n % shelf.len()];
                    client.shop_page().await;
                    let hits = client.search(&format!("Tide Table {token}")).await;
                    assert!(hits["total"].as_u64().unwrap_or(0) >= 1, "{hits}");
                    let page = client.book_page(book).await;
                    assert!(page.to_string().contains(book.as_str()), "{page}");
                    let text = client.content(&buyers[0], first).await;
                    assert!(text.contains("lighthouse"), "{text}");
                    n += 1;
                }
            }
        });
        futures::future::join_all(runs).await;
    };
    let killing = async {
        let http = &app.http;
        let victims = [
            &app.catalog.0[0],
            &app.wallet.0[1],
            &app.chat.0[0],
            &app.catalog.0[1],
            &app.wallet.0[0],
        ];
        for victim in victims {
            tokio::time::sleep(Duration::from_millis(1200)).await;
            eprintln!(
                "[replicas] SIGKILL {} at {}",
                victim.process.name, victim.grpc
            );
            victim.crash_and_restart(http).await;
        }
    };
    let load = async {
        futures::join!(buying, killing);
        stop.store(true, Ordering::Relaxed);
    };
    futures::join!(load, reading);
    let reads = client.reads.load(Ordering::Relaxed);
    let failed = client.read_failures.load(Ordering::Relaxed);
    let resends = client.resends.load(Ordering::Relaxed);
    let bought = bought.load(Ordering::Relaxed);
    eprintln!(
        "[replicas] under kills: {reads} reads, {failed} failed at first; \
         {bought} purchases, {resends} writes sent again"
    );
    assert_eq!(
        bought,
        (BUYERS * BOOKS_UNDER_LOAD) as u64,
        "every purchase was done"
    );

    // Exactly once everywhere: the wallet's trades, catalog's and chat's projections.
    let trades = 3 + bought as i64;
    assert_eq!(
        count(&app.wallet_db, "SELECT count(*) FROM trades").await,
        trades
    );
    // Chat's sales (a consumer group per replica) and catalog's purchases (a group both
    // catalog replicas share) end exact. A member SIGKILLed keeps its partitions until the
    // broker expires it; this machine's broker (tansu) then keeps the old assignment, and
    // the member left rejoins once it sees the partitions stranded (kit's consumer watch,
    // 30 s), so catalog gets two minutes.
    let sales = "SELECT coalesce(sum(count), 0)::bigint FROM sales";
    let settled = within(Duration::from_secs(60), || async {
        count(&app.chat_db, sales).await == trades
    })
    .await;
    eprintln!("[replicas] chat's sales settled in {settled:?}");
    assert!(
        settled.is_some(),
        "an event was lost or doubled: chat has {} sales of {trades}",
        count(&app.chat_db, sales).await,
    );
    let purchases = "SELECT count(*) FROM purchases";
    let caught_up = within(Duration::from_secs(120), || async {
        count(&app.catalog_db, purchases).await == trades
    })
    .await;
    eprintln!("[replicas] catalog's purchases settled in {caught_up:?}");
    assert!(
        caught_up.is_some(),
        "catalog's shared group lost or doubled a purchase: {} of {trades}",
        count(&app.catalog_db, purchases).await,
    );

    // Chat stopped: the rest of the shop answers at once; Quinn's route fails fast.
    for chat in &app.chat.0 {
        chat.process.kill().await;
    }
    let before = client.read_failures.load(Ordering::Relaxed);
    client.shop_page().await;
    client.search(&format!("Tide Table {token}")).await;
    client.book_page(&first).await;
    client.content(&buyers[0], &first).await;
    let late = publish(
        &app.catalog.0[0].grpc,
        &writer,
        &format!("Last Light {token}"),
        summary,
        250,
    )
    .await;
    assert!(client.buy(&buyers[1], &late, "buy-without-chat").await);
    assert_eq!(
        client.read_failures.load(Ordering::Relaxed),
        before,
        "a read failed while only chat was down"
    );
    let reply = app
        .http
        .post(format!("{}/api/chat", app.base))
        .bearer_auth(&buyers[0].token)
        .timeout(Duration::from_secs(5))
        .json(&serde_json::json!({
            "uid": buyers[0].id,
            "conversation_id": uuid::Uuid::new_v4(),
            "current_input": "a lighthouse mystery",
        }))
        .send()
        .await
        .expect("Quinn's route answers at once while chat is down");
    assert_eq!(reply.status(), 503);
    assert!(reply.headers().contains_key("retry-after"));
    let body: serde_json::Value = reply.json().await.unwrap();
    assert_eq!(body["error"], "chat_unavailable", "{body}");

    // Redis stopped too: signed-in reads answer (the revocation check is skipped), a write
    // that moves money is refused at once rather than risked with a revoked token.
    app.redis.kill().await;
    let before = client.read_failures.load(Ordering::Relaxed);
    client.content(&buyers[0], &first).await;
    client.book_page(&first).await;
    client.shop_page().await;
    assert_eq!(
        client.read_failures.load(Ordering::Relaxed),
        before,
        "a signed-in read failed while Redis was down"
    );
    let refused = app
        .http
        .get(format!("{}/api/trade?book_id={first}", app.base))
        .bearer_auth(&buyers[1].token)
        .header("Idempotency-Key", "buy-without-redis")
        .timeout(Duration::from_secs(5))
        .send()
        .await
        .expect("a write answers at once while Redis is down");
    assert_eq!(refused.status(), 503);
    assert!(refused.headers().contains_key("retry-after"));
}
