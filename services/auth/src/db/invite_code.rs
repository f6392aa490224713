use chrono::{DateTime, Utc};
use diesel::prelude::*;
use uuid::Uuid;

use super::schema::invite_codes;

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = invite_codes)]
pub struct InviteCodeRow {
    pub code: String,
    pub owner_id: Uuid,
    pub created_at: DateTime<Utc>,
}

#[derive(Debug, Insertable)]
#[diesel(table_name = invite_codes)]
pub struct NewInviteCode<'a> {
    pub code: &'a str,
    pub owner_id: Uuid,
}
