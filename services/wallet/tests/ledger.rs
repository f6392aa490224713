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
use quire_wallet::trades;
use uuid::Uuid;

const USERS: usize = 4;
const SHARE: u8 = 90;

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
        match trades::flight::trade(conn, None, users[buyer], &sale, SHARE).await {
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
        Db { runtime, pool }
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
        let first = flight::trade(conn, Some(&key), buyer, &book, SHARE)
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
            let outcome = flight::trade(conn, *key, buyer, sale, SHARE).await.unwrap();
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
        let free = flight::trade(conn, None, buyer, &sale(seller, 0), SHARE)
            .await
            .unwrap()
            .expect("a free book flies");
        assert_eq!(free.price_cents, 0);
        assert_eq!(balances(conn).await, [501, 449, 0]);
        assert_eq!(trades_of(conn).await, 2);
    });
}
