//! The ledger's guarantees, on a real Postgres schema: the database itself refuses what
//! would create or lose money, and the ledger behaves like a map of balances. For the
//! latter, random sequences of opening, recharging, spending, trading and topping up on a
//! few users run against the real ledger and against the model; after every step both agree
//! on the outcome (done, insufficient funds, no wallet) and on every balance, and the
//! ledger's entries sum to zero.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::HashMap;

use diesel_async::scoped_futures::ScopedFutureExt;
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use proptest::prelude::*;
use quire_kit::db::PgPool;
use quire_wallet::catalog::Sale;
use quire_wallet::error::WalletError;
use quire_wallet::ledger::{self, Account, Posting, TransferKind};
use quire_wallet::settings::SellerShare;
use quire_wallet::trades;
use uuid::Uuid;

const USERS: usize = 4;
const SHARE: u8 = 90;
/// The seller's share setting of these schemas: never set, so the default applies.
const SETTING: SellerShare = SellerShare { default: SHARE };

#[derive(Debug, Clone)]
enum Op {
    Open(usize),
    Recharge(usize, i64),
    TopUp(usize, i64),
    Consume(usize, i64),
    /// Spends the whole balance, one cent less or one cent more: the edge of the check.
    ConsumeNear(usize, i64),
    Trade {
        buyer: usize,
        seller: usize,
        price: i64,
    },
    /// The folder takes in up to this many pending credits: no balance changes.
    Fold(i64),
}

fn op() -> impl Strategy<Value = Op> {
    let user = 0..USERS;
    let cents = 1..=400i64;
    prop_oneof![
        user.clone().prop_map(Op::Open),
        (user.clone(), cents.clone()).prop_map(|(u, c)| Op::Recharge(u, c)),
        (user.clone(), cents.clone()).prop_map(|(u, c)| Op::TopUp(u, c)),
        (user.clone(), cents.clone()).prop_map(|(u, c)| Op::Consume(u, c)),
        (user.clone(), -1..=1i64).prop_map(|(u, d)| Op::ConsumeNear(u, d)),
        (1..=3i64).prop_map(Op::Fold),
        (user.clone(), user, 0..=400i64)
            .prop_filter("nobody buys their own book", |(b, s, _)| b != s)
            .prop_map(|(buyer, seller, price)| Op::Trade {
                buyer,
                seller,
                price
            }),
    ]
}

/// How a step ended, in the terms both sides share.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Outcome {
    Done,
    Insufficient,
    NoWallet,
}

/// The model: the balance of each opened wallet.
#[derive(Default)]
struct Model(HashMap<usize, i64>);

impl Model {
    /// Turns an op that depends on the current balances into a plain one.
    fn concrete(&self, op: &Op) -> Op {
        match *op {
            Op::ConsumeNear(u, d) => {
                let balance = self.0.get(&u).copied().unwrap_or(0);
                Op::Consume(u, (balance + d).max(1))
            }
            ref other => other.clone(),
        }
    }

    fn credit(&mut self, user: usize, cents: i64) {
        *self.0.entry(user).or_insert(0) += cents;
    }

    fn debit(&mut self, user: usize, cents: i64) -> Outcome {
        match self.0.get_mut(&user) {
            None => Outcome::NoWallet,
            Some(b) if *b < cents => Outcome::Insufficient,
            Some(b) => {
                *b -= cents;
                Outcome::Done
            }
        }
    }

    fn apply(&mut self, op: &Op) -> Outcome {
        match *op {
            Op::Open(u) => {
                self.0.entry(u).or_insert(0);
                Outcome::Done
            }
            Op::Recharge(u, c) | Op::TopUp(u, c) => {
                self.credit(u, c);
                Outcome::Done
            }
            Op::Consume(u, c) => self.debit(u, c),
            Op::Fold(_) => Outcome::Done,
            Op::ConsumeNear(..) => unreachable!("made concrete first"),
            Op::Trade {
                buyer,
                seller,
                price,
            } => {
                if price == 0 {
                    return Outcome::Done;
                }
                // The trade maps a missing wallet to insufficient funds (a balance of 0).
                match self.debit(buyer, price) {
                    Outcome::Done => {
                        // A share of 0 cents is no posting: it opens no wallet.
                        let share = trades::split(price, SHARE).0;
                        if share > 0 {
                            self.credit(seller, share);
                        }
                        Outcome::Done
                    }
                    _ => Outcome::Insufficient,
                }
            }
        }
    }
}

