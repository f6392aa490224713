//! Settings an admin changes while a service runs, kept in the service's own `settings`
//! table (`key TEXT PRIMARY KEY, value TEXT NOT NULL, updated_at TIMESTAMPTZ NOT NULL`).
//! A service reads a setting where it needs it (see [`stored`]), so a change applies
//! without a restart; [`change`] writes changes with their audit entries, in one
//! transaction.
//!
//! The service says what a setting means: its `effective` function turns the stored text
//! (`None` while unset) into the value in effect, defaults included, as JSON. That value is
//! what is compared (a change to the value in effect writes and records nothing) and what
//! the audit log shows before and after.

use diesel::OptionalExtension;
use diesel::prelude::*;
use diesel::sql_types::{Array, Text};
use diesel_async::scoped_futures::ScopedFutureExt;
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use serde_json::Value;
use uuid::Uuid;

use crate::KitError;
use crate::audit::{self, AuditRecord};

/// One setting to change: `key` to the text `stored`, or back to its default (`None`, the
/// row removed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change<'a> {
    pub key: &'a str,
    pub stored: Option<String>,
}

#[derive(QueryableByName)]
struct Row {
    #[diesel(sql_type = Text)]
    key: String,
    #[diesel(sql_type = Text)]
    value: String,
}

/// The text stored for `key`; `None` while no admin set it.
pub async fn stored(
    conn: &mut AsyncPgConnection,
    key: &str,
) -> Result<Option<String>, diesel::result::Error> {
    diesel::sql_query("SELECT key, value FROM settings WHERE key = $1")
        .bind::<Text, _>(key)
        .get_result::<Row>(conn)
        .await
        .optional()
        .map(|row| row.map(|r| r.value))
}

/// Applies `changes` as admin `actor` of `service`: in one transaction, each setting whose
/// value in effect (`effective(key, stored)`) changes is written, with an audit entry of
/// that value before and after. Concurrent changes take turns (the table is locked against
/// other writers, not readers), so each entry's "before" is what it replaced.
pub async fn change<E, F>(
    conn: &mut AsyncPgConnection,
    service: &str,
    actor: Uuid,
    changes: &[Change<'_>],
    effective: F,
) -> Result<(), E>
where
    E: From<diesel::result::Error> + From<KitError> + Send,
    F: Fn(&str, Option<&str>) -> Result<Value, E> + Send + Sync,
{
    let keys: Vec<&str> = changes.iter().map(|c| c.key).collect();
    let effective = &effective;
    conn.transaction::<_, E, _>(|conn| {
        async move {
            diesel::sql_query("LOCK TABLE settings IN SHARE ROW EXCLUSIVE MODE")
                .execute(conn)
                .await?;
            let current = diesel::sql_query("SELECT key, value FROM settings WHERE key = ANY($1)")
                .bind::<Array<Text>, _>(&keys)
                .load::<Row>(conn)
                .await?;
            for c in changes {
                let was = current
                    .iter()
                    .find(|r| r.key == c.key)
                    .map(|r| r.value.as_str());
                let before = effective(c.key, was)?;
                let after = effective(c.key, c.stored.as_deref())?;
                if before == after {
                    continue;
                }
                write(conn, c).await?;
                audit::record(
                    conn,
                    service,
                    AuditRecord {
                        actor_id: actor,
                        action: "settings.update",
                        target: format!("setting:{}", c.key),
                        before: before.clone(),
                        after: after.clone(),
                    },
                )
                .await?;
                tracing::info!(setting = c.key, %before, %after, "setting changed");
            }
            Ok(())
        }
        .scope_boxed()
    })
    .await
}

async fn write(conn: &mut AsyncPgConnection, c: &Change<'_>) -> Result<(), diesel::result::Error> {
    match &c.stored {
        None => {
            diesel::sql_query("DELETE FROM settings WHERE key = $1")
                .bind::<Text, _>(c.key)
                .execute(conn)
                .await?
        }
        Some(value) => {
            diesel::sql_query(
                "INSERT INTO settings (key, value, updated_at) VALUES ($1, $2, now()) \
                 ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()",
            )
            .bind::<Text, _>(c.key)
            .bind::<Text, _>(value)
            .execute(conn)
            .await?
        }
    };
    Ok(())
}
