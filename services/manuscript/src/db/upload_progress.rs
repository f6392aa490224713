use chrono::{DateTime, Utc};
use diesel::prelude::*;
use uuid::Uuid;

use super::schema::upload_progress;

#[derive(Debug, Clone, Queryable, Selectable, Insertable, AsChangeset)]
#[diesel(table_name = upload_progress)]
pub struct ProgressRow {
    pub user_id: Uuid,
    pub upload_id: Uuid,
    pub step: String,
    pub step_index: i32,
    pub steps_total: i32,
    pub done: bool,
    pub failed: bool,
    pub message: String,
    pub updated_at: DateTime<Utc>,
}
