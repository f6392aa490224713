use diesel::prelude::*;
use uuid::Uuid;

use super::schema::chapters;

#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = chapters)]
pub struct ChapterRow {
    pub manuscript_id: Uuid,
    pub chapter_index: i32,
    pub title: String,
    pub words: i64,
    pub body: String,
}
