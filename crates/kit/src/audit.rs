//! The audit log of admin actions, one part per service in its own schema (`audit_log`,
//! made by kit's migration): who did what to what, when, and the value before and after.
//!
//! Rows are only ever appended (triggers refuse UPDATE, DELETE and TRUNCATE), and each
//! row's hash is sha256 of the previous row's hash and its own fields, so a row edited or
//! removed by someone who got past the triggers shows as a broken chain when it is read.
//! A service calls [`record`] in the transaction that makes the change it records: the
//! change and its entry commit together or not at all.

use chrono::{DateTime, Utc};
use diesel::QueryableByName;
use diesel::sql_types::{BigInt, Bytea, Jsonb, Nullable, Text, Timestamptz};
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use sha2::{Digest, Sha256};
use uuid::Uuid;

use crate::db::{DbError, prepared};

/// One admin action, as a service records it.
pub struct AuditRecord<'a> {
    /// The admin who acted (`caller.user_id()`).
    pub actor_id: Uuid,
    /// A dotted name: `"settings.update"`, `"user.disable"`, `"book.take_down"`, ...
    pub action: &'a str,
    /// What it was done to: `"setting:trial_percent"`, `"user:<uuid>"`, `"book:<uuid>"`.
    pub target: String,
    /// The value before and after (`Value::Null` when there was none).
    pub before: serde_json::Value,
    pub after: serde_json::Value,
}

/// One entry as stored, its JSON as Postgres writes it (the text the hash covers).
#[derive(Debug, Clone, PartialEq, QueryableByName)]
pub struct AuditEntry {
    #[diesel(sql_type = diesel::sql_types::Uuid)]
    pub id: Uuid,
    #[diesel(sql_type = Timestamptz)]
    pub at: DateTime<Utc>,
    #[diesel(sql_type = Text)]
    pub service: String,
    #[diesel(sql_type = diesel::sql_types::Uuid)]
    pub actor_id: Uuid,
    #[diesel(sql_type = Text)]
    pub action: String,
    #[diesel(sql_type = Text)]
    pub target: String,
    #[diesel(sql_type = Text)]
    pub before: String,
    #[diesel(sql_type = Text)]
    pub after: String,
    #[diesel(sql_type = Bytea)]
    pub prev_hash: Vec<u8>,
    #[diesel(sql_type = Bytea)]
    pub hash: Vec<u8>,
}

impl AuditEntry {
    /// Whether the stored hash is still that of this entry's fields after `prev_hash`.
    pub fn hash_matches(&self) -> bool {
        chain_hash(&self.prev_hash, &self.fields()) == self.hash
    }

    fn fields(&self) -> Fields<'_> {
        Fields {
            id: self.id,
            at: self.at,
            service: &self.service,
            actor_id: self.actor_id,
            action: &self.action,
            target: &self.target,
            before: &self.before,
            after: &self.after,
        }
    }
}

/// What the hash covers besides the previous hash.
struct Fields<'a> {
    id: Uuid,
    at: DateTime<Utc>,
    service: &'a str,
    actor_id: Uuid,
    action: &'a str,
    target: &'a str,
    before: &'a str,
    after: &'a str,
}

/// sha256(prev_hash || fields), each text prefixed by its length so that no two different
/// entries hash the same bytes.
fn chain_hash(prev_hash: &[u8], f: &Fields<'_>) -> Vec<u8> {
    let mut h = Sha256::new();
    h.update(prev_hash);
    h.update(f.id.as_bytes());
    h.update(f.at.timestamp_micros().to_be_bytes());
    h.update(f.actor_id.as_bytes());
    for text in [f.service, f.action, f.target, f.before, f.after] {
        h.update((text.len() as u64).to_be_bytes());
        h.update(text.as_bytes());
    }
    h.finalize().to_vec()
}

/// The chain's last hash, the time the next entry gets, and its JSON as Postgres will
/// store and give it back (jsonb orders keys and writes numbers its own way, so the hash
/// is taken over that text, not over what serde wrote).
#[derive(QueryableByName)]
struct Head {
    #[diesel(sql_type = Nullable<Bytea>)]
    prev_hash: Option<Vec<u8>>,
    #[diesel(sql_type = Timestamptz)]
    at: DateTime<Utc>,
    #[diesel(sql_type = Text)]
    before: String,
    #[diesel(sql_type = Text)]
    after: String,
}

