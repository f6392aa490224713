use chrono::{DateTime, Utc};
use diesel::prelude::*;
use uuid::Uuid;

use super::schema::campaigns;

pub const STATUS_OPEN: &str = "open";
pub const STATUS_FUNDED: &str = "funded";
pub const STATUS_FAILED: &str = "failed";

/// A crowd-funding campaign; its id is also its escrow account's.
#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = campaigns)]
pub struct CampaignRow {
    pub id: Uuid,
    pub book_id: Uuid,
    pub writer_uid: Uuid,
    pub title: String,
    pub goal_cents: i64,
    pub status: String,
    pub deadline: DateTime<Utc>,
    pub created_at: DateTime<Utc>,
    pub settled_at: Option<DateTime<Utc>>,
    pub writer_cents: i64,
    pub platform_cents: i64,
    pub transfer_id: Option<Uuid>,
}

impl CampaignRow {
    pub fn is_open(&self) -> bool {
        self.status == STATUS_OPEN
    }
}
