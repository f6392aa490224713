//! Postgres access: a diesel-async pool whose connections only see the service's own
//! schema (through `search_path`), and the migrations that build that schema.
//!
//! # Pipelining
//! A statement built on an `AsyncPgConnection` (`execute`, `load`, `get_result`, ...)
//! returns a future that no longer borrows the connection, and it is sent when first
//! polled. Statements joined (`futures::join!`) therefore go out in the order they are
//! listed and come back in one round trip instead of one each; the server still runs
//! them one after the other, in that order, in the same transaction. Each round trip
//! costs both sides a wake-up and a system call, which on a small machine weigh more than
//! a short statement does. A statement that fails aborts the transaction, so the ones
//! after it fail as well: read the results in order and report the first error. Helpers
//! named `*_statement` build such a statement without awaiting it.

mod migrate;
pub mod prepared;
pub mod schema;

pub use migrate::{ensure_database, migration_versions, run_migrations, schema_is_current};
pub use prepared::{Prepared, prepared};

use diesel_async::AsyncPgConnection;
use diesel_async::pooled_connection::deadpool::{Object, Pool};
use diesel_async::pooled_connection::{
    AsyncDieselConnectionManager, ManagerConfig, RecyclingMethod,
};

pub type PgPool = Pool<AsyncPgConnection>;
pub type PgConn = Object<AsyncPgConnection>;

pub use crate::error::KitError as DbError;

/// Schema names go into SQL and a connection option, so only a safe alphabet is allowed.
pub fn check_schema(schema: &str) -> Result<(), DbError> {
    let ok = !schema.is_empty()
        && schema.len() <= 63
        && schema.starts_with(|c: char| c.is_ascii_lowercase())
        && schema
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
    if ok {
        Ok(())
    } else {
        Err(DbError::BadSchema(schema.to_owned()))
    }
}

/// `database_url` with `search_path` set to `schema` for every connection made from it.
pub fn url_with_schema(database_url: &str, schema: &str) -> Result<String, DbError> {
    check_schema(schema)?;
    let sep = if database_url.contains('?') { '&' } else { '?' };
    Ok(format!(
        "{database_url}{sep}options=-c%20search_path%3D{schema}"
    ))
}

/// A pool of connections confined to `schema`.
pub fn pool(database_url: &str, schema: &str, max_size: usize) -> Result<PgPool, DbError> {
    let url = url_with_schema(database_url, schema)?;
    // A checked-out connection is not pinged first (the default `SELECT 1` is a round trip
    // on every checkout, two per trade); a connection that broke is still discarded, and
    // one that died unnoticed fails the query that finds out.
    let mut config = ManagerConfig::default();
    config.recycling_method = RecyclingMethod::Fast;
    let manager = AsyncDieselConnectionManager::<AsyncPgConnection>::new_with_config(url, config);
    Pool::builder(manager)
        .max_size(max_size)
        .build()
        .map_err(|e| DbError::Pool(e.to_string()))
}

/// A connection from the pool, with pool failures turned into [`DbError`].
pub async fn conn(pool: &PgPool) -> Result<PgConn, DbError> {
    pool.get().await.map_err(|e| DbError::Pool(e.to_string()))
}

/// True when the database answers a trivial query.
pub async fn ping(pool: &PgPool) -> bool {
    use diesel_async::RunQueryDsl;
    match conn(pool).await {
        Ok(mut c) => diesel::sql_query("SELECT 1").execute(&mut c).await.is_ok(),
        Err(_) => false,
    }
}
