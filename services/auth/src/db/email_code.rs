use chrono::{DateTime, Utc};
use diesel::prelude::*;

use super::schema::email_codes;

#[derive(Debug, Clone, Queryable, Selectable, Insertable, AsChangeset)]
#[diesel(table_name = email_codes, treat_none_as_null = true)]
pub struct EmailCodeRow {
    pub email: String,
    pub purpose: String,
    pub code_hash: String,
    pub expires_at: DateTime<Utc>,
    pub attempts: i32,
    pub sent_at: DateTime<Utc>,
    pub sends_in_window: i32,
    pub window_started_at: DateTime<Utc>,
    pub verified_at: Option<DateTime<Utc>>,
    pub used_at: Option<DateTime<Utc>>,
}
