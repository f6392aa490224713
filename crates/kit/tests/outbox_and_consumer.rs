//! The outbox relay and the idempotent consumer against the real Postgres and broker:
//! every committed event arrives, a rolled-back one never does, and an event delivered
//! twice is applied once.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test or bench stops at the first surprise

use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

use diesel_async::scoped_futures::ScopedFutureExt;
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use diesel_migrations::{EmbeddedMigrations, embed_migrations};
use quire_kit::consumer::{EventConsumer, EventHandler, apply_once};
use quire_kit::db::{DbError, PgPool};
use quire_kit::outbox::{Relay, enqueue};

const TEST_MIGRATIONS: EmbeddedMigrations = embed_migrations!("tests/migrations");

struct Count;

impl EventHandler for Count {
    fn handle<'a>(
        &'a self,
        conn: &'a mut AsyncPgConnection,
        event: &'a quire_kit::events::Event,
    ) -> Pin<Box<dyn Future<Output = Result<(), DbError>> + Send + 'a>> {
        Box::pin(async move {
            diesel::sql_query("INSERT INTO counters (key, n) VALUES ($1, 1) ON CONFLICT (key) DO UPDATE SET n = counters.n + 1")
                .bind::<diesel::sql_types::Text, _>(&event.key)
                .execute(conn)
                .await?;
            Ok(())
        })
    }
}

#[derive(diesel::QueryableByName)]
struct Counter {
    #[diesel(sql_type = diesel::sql_types::Text)]
    key: String,
    #[diesel(sql_type = diesel::sql_types::Integer)]
    n: i32,
}

async fn counters(pool: &PgPool) -> Vec<(String, i32)> {
    let mut conn = quire_kit::db::conn(pool).await.unwrap();
    let rows: Vec<Counter> = diesel::sql_query("SELECT key, n FROM counters ORDER BY key")
        .load(&mut conn)
        .await
        .unwrap();
    rows.into_iter().map(|c| (c.key, c.n)).collect()
}

fn env_or(key: &str, default: &str) -> String {
    std::env::var(key).unwrap_or_else(|_| default.to_owned())
}

#[tokio::test(flavor = "multi_thread")]
async fn committed_events_arrive_once_rolled_back_ones_never_and_replays_change_nothing() {
    let url = env_or(
        "QUIRE_TEST_DATABASE_URL",
        "postgres://postgres@127.0.0.1:5432/quire_test",
    );
    let brokers = env_or("QUIRE_KAFKA_BROKERS", "127.0.0.1:9092");
    let schema = format!("kit_t_{}", &uuid::Uuid::new_v4().simple().to_string()[..12]);
    let topic = format!("quire.test.{schema}");
    quire_kit::db::run_migrations(&url, &schema, TEST_MIGRATIONS)
        .await
        .unwrap();
    quire_kit::events::ensure_topics(&brokers, &[&topic])
        .await
        .unwrap();
    let pool = quire_kit::db::pool(&url, &schema, 4).unwrap();
    let msg = quire_proto::events::v1::UserRegistered {
        user_id: "u".into(),
        ..Default::default()
    };

    // Two committed events for key "a", one for "b"; one event rolled back with its change.
    let mut conn = quire_kit::db::conn(&pool).await.unwrap();
    for key in ["a", "a", "b"] {
        enqueue(&mut conn, &topic, key, "quire.test.v1", "tests", &msg)
            .await
            .unwrap();
    }
    let rolled_back = conn
        .transaction::<(), DbError, _>(|c| {
            let (topic, msg) = (topic.clone(), msg.clone());
            async move {
                enqueue(c, &topic, "ghost", "quire.test.v1", "tests", &msg).await?;
                Err(DbError::Migration("the change failed".into()))
            }
            .scope_boxed()
        })
        .await;
    assert!(rolled_back.is_err());

    let relay = Relay::new(
        pool.clone(),
        &brokers,
        Duration::from_millis(20),
        Default::default(),
    )
    .unwrap();
    assert_eq!(relay.publish_batch().await.unwrap(), 3);
    assert_eq!(
        relay.publish_batch().await.unwrap(),
        0,
        "sent rows are not sent again"
    );

    let group = format!("test-{schema}");
    let consumer = EventConsumer::new(&brokers, &group, &[&topic], pool.clone()).unwrap();
    let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
    let running = tokio::spawn(consumer.run(Count, async move {
        let _ = stop_rx.await;
    }));
    let wait_for = |expected: Vec<(String, i32)>| {
        let pool = pool.clone();
        async move {
            for _ in 0..300 {
                if counters(&pool).await == expected {
                    return;
                }
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            panic!(
                "counters never became {expected:?}, are {:?}",
                counters(&pool).await
            );
        }
    };
    wait_for(vec![("a".into(), 2), ("b".into(), 1)]).await;

    // The relay crashed after sending and before marking: everything is sent again.
    diesel::sql_query("UPDATE outbox SET published_at = NULL")
        .execute(&mut conn)
        .await
        .unwrap();
    assert_eq!(relay.publish_batch().await.unwrap(), 3);
    // A marker event sent after the duplicates tells us the consumer has passed them.
    enqueue(&mut conn, &topic, "marker", "quire.test.v1", "tests", &msg)
        .await
        .unwrap();
    relay.publish_batch().await.unwrap();
    wait_for(vec![("a".into(), 2), ("b".into(), 1), ("marker".into(), 1)]).await;

    // The same event handed over directly once more is refused as already applied.
    let seen = quire_kit::events::Event {
        id: {
            #[derive(diesel::QueryableByName)]
            struct Id {
                #[diesel(sql_type = diesel::sql_types::Uuid)]
                event_id: uuid::Uuid,
            }
            let ids: Vec<Id> =
                diesel::sql_query("SELECT event_id FROM outbox WHERE event_key = 'b'")
                    .load(&mut conn)
                    .await
                    .unwrap();
            ids[0].event_id
        },
        event_type: "quire.test.v1".into(),
        source: "tests".into(),
        time: String::new(),
        key: "b".into(),
        data: vec![],
        traceparent: None,
    };
    assert!(!apply_once(&pool, &group, &seen, &Count).await.unwrap());
    assert_eq!(counters(&pool).await[1], ("b".into(), 1));

    let _ = stop_tx.send(());
    running.await.unwrap();
}
