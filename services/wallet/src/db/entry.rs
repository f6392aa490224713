use chrono::{DateTime, Utc};
use diesel::prelude::*;
use uuid::Uuid;

use super::schema::entries;

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = entries)]
pub struct EntryRow {
    pub id: i64,
    pub transfer_id: Uuid,
    pub account_id: Uuid,
    pub amount_cents: i64,
    pub created_at: DateTime<Utc>,
}

#[derive(Debug, Insertable)]
#[diesel(table_name = entries)]
pub struct NewEntry {
    pub transfer_id: Uuid,
    pub account_id: Uuid,
    pub amount_cents: i64,
}