/// Appends one entry to the service's own `audit_log`, inside the caller's transaction
/// (call it on the same connection, in the transaction that makes the change, so the
/// change and its entry commit together). `service` is the service's short name.
///
/// Writers of one schema take turns on a transaction-scoped advisory lock, so each reads
/// the chain's true last entry (under READ COMMITTED, the default; a stale snapshot
/// cannot fork the chain either: `prev_hash` is unique). Each entry's time is after its
/// predecessor's, so time order is chain order.
pub async fn record(
    conn: &mut AsyncPgConnection,
    service: &str,
    rec: AuditRecord<'_>,
) -> Result<(), DbError> {
    let lock =
        prepared("SELECT pg_advisory_xact_lock(7271, hashtext(current_schema()))").execute(conn);
    let head = prepared(
        "SELECT last.hash AS prev_hash, \
         greatest(clock_timestamp(), last.at + interval '1 microsecond') AS at, \
         $1::jsonb::text AS before, $2::jsonb::text AS after \
         FROM (SELECT 1) AS one \
         LEFT JOIN (SELECT hash, at FROM audit_log ORDER BY seq DESC LIMIT 1) AS last ON true",
    )
    .bind::<Jsonb, _>(&rec.before)
    .bind::<Jsonb, _>(&rec.after)
    .get_result::<Head>(conn);
    // Sent together, run in this order: the head is read once the lock is held.
    let (locked, head) = futures::join!(lock, head);
    locked?;
    let head = head?;
    let prev_hash = head.prev_hash.unwrap_or_default();
    let id = Uuid::now_v7();
    let hash = chain_hash(
        &prev_hash,
        &Fields {
            id,
            at: head.at,
            service,
            actor_id: rec.actor_id,
            action: rec.action,
            target: &rec.target,
            before: &head.before,
            after: &head.after,
        },
    );
    prepared(
        "INSERT INTO audit_log \
         (id, at, service, actor_id, action, target, before, after, prev_hash, hash) \
         VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8::jsonb, $9, $10)",
    )
    .bind::<diesel::sql_types::Uuid, _>(id)
    .bind::<Timestamptz, _>(head.at)
    .bind::<Text, _>(service)
    .bind::<diesel::sql_types::Uuid, _>(rec.actor_id)
    .bind::<Text, _>(rec.action)
    .bind::<Text, _>(&rec.target)
    .bind::<Text, _>(&head.before)
    .bind::<Text, _>(&head.after)
    .bind::<Bytea, _>(&prev_hash)
    .bind::<Bytea, _>(&hash)
    .execute(conn)
    .await?;
    Ok(())
}

/// One page of the log, newest first.
#[derive(Debug, Clone, PartialEq)]
pub struct AuditPage {
    pub entries: Vec<AuditEntry>,
    /// Every entry's hash recomputes and links to the entry before it.
    pub chain_intact: bool,
}

/// Up to `limit` entries strictly older than `before` (all when `None`), newest first.
/// One entry more is read to check the last one's link; when there is none, the last
/// entry must be the chain's first.
pub async fn list(
    conn: &mut AsyncPgConnection,
    before: Option<DateTime<Utc>>,
    limit: u32,
) -> Result<AuditPage, DbError> {
    let mut rows: Vec<AuditEntry> = prepared(
        "SELECT id, at, service, actor_id, action, target, before::text AS before, \
         after::text AS after, prev_hash, hash FROM audit_log \
         WHERE at < coalesce($1, 'infinity'::timestamptz) \
         ORDER BY at DESC, seq DESC LIMIT $2",
    )
    .bind::<Nullable<Timestamptz>, _>(before)
    .bind::<BigInt, _>(i64::from(limit) + 1)
    .load(conn)
    .await?;
    let older = if rows.len() > limit as usize {
        rows.pop()
    } else {
        None
    };
    let chain_intact = chain_intact(&rows, older.as_ref());
    Ok(AuditPage {
        entries: rows,
        chain_intact,
    })
}

/// `entries` newest first; `older` the entry before the last of them, if any.
fn chain_intact(entries: &[AuditEntry], older: Option<&AuditEntry>) -> bool {
    let predecessors = entries.iter().skip(1).map(Some).chain([older]);
    entries.iter().zip(predecessors).all(|(entry, pred)| {
        let linked = match pred {
            Some(p) => entry.prev_hash == p.hash,
            None => entry.prev_hash.is_empty(),
        };
        linked && entry.hash_matches()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(prev: &[u8], action: &str) -> AuditEntry {
        let mut e = AuditEntry {
            id: Uuid::now_v7(),
            at: Utc::now(),
            service: "kit".into(),
            actor_id: Uuid::now_v7(),
            action: action.into(),
            target: "setting:x".into(),
            before: "1".into(),
            after: "2".into(),
            prev_hash: prev.to_vec(),
            hash: Vec::new(),
        };
        e.hash = chain_hash(prev, &e.fields());
        e
    }

    #[test]
    fn a_chain_holds_until_an_entry_is_edited_or_removed() {
        let first = entry(&[], "a");
        let second = entry(&first.hash, "b");
        let third = entry(&second.hash, "c");
        let newest_first = [third.clone(), second.clone(), first.clone()];
        assert!(chain_intact(&newest_first, None));
        assert!(chain_intact(&newest_first[..2], Some(&first)));

        // A page whose last entry is not the first needs its predecessor.
        assert!(!chain_intact(&newest_first[..2], None));
        // The middle entry removed.
        assert!(!chain_intact(&[third.clone(), first.clone()], None));
        // The middle entry edited.
        let mut edited = second.clone();
        edited.after = "3".into();
        assert!(!chain_intact(&[third, edited, first], None));
    }

    #[test]
    fn fields_are_length_prefixed() {
        let mut a = entry(&[], "ab");
        a.target = "c".into();
        let mut b = a.clone();
        b.action = "a".into();
        b.target = "bc".into();
        assert_ne!(chain_hash(&[], &a.fields()), chain_hash(&[], &b.fields()));
    }
}
