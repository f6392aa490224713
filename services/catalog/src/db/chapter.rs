use diesel::prelude::*;
use uuid::Uuid;

use super::schema::chapters;

#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = chapters)]
pub struct ChapterRow {
    pub book_id: Uuid,
    pub file_index: i32,
    pub chapter_index: i32,
    pub title: String,
    pub href: String,
    pub weight: i64,
}
