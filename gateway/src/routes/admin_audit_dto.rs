//! The JSON shapes of the audit log: every service's entries merged, newest first.

use quire_proto::ops::v1 as ops_pb;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
pub struct AuditQuery {
    /// RFC 3339: only entries strictly older than this (the last page's `next_before`);
    /// the newest when absent.
    #[param(format = DateTime)]
    pub before: Option<String>,
    /// 1-200, default 50.
    #[param(value_type = Option<u32>, minimum = 1, maximum = 200)]
    pub limit: Option<String>,
}

/// One admin action: who did what to what, when, and the value before and after.
#[derive(Debug, Serialize, ToSchema)]
pub struct AuditEntryOut {
    #[schema(format = Uuid)]
    pub id: String,
    /// RFC 3339 with microseconds.
    #[schema(format = DateTime)]
    pub at: String,
    /// The service that wrote it (auth, catalog, wallet, manuscript, chat).
    pub service: String,
    /// The admin who acted.
    #[schema(format = Uuid)]
    pub actor_id: String,
    /// A dotted name: `settings.update`, `user.disable`, `user.roles`, `book.take_down`, ...
    pub action: String,
    /// What it was done to: `setting:trial_percent`, `user:<id>`, `book:<id>`, ...
    pub target: String,
    /// The value before (any JSON; null when there was none).
    pub before: Value,
    /// The value after (any JSON; null when there is none).
    pub after: Value,
}

/// A JSON text as a value; a text that is not JSON stays a string.
fn json_of(text: String) -> Value {
    serde_json::from_str(&text).unwrap_or(Value::String(text))
}

impl From<ops_pb::AuditEntry> for AuditEntryOut {
    fn from(e: ops_pb::AuditEntry) -> Self {
        Self {
            id: e.id,
            at: e.at,
            service: e.service,
            actor_id: e.actor_id,
            action: e.action,
            target: e.target,
            before: json_of(e.before_json),
            after: json_of(e.after_json),
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct AuditPageOut {
    /// Newest first, across every service that answered.
    pub entries: Vec<AuditEntryOut>,
    /// Whether every entry returned still matches the hash chain written with it.
    pub chain_intact: bool,
    /// Where the next page starts (its `before`); null when there is no more.
    #[schema(format = DateTime, required = true)]
    pub next_before: Option<String>,
    /// The services whose entries could not be read.
    pub unavailable: Vec<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn before_and_after_are_json_values() {
        let e = AuditEntryOut::from(ops_pb::AuditEntry {
            before_json: r#"{"trial_percent":10}"#.into(),
            after_json: "null".into(),
            ..Default::default()
        });
        assert_eq!(e.before, serde_json::json!({"trial_percent": 10}));
        assert_eq!(e.after, Value::Null);
        assert_eq!(json_of("not json".into()), Value::String("not json".into()));
    }
}
