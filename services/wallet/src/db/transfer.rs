use chrono::{DateTime, Utc};
use diesel::prelude::*;
use uuid::Uuid;

use super::schema::transfers;

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = transfers)]
pub struct TransferRow {
    pub id: Uuid,
    pub kind: String,
    pub memo: String,
    pub created_at: DateTime<Utc>,
}

#[derive(Debug, Insertable)]
#[diesel(table_name = transfers)]
pub struct NewTransfer<'a> {
    pub id: Uuid,
    pub kind: &'a str,
    pub memo: &'a str,
}