fn outcome<T>(result: Result<T, WalletError>) -> Outcome {
    match result {
        Ok(_) => Outcome::Done,
        Err(WalletError::InsufficientFunds) => Outcome::Insufficient,
        Err(WalletError::WalletNotFound) => Outcome::NoWallet,
        Err(other) => panic!("the ledger failed: {other}"),
    }
}

async fn run(conn: &mut AsyncPgConnection, users: &[Uuid], op: &Op) -> Outcome {
    // A trade runs as the wallet runs it: in one flight, else statement by statement.
    if let Op::Trade {
        buyer,
        seller,
        price,
    } = *op
    {
        let sale = Sale {
            book_id: Uuid::now_v7(),
            title: "A Model Book".into(),
            price_cents: price,
            seller: users[seller],
        };
        match trades::flight::trade(conn, None, users[buyer], &sale, SHARE, SETTING).await {
            Ok(Some(_)) => return Outcome::Done,
            Ok(None) => {}
            Err(error) => return outcome::<()>(Err(error)),
        }
    }
    let op = op.clone();
    let users = users.to_vec();
    let result = conn
        .transaction::<(), WalletError, _>(|conn| {
            async move {
                let id = Uuid::now_v7();
                let money_in = |u: usize, c: i64| {
                    [
                        Posting::new(Account::World, -c),
                        Posting::new(Account::User(users[u]), c),
                    ]
                };
                match op {
                    Op::ConsumeNear(..) => unreachable!("made concrete first"),
                    Op::Open(u) => ledger::open(conn, users[u]).await.map(drop),
                    Op::Fold(n) => ledger::fold_pending(conn, n).await.map(drop),
                    Op::Recharge(u, c) => {
                        ledger::transfer(conn, id, TransferKind::Recharge, "", &money_in(u, c))
                            .await
                            .map(drop)
                    }
                    Op::TopUp(u, c) => {
                        ledger::transfer(conn, id, TransferKind::TopUp, "", &money_in(u, c))
                            .await
                            .map(drop)
                    }
                    Op::Consume(u, c) => ledger::transfer(
                        conn,
                        id,
                        TransferKind::Consume,
                        "",
                        &[
                            Posting::new(Account::User(users[u]), -c),
                            Posting::new(Account::Spent, c),
                        ],
                    )
                    .await
                    .map(drop),
                    Op::Trade {
                        buyer,
                        seller,
                        price,
                    } => {
                        let sale = Sale {
                            book_id: Uuid::now_v7(),
                            title: "A Model Book".into(),
                            price_cents: price,
                            seller: users[seller],
                        };
                        match trades::record(conn, users[buyer], &sale, SHARE).await {
                            Ok((_, Some(transfer))) => transfer.settle(conn).await.map(drop),
                            other => other.map(drop),
                        }
                    }
                }
            }
            .scope_boxed()
        })
        .await;
    outcome(result)
}

async fn check(conn: &mut AsyncPgConnection, users: &[Uuid], model: &Model) {
    for (i, user) in users.iter().enumerate() {
        let real = ledger::wallet(conn, *user)
            .await
            .unwrap()
            .map(|w| w.balance_cents);
        assert_eq!(real, model.0.get(&i).copied(), "user {i}'s balance");
        let entries = ledger::balance(conn, Account::User(*user)).await.unwrap();
        assert_eq!(entries, real.unwrap_or(0), "user {i}'s entries");
    }
    assert_eq!(
        ledger_total(conn).await,
        0,
        "the entries of the ledger sum to zero"
    );
}

async fn ledger_total(conn: &mut AsyncPgConnection) -> i64 {
    diesel::select(diesel::dsl::sql::<diesel::sql_types::BigInt>(
        "COALESCE((SELECT sum(amount_cents) FROM entries), 0)::bigint",
    ))
    .get_result(conn)
    .await
    .unwrap()
}

