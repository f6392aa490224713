//! Migrations: the shared outbox tables of quire-kit, then the service's own, both into
//! the service's schema. Runs from the `migrate` subcommand (a Kubernetes Job) and at
//! the start of `make run` and of every test.

use diesel::migration::MigrationSource;
use diesel::pg::Pg;
use diesel_async::{AsyncConnection, AsyncMigrationHarness, AsyncPgConnection, RunQueryDsl};
use diesel_migrations::{EmbeddedMigrations, MigrationHarness, embed_migrations};

use super::{DbError, check_schema, url_with_schema};

const KIT_MIGRATIONS: EmbeddedMigrations = embed_migrations!("migrations");

/// Creates the database named in `database_url` when it does not exist yet (local runs
/// and tests; in production the database is provisioned with the cluster).
pub async fn ensure_database(database_url: &str) -> Result<(), DbError> {
    if AsyncPgConnection::establish(database_url).await.is_ok() {
        return Ok(());
    }
    let (base, name) = split_database(database_url)
        .ok_or_else(|| DbError::Migration(format!("no database name in {database_url}")))?;
    check_schema(&name)?;
    let mut admin = AsyncPgConnection::establish(&format!("{base}/postgres")).await?;
    match diesel::sql_query(format!("CREATE DATABASE \"{name}\""))
        .execute(&mut admin)
        .await
    {
        Ok(_) => Ok(()),
        // Another process created it first (Postgres says so in one of two ways).
        Err(diesel::result::Error::DatabaseError(kind, info))
            if info.message().contains("already exists")
                || matches!(kind, diesel::result::DatabaseErrorKind::UniqueViolation) =>
        {
            Ok(())
        }
        Err(e) => Err(e.into()),
    }
}

/// The versions of kit's migrations and then `service_migrations`', as diesel records them
/// in the schema's `__diesel_schema_migrations` once applied.
pub fn migration_versions(service_migrations: &EmbeddedMigrations) -> Result<Vec<String>, DbError> {
    let mut versions = Vec::new();
    for set in [&KIT_MIGRATIONS, service_migrations] {
        let migrations = MigrationSource::<Pg>::migrations(set)
            .map_err(|e| DbError::Migration(e.to_string()))?;
        versions.extend(migrations.iter().map(|m| m.name().version().to_string()));
    }
    versions.sort();
    versions.dedup();
    Ok(versions)
}

/// True when every one of `versions` is applied in the pool's schema (false when the
/// database does not answer or the schema was never migrated).
pub async fn schema_is_current(pool: &super::PgPool, versions: &[String]) -> bool {
    #[derive(diesel::QueryableByName)]
    struct Applied {
        #[diesel(sql_type = diesel::sql_types::BigInt)]
        applied: i64,
    }
    let Ok(mut conn) = super::conn(pool).await else {
        return false;
    };
    diesel::sql_query(
        "SELECT count(*) AS applied FROM __diesel_schema_migrations WHERE version = ANY($1)",
    )
    .bind::<diesel::sql_types::Array<diesel::sql_types::Text>, _>(versions)
    .get_result::<Applied>(&mut conn)
    .await
    .is_ok_and(|a| usize::try_from(a.applied).is_ok_and(|n| n == versions.len()))
}

fn split_database(url: &str) -> Option<(String, String)> {
    let no_query = url.split('?').next()?;
    let (base, name) = no_query.rsplit_once('/')?;
    (!name.is_empty() && base.contains("://")).then(|| (base.to_owned(), name.to_owned()))
}

/// Creates `schema` if needed and applies every pending migration to it.
pub async fn run_migrations(
    database_url: &str,
    schema: &str,
    service_migrations: EmbeddedMigrations,
) -> Result<(), DbError> {
    check_schema(schema)?;
    ensure_database(database_url).await?;
    let mut conn = AsyncPgConnection::establish(database_url).await?;
    // Two replicas migrating at once would race on CREATE SCHEMA and the migration table.
    diesel::sql_query("SELECT pg_advisory_lock(7270)")
        .execute(&mut conn)
        .await?;
    let result = async {
        // Not `CREATE SCHEMA IF NOT EXISTS`: Postgres asks for the database-wide CREATE
        // right before it looks for the schema, and a service's role in production owns
        // its schema (made for it by the operator) without holding that right.
        diesel::sql_query(format!(
            "DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = '{schema}') \
             THEN CREATE SCHEMA {schema}; END IF; END $$"
        ))
        .execute(&mut conn)
        .await?;
        let scoped = AsyncPgConnection::establish(&url_with_schema(database_url, schema)?).await?;
        let mut harness = AsyncMigrationHarness::new(scoped);
        for set in [KIT_MIGRATIONS, service_migrations] {
            harness
                .run_pending_migrations(set)
                .map_err(|e| DbError::Migration(e.to_string()))?;
        }
        Ok::<_, DbError>(())
    }
    .await;
    diesel::sql_query("SELECT pg_advisory_unlock(7270)")
        .execute(&mut conn)
        .await?;
    result
}

#[cfg(test)]
mod tests {
    #[test]
    fn splits_the_database_name_off_a_url() {
        let (base, name) =
            super::split_database("postgres://u@h:5432/quire?sslmode=disable").unwrap();
        assert_eq!(
            (base.as_str(), name.as_str()),
            ("postgres://u@h:5432", "quire")
        );
        assert!(super::split_database("postgres://u@h:5432/").is_none());
    }
}
