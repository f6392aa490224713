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

#[derive(Debug, Insertable, AsChangeset)]
#[diesel(table_name = settings)]
pub struct NewSetting<'a> {
    pub key: &'a str,
    pub value: &'a str,
    pub updated_at: DateTime<Utc>,
}
