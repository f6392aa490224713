use chrono::{DateTime, Utc};
use diesel::prelude::*;
use uuid::Uuid;

use super::schema::purchases;

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = purchases)]
pub struct PurchaseRow {
    pub user_id: Uuid,
    pub book_id: Uuid,
    pub trade_id: Uuid,
    pub price_cents: i64,
    pub purchased_at: DateTime<Utc>,
}
