use chrono::{DateTime, Utc};
use diesel::prelude::*;
use uuid::Uuid;

use super::schema::trades;

#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = trades)]
pub struct TradeRow {
    pub id: Uuid,
    pub buyer_uid: Uuid,
    pub book_id: Uuid,
    pub seller_uid: Uuid,
    pub title: String,
    pub price_cents: i64,
    pub seller_cents: i64,
    pub platform_cents: i64,
    pub transfer_id: Option<Uuid>,
    pub created_at: DateTime<Utc>,
    /// The funded campaign this trade gave its backer the book from (paid from its escrow).
    pub campaign_id: Option<Uuid>,
}
