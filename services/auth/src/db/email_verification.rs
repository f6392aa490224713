use chrono::{DateTime, Utc};
use diesel::prelude::*;

use super::schema::email_verifications;

#[derive(Debug, Clone, Queryable, Selectable, Insertable, AsChangeset)]
#[diesel(table_name = email_verifications, treat_none_as_null = true)]
pub struct EmailVerificationRow {
    pub email: String,
    pub code_hash: String,
    pub expires_at: DateTime<Utc>,
    pub attempts: i32,
    pub sent_at: DateTime<Utc>,
    pub sends_in_window: i32,
    pub window_started_at: DateTime<Utc>,
    pub verified_at: Option<DateTime<Utc>>,
}