struct Db {
    runtime: tokio::runtime::Runtime,
    pool: PgPool,
    url: String,
    schema: String,
}

fn db() -> &'static Db {
    static DB: std::sync::OnceLock<Db> = std::sync::OnceLock::new();
    DB.get_or_init(|| {
        let runtime = tokio::runtime::Runtime::new().unwrap();
        let url = std::env::var("QUIRE_TEST_DATABASE_URL")
            .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/quire_test".into());
        let schema = format!(
            "wallet_model_{}",
            &Uuid::new_v4().simple().to_string()[..12]
        );
        runtime
            .block_on(quire_kit::db::run_migrations(
                &url,
                &schema,
                quire_wallet::db::MIGRATIONS,
            ))
            .unwrap();
        let pool = quire_kit::db::pool(&url, &schema, 2).unwrap();
        Db {
            runtime,
            pool,
            url,
            schema,
        }
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    #[test]
    fn the_ledger_behaves_like_a_map_of_balances(ops in proptest::collection::vec(op(), 1..=40)) {
        let db = db();
        db.runtime.block_on(async {
            let mut conn = quire_kit::db::conn(&db.pool).await.unwrap();
            let users: Vec<Uuid> = (0..USERS).map(|_| Uuid::now_v7()).collect();
            let mut model = Model::default();
            for op in &ops {
                let op = &model.concrete(op);
                let expected = model.apply(op);
                let got = run(&mut conn, &users, op).await;
                assert_eq!(got, expected, "{op:?}");
                check(&mut conn, &users, &model).await;
            }
        });
    }
}

/// What the code above the database must never get wrong is refused by the database too.
#[test]
fn the_database_refuses_unbalanced_transfers_overdrafts_and_edited_entries() {
    use diesel::result::{DatabaseErrorKind, Error};
    use diesel::sql_types::Uuid as SqlUuid;
    let db = db();
    db.runtime.block_on(async {
        let mut conn = quire_kit::db::conn(&db.pool).await.unwrap();
        let user = Uuid::now_v7();
        let recharge = Op::Recharge(0, 100);
        assert_eq!(run(&mut conn, &[user], &recharge).await, Outcome::Done);

        // A transfer whose entries do not sum to zero fails at commit.
        let transfer = Uuid::now_v7();
        let unbalanced = conn
            .transaction::<(), Error, _>(|conn| {
                async move {
                    diesel::sql_query("INSERT INTO transfers (id, kind) VALUES ($1, 'consume')")
                        .bind::<SqlUuid, _>(transfer)
                        .execute(conn)
                        .await?;
                    diesel::sql_query(
                        "INSERT INTO entries (transfer_id, account_id, amount_cents) \
                         VALUES ($1, $2, 5)",
                    )
                    .bind::<SqlUuid, _>(transfer)
                    .bind::<SqlUuid, _>(Account::Spent.id())
                    .execute(conn)
                    .await?;
                    Ok(())
                }
                .scope_boxed()
            })
            .await;
        match unbalanced {
            Err(Error::DatabaseError(DatabaseErrorKind::CheckViolation, info)) => {
                assert!(info.message().contains("unbalanced"), "{}", info.message());
            }
            other => panic!("an unbalanced transfer committed: {other:?}"),
        }

        // A balance below zero, and any change to a written entry.
        let refused = [
            "UPDATE wallets SET balance_cents = -1 WHERE user_id = $1",
            "UPDATE entries SET amount_cents = amount_cents + 1 WHERE account_id = $1",
            "DELETE FROM entries WHERE account_id = $1",
        ];
        for statement in refused {
            let result = diesel::sql_query(statement)
                .bind::<SqlUuid, _>(user)
                .execute(&mut conn)
                .await;
            assert!(result.is_err(), "{statement} went through");
        }
        let wallet = ledger::wallet(&mut conn, user).await.unwrap().unwrap();
        assert_eq!(wallet.balance_cents, 100);
        assert_eq!(
            ledger::balance(&mut conn, Account::User(user))
                .await
                .unwrap(),
            100
        );
    });
}

/// A trade sent in one flight commits only when it goes the usual way; anything else rolls
/// back whole (no trade row, no key, no money moved) for the careful path to handle.
#[test]
fn a_trade_in_one_flight_commits_only_the_usual_case() {
    use quire_wallet::idempotency::Key;
    use quire_wallet::trades::flight;
    let db = db();
    db.runtime.block_on(async {
        let mut conn = quire_kit::db::conn(&db.pool).await.unwrap();
        let conn = &mut *conn;
        let (buyer, seller, newcomer) = (Uuid::now_v7(), Uuid::now_v7(), Uuid::now_v7());
        assert_eq!(
            run(conn, &[buyer], &Op::Recharge(0, 1_000)).await,
            Outcome::Done
        );
        assert_eq!(run(conn, &[seller], &Op::Open(0)).await, Outcome::Done);
        let sale = |seller: Uuid, price_cents: i64| Sale {
            book_id: Uuid::now_v7(),
            title: "A Flight Book".into(),
            price_cents,
            seller,
        };
        // The users' own (the platform's account is shared with the tests running beside).
        let balances = async |conn: &mut AsyncPgConnection| {
            let mut all = Vec::new();
            for user in [buyer, seller, newcomer] {
                all.push(ledger::balance(conn, Account::User(user)).await.unwrap());
            }
            all
        };
        let trades_of = async |conn: &mut AsyncPgConnection| {
            diesel::sql_query("SELECT 1 FROM trades WHERE buyer_uid = $1")
                .bind::<diesel::sql_types::Uuid, _>(buyer)
                .execute(conn)
                .await
                .unwrap()
        };

        // The usual way: committed, the money split, the key answered.
        let key = Key::parse(buyer, "flight-1", "Trade", &["a"])
            .unwrap()
            .unwrap();
        let book = sale(seller, 499);
        let first = flight::trade(conn, Some(&key), buyer, &book, SHARE, SETTING)
            .await
            .unwrap()
            .expect("a usual trade flies");
        assert!(!first.replayed);
        assert_eq!((first.seller_cents, first.platform_cents), (449, 50));
        assert_eq!(balances(conn).await, [501, 449, 0]);
        assert_eq!(trades_of(conn).await, 1);
        let stored = quire_wallet::idempotency::lookup(conn, &key).await.unwrap();
        assert!(
            matches!(stored, Some(quire_wallet::idempotency::Claim::Answered(_))),
            "{stored:?}"
        );

        // Not the usual way: the same key again, the same book again under a new key, a
        // seller without a wallet, too little money. Each rolls back whole.
        let again = Key::parse(buyer, "flight-2", "Trade", &["b"])
            .unwrap()
            .unwrap();
        let refused = [
            (Some(&key), sale(seller, 100)),
            (Some(&again), book.clone()),
            (None, sale(newcomer, 100)),
            (None, sale(seller, 502)),
        ];
        for (key, sale) in &refused {
            let outcome = flight::trade(conn, *key, buyer, sale, SHARE, SETTING)
                .await
                .unwrap();
            assert!(outcome.is_none(), "{sale:?} flew");
            assert_eq!(balances(conn).await, [501, 449, 0]);
            assert_eq!(trades_of(conn).await, 1);
        }
        assert_eq!(
            quire_wallet::idempotency::lookup(conn, &again)
                .await
                .unwrap(),
            None,
            "a rolled-back flight leaves its key unused"
        );

        // A free book moves no money and still flies.
        let free = flight::trade(conn, None, buyer, &sale(seller, 0), SHARE, SETTING)
            .await
            .unwrap()
            .expect("a free book flies");
        assert_eq!(free.price_cents, 0);
        assert_eq!(balances(conn).await, [501, 449, 0]);
        assert_eq!(trades_of(conn).await, 2);
    });
}

#[test]
fn a_flight_priced_at_a_share_the_setting_no_longer_says_commits_nothing() {
    use quire_wallet::trades::flight;
    let db = db();
    db.runtime.block_on(async {
        // A schema of its own: the setting changed here must not reach other tests.
        let pool = own_schema(1).await;
        let mut conn = quire_kit::db::conn(&pool).await.unwrap();
        let conn = &mut *conn;
        let (buyer, seller) = (Uuid::now_v7(), Uuid::now_v7());
        assert_eq!(
            run(conn, &[buyer], &Op::Recharge(0, 1_000)).await,
            Outcome::Done
        );
        assert_eq!(run(conn, &[seller], &Op::Open(0)).await, Outcome::Done);
        let sale = Sale {
            book_id: Uuid::now_v7(),
            title: "A Repriced Book".into(),
            price_cents: 499,
            seller,
        };
        // An admin sets 70% after the trade read the default.
        diesel::sql_query(
            "INSERT INTO settings (key, value) VALUES ('seller_share_percent', '70')",
        )
        .execute(conn)
        .await
        .unwrap();
        assert_eq!(SETTING.read(conn).await.unwrap(), 70);

        let stale = flight::trade(conn, None, buyer, &sale, SHARE, SETTING)
            .await
            .unwrap();
        assert!(stale.is_none(), "a trade priced at 90% flew under 70%");
        let mut seen = Vec::new();
        for user in [buyer, seller] {
            seen.push(ledger::balance(conn, Account::User(user)).await.unwrap());
        }
        assert_eq!(seen, [1_000, 0], "nothing moved");

        let fresh = flight::trade(conn, None, buyer, &sale, 70, SETTING)
            .await
            .unwrap()
            .expect("a trade priced at the setting flies");
        assert_eq!((fresh.seller_cents, fresh.platform_cents), (349, 150));
        // A share the database would never hold is refused before any money moves.
        let refused = diesel::sql_query(
            "UPDATE settings SET value = '101' WHERE key = 'seller_share_percent'",
        )
        .execute(conn)
        .await;
        assert!(
            refused.is_err(),
            "the settings table refused a share of 101%"
        );
    });
}

/// A pool on a schema of its own, for a test whose counts another test's folder would
/// change (the folder takes every pending credit of its schema).
async fn own_schema(connections: usize) -> PgPool {
    let url = &db().url;
    let schema = format!("wallet_own_{}", &Uuid::new_v4().simple().to_string()[..12]);
    quire_kit::db::run_migrations(url, &schema, quire_wallet::db::MIGRATIONS)
        .await
        .unwrap();
    quire_kit::db::pool(url, &schema, connections).unwrap()
}

/// Whether a test's side task was told to stop.
fn stopped(done: &std::sync::atomic::AtomicBool) -> bool {
    // `load` alone would be diesel's.
    std::sync::atomic::AtomicBool::load(done, std::sync::atomic::Ordering::Relaxed)
}

/// The number of `user`'s pending credits and their wallet row's balance (without them).
async fn pending_and_row(conn: &mut AsyncPgConnection, user: Uuid) -> (i64, i64) {
    #[derive(diesel::QueryableByName)]
    struct Counts {
        #[diesel(sql_type = diesel::sql_types::BigInt)]
        pending: i64,
        #[diesel(sql_type = diesel::sql_types::BigInt)]
        row: i64,
    }
    let counts: Counts = diesel::sql_query(
        "SELECT (SELECT count(*) FROM pending_credits WHERE user_id = $1) AS pending, \
         (SELECT balance_cents FROM wallets WHERE user_id = $1) AS row",
    )
    .bind::<diesel::sql_types::Uuid, _>(user)
    .get_result(conn)
    .await
    .unwrap();
    (counts.pending, counts.row)
}

/// A writer's share of a sale waits as a pending credit: the wallet shows it at once, a
/// debit of the writer takes it in first (so the money is there to spend), and the folder
/// moves what is left into the row.
#[test]
fn a_writers_share_waits_as_a_pending_credit_that_counts_at_once() {
    use quire_wallet::trades::flight;
    let db = db();
    db.runtime.block_on(async {
        let pool = own_schema(1).await;
        let mut conn = quire_kit::db::conn(&pool).await.unwrap();
        let conn = &mut *conn;
        let (buyer, writer) = (Uuid::now_v7(), Uuid::now_v7());
        assert_eq!(
            run(conn, &[buyer], &Op::Recharge(0, 1_000)).await,
            Outcome::Done
        );
        assert_eq!(run(conn, &[writer], &Op::Open(0)).await, Outcome::Done);
        let sale = |price_cents: i64| Sale {
            book_id: Uuid::now_v7(),
            title: "A Pending Book".into(),
            price_cents,
            seller: writer,
        };
        let shown = async |conn: &mut AsyncPgConnection| {
            let w = ledger::wallet(conn, writer).await.unwrap().unwrap();
            (w.balance_cents, w.earned_cents)
        };

        flight::trade(conn, None, buyer, &sale(499), SHARE, SETTING)
            .await
            .unwrap()
            .unwrap();
        assert_eq!(pending_and_row(conn, writer).await, (1, 0));
        assert_eq!(
            shown(conn).await,
            (449, 449),
            "the wallet shows the share at once"
        );

        // Spending more than the row holds works: the debit takes the credit in.
        assert_eq!(
            run(conn, &[writer], &Op::Consume(0, 400)).await,
            Outcome::Done
        );
        assert_eq!(pending_and_row(conn, writer).await, (0, 49));
        assert_eq!(shown(conn).await, (49, 449));

        // The careful path writes pending credits too; the folder takes them in.
        let book = sale(100);
        conn.transaction::<_, WalletError, _>(|conn| {
            async move {
                let (_, transfer) = trades::record(conn, buyer, &book, SHARE).await?;
                transfer.expect("money moves").settle(conn).await
            }
            .scope_boxed()
        })
        .await
        .unwrap();
        assert_eq!(pending_and_row(conn, writer).await, (1, 49));
        assert_eq!(shown(conn).await, (139, 539));
        while ledger::fold_pending(conn, 1_000).await.unwrap() > 0 {}
        assert_eq!(pending_and_row(conn, writer).await, (0, 139));
        assert_eq!(shown(conn).await, (139, 539));
        assert_eq!(
            ledger::balance(conn, Account::User(writer)).await.unwrap(),
            139
        );
    });
}

/// Many buyers buying from one writer at once, while the folder folds and the writer
/// spends: nothing deadlocks, nothing is lost, and every balance is its entries.
#[test]
fn a_popular_writer_sells_while_the_folder_folds_and_the_writer_spends() {
    use quire_wallet::trades::flight;
    const BUYERS: usize = 6;
    const BOOKS: usize = 25;
    let db = db();
    db.runtime.block_on(async {
        let pool = quire_kit::db::pool(&db.url, &db.schema, BUYERS + 4).unwrap();
        let writer = Uuid::now_v7();
        let buyers: Vec<Uuid> = (0..BUYERS).map(|_| Uuid::now_v7()).collect();
        {
            let mut conn = quire_kit::db::conn(&pool).await.unwrap();
            assert_eq!(run(&mut conn, &[writer], &Op::Open(0)).await, Outcome::Done);
            for buyer in &buyers {
                assert_eq!(
                    run(&mut conn, &[*buyer], &Op::Recharge(0, 100 * BOOKS as i64)).await,
                    Outcome::Done
                );
            }
        }
        let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let sales = buyers.iter().map(|&buyer| {
            let pool = pool.clone();
            async move {
                let mut conn = quire_kit::db::conn(&pool).await.unwrap();
                for _ in 0..BOOKS {
                    let sale = Sale {
                        book_id: Uuid::now_v7(),
                        title: "A Popular Book".into(),
                        price_cents: 100,
                        seller: writer,
                    };
                    let flew = flight::trade(&mut conn, None, buyer, &sale, SHARE, SETTING)
                        .await
                        .unwrap();
                    assert!(flew.is_some(), "a usual trade flies");
                }
            }
        });
        let folding = {
            let (pool, done) = (pool.clone(), done.clone());
            async move {
                let mut conn = quire_kit::db::conn(&pool).await.unwrap();
                let mut folded = 0;
                while !stopped(&done) {
                    folded += ledger::fold_pending(&mut conn, 7).await.unwrap();
                    tokio::task::yield_now().await;
                }
                folded
            }
        };
        let spending = {
            let (pool, done) = (pool.clone(), done.clone());
            async move {
                let mut conn = quire_kit::db::conn(&pool).await.unwrap();
                let mut spent = 0;
                while !stopped(&done) {
                    if run(&mut conn, &[writer], &Op::Consume(0, 30)).await == Outcome::Done {
                        spent += 30;
                    }
                    tokio::task::yield_now().await;
                }
                spent
            }
        };
        let sold = async {
            futures::future::join_all(sales.map(tokio::spawn)).await;
            done.store(true, std::sync::atomic::Ordering::Relaxed);
        };
        let folding = tokio::spawn(folding);
        let spending = tokio::spawn(spending);
        sold.await;
        let (folded, spent) = (folding.await.unwrap(), spending.await.unwrap());

        let mut conn = quire_kit::db::conn(&pool).await.unwrap();
        let earned = (BUYERS * BOOKS) as i64 * 90;
        let wallet = ledger::wallet(&mut conn, writer).await.unwrap().unwrap();
        assert_eq!(wallet.earned_cents, earned, "every share arrived once");
        assert_eq!(wallet.balance_cents, earned - spent);
        assert_eq!(
            ledger::balance(&mut conn, Account::User(writer))
                .await
                .unwrap(),
            earned - spent
        );
        assert!(folded > 0 && spent > 0, "folded {folded}, spent {spent}");
        for buyer in &buyers {
            let w = ledger::wallet(&mut conn, *buyer).await.unwrap().unwrap();
            assert_eq!(w.balance_cents, 0, "each buyer paid for every book");
        }
    });
}

/// A writer who spends each share as soon as it is theirs is never refused, however the
/// folder's batches fall: a debit waits for a fold holding its credit, then sees the row.
#[test]
fn a_debit_racing_the_folder_sees_every_credit() {
    use quire_wallet::trades::flight;
    const ROUNDS: usize = 150;
    let db = db();
    db.runtime.block_on(async {
        let pool = own_schema(3).await;
        let (buyer, writer) = (Uuid::now_v7(), Uuid::now_v7());
        let mut conn = quire_kit::db::conn(&pool).await.unwrap();
        let price = 100;
        let share = trades::split(price, SHARE).0;
        assert_eq!(
            run(&mut conn, &[buyer], &Op::Recharge(0, price * ROUNDS as i64)).await,
            Outcome::Done
        );
        assert_eq!(run(&mut conn, &[writer], &Op::Open(0)).await, Outcome::Done);
        let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let folding = {
            let (pool, done) = (pool.clone(), done.clone());
            tokio::spawn(async move {
                let mut conn = quire_kit::db::conn(&pool).await.unwrap();
                let mut folded = 0;
                while !stopped(&done) {
                    folded += ledger::fold_pending(&mut conn, 1_000).await.unwrap();
                }
                folded
            })
        };
        for round in 0..ROUNDS {
            let sale = Sale {
                book_id: Uuid::now_v7(),
                title: "A Racing Book".into(),
                price_cents: price,
                seller: writer,
            };
            assert!(
                flight::trade(&mut conn, None, buyer, &sale, SHARE, SETTING)
                    .await
                    .unwrap()
                    .is_some()
            );
            let spent = run(&mut conn, &[writer], &Op::Consume(0, share)).await;
            assert_eq!(
                spent,
                Outcome::Done,
                "round {round}: the writer's share was refused"
            );
        }
        done.store(true, std::sync::atomic::Ordering::Relaxed);
        let folded = folding.await.unwrap();
        let wallet = ledger::wallet(&mut conn, writer).await.unwrap().unwrap();
        assert_eq!(
            (
                wallet.balance_cents,
                wallet.earned_cents,
                wallet.spent_cents
            ),
            (0, share * ROUNDS as i64, share * ROUNDS as i64)
        );
        assert!(folded > 0, "the folder never got a credit first");
    });
}
