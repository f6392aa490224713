use chrono::{DateTime, Utc};
use diesel::prelude::*;
use uuid::Uuid;

use super::schema::uploads;

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = uploads)]
pub struct UploadRow {
    pub id: Uuid,
    pub writer_id: Uuid,
    pub object_keys: Vec<Option<String>>,
    pub created_at: DateTime<Utc>,
}

#[derive(Debug, Insertable)]
#[diesel(table_name = uploads)]
pub struct NewUpload {
    pub id: Uuid,
    pub writer_id: Uuid,
    pub object_keys: Vec<String>,
}
