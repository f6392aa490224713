use chrono::{DateTime, Utc};
use diesel::prelude::*;
use uuid::Uuid;

use super::schema::reading_progress;

#[derive(Debug, Clone, Queryable, Selectable, Insertable, AsChangeset)]
#[diesel(table_name = reading_progress)]
pub struct ProgressRow {
    pub user_id: Uuid,
    pub book_id: Uuid,
    pub position: String,
    pub percent: f64,
    pub updated_at: DateTime<Utc>,
}
