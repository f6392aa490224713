use diesel::prelude::*;
use uuid::Uuid;

use super::schema::book_files;

#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = book_files)]
pub struct BookFileRow {
    pub book_id: Uuid,
    pub file_index: i32,
    pub format: String,
    pub object_key: String,
    pub size_bytes: i64,
    pub sha256: String,
    pub total_weight: i64,
    pub chapter_count: i32,
}
