use chrono::{DateTime, Utc};
use diesel::prelude::*;
use uuid::Uuid;

use super::schema::pledges;

/// One pledge, moved from its backer's wallet to the campaign's escrow by `transfer_id`.
#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = pledges)]
pub struct PledgeRow {
    pub id: Uuid,
    pub campaign_id: Uuid,
    pub backer_uid: Uuid,
    pub amount_cents: i64,
    pub transfer_id: Uuid,
    pub created_at: DateTime<Utc>,
}
