use chrono::{DateTime, Utc};
use diesel::prelude::*;
use uuid::Uuid;

use super::schema::rewards;

pub const REASON_REGISTERED: &str = "registered";
pub const REASON_FIRST_PURCHASE: &str = "first_purchase";

#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = rewards)]
pub struct RewardRow {
    pub id: Uuid,
    pub inviter_id: Uuid,
    pub invitee_id: Uuid,
    pub reason: String,
    pub amount_cents: i64,
    pub transfer_id: Uuid,
    pub created_at: DateTime<Utc>,
}
