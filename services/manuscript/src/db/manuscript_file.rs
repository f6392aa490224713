use diesel::prelude::*;
use uuid::Uuid;

use super::schema::manuscript_files;

#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = manuscript_files)]
pub struct ManuscriptFileRow {
    pub manuscript_id: Uuid,
    pub file_index: i32,
    /// The name the writer gave it, cleaned; never used as a path.
    pub file_name: String,
    pub format: String,
    pub object_key: String,
    pub size_bytes: i64,
    pub sha256: String,
}
