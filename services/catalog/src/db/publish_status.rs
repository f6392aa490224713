use chrono::{DateTime, Utc};
use diesel::prelude::*;
use uuid::Uuid;

use super::schema::publish_status;

pub const ROLE_WRITER: &str = "writer";
pub const ROLE_PUBLISHER: &str = "publisher";

#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = publish_status)]
pub struct PublishStatusRow {
    pub user_id: Uuid,
    pub book_id: Uuid,
    pub role: String,
    pub is_on: bool,
    pub updated_at: DateTime<Utc>,
}
