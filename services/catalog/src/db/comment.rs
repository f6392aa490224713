use chrono::{DateTime, Utc};
use diesel::prelude::*;
use uuid::Uuid;

use super::schema::comments;

#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = comments)]
pub struct CommentRow {
    pub id: Uuid,
    pub book_id: Uuid,
    pub user_id: Uuid,
    pub content: String,
    pub created_at: DateTime<Utc>,
}
