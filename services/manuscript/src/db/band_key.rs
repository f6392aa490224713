use diesel::prelude::*;
use uuid::Uuid;

use super::schema::band_keys;

#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = band_keys)]
pub struct BandKeyRow {
    pub band_key: i64,
    pub manuscript_id: Uuid,
}
