use chrono::{DateTime, Utc};
use diesel::prelude::*;
use uuid::Uuid;

use super::schema::idempotency_keys;

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = idempotency_keys)]
pub struct IdempotencyKeyRow {
    pub caller_id: Uuid,
    pub key: String,
    pub method: String,
    pub fingerprint: String,
    pub answer: Option<Vec<u8>>,
    pub top_up_id: Option<Uuid>,
    pub created_at: DateTime<Utc>,
    /// Why the request was refused, when that was its answer (see `idempotency`).
    pub refusal: Option<String>,
}
