use chrono::{DateTime, Utc};
use diesel::prelude::*;
use uuid::Uuid;

use super::schema::bookmarks;

#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = bookmarks)]
pub struct BookmarkRow {
    pub id: Uuid,
    pub user_id: Uuid,
    pub book_id: Uuid,
    pub cfi: String,
    pub title: String,
    pub created_at: DateTime<Utc>,
}
