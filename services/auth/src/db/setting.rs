use chrono::{DateTime, Utc};
use diesel::prelude::*;

use super::schema::settings;

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = settings)]
pub struct SettingRow {
    pub key: String,
    pub value: String,
    pub updated_at: DateTime<Utc>,
}
