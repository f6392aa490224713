//! The service's outbox backlog: events committed and not yet published.

use diesel::QueryableByName;
use diesel::sql_types::{BigInt, Double};
use diesel_async::{AsyncPgConnection, RunQueryDsl};

use crate::db::{DbError, prepared};

#[derive(Debug, Clone, Copy, PartialEq, QueryableByName)]
pub struct Backlog {
    /// Events waiting to be published.
    #[diesel(sql_type = BigInt)]
    pub pending: i64,
    /// Age in seconds of the oldest of them; 0 when none waits.
    #[diesel(sql_type = Double)]
    pub oldest_secs: f64,
}

/// The backlog now (the partial index on unpublished rows keeps this cheap).
pub async fn backlog(conn: &mut AsyncPgConnection) -> Result<Backlog, DbError> {
    Ok(prepared(
        "SELECT count(*) AS pending, \
         coalesce(extract(epoch FROM clock_timestamp() - min(created_at))::float8, 0) \
         AS oldest_secs FROM outbox WHERE published_at IS NULL",
    )
    .get_result(conn)
    .await?)
}
