use chrono::{DateTime, Utc};
use diesel::prelude::*;
use uuid::Uuid;

use super::schema::top_ups;

pub const KIND_RECHARGE: &str = "recharge";
pub const KIND_TOP_UP: &str = "top_up";
pub const STATUS_PENDING: &str = "pending";
pub const STATUS_SETTLED: &str = "settled";
pub const STATUS_FAILED: &str = "failed";

#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = top_ups)]
pub struct TopUpRow {
    pub id: Uuid,
    pub user_id: Uuid,
    pub amount_cents: i64,
    pub kind: String,
    pub status: String,
    pub provider: String,
    pub provider_ref: String,
    pub note: String,
    pub created_by: Option<Uuid>,
    pub transfer_id: Option<Uuid>,
    pub created_at: DateTime<Utc>,
    pub settled_at: Option<DateTime<Utc>>,
}
