use chrono::{DateTime, Utc};
use diesel::prelude::*;
use uuid::Uuid;

use super::schema::reading_history;

#[derive(Debug, Clone, Queryable, Selectable, Insertable, AsChangeset)]
#[diesel(table_name = reading_history)]
pub struct HistoryRow {
    pub user_id: Uuid,
    pub book_id: Uuid,
    pub last_read_at: DateTime<Utc>,
    pub percent: f64,
}
