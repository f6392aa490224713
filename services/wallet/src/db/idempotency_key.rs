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
}

#[derive(Debug, Insertable)]
#[diesel(table_name = idempotency_keys)]
pub struct NewIdempotencyKey<'a> {
    pub caller_id: Uuid,
    pub key: &'a str,
    pub method: &'a str,
    pub fingerprint: &'a str,
    pub top_up_id: Option<Uuid>,
}
