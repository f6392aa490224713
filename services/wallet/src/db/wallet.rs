use chrono::{DateTime, Utc};
use diesel::prelude::*;
use uuid::Uuid;

use super::schema::wallets;

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = wallets)]
pub struct WalletRow {
    pub user_id: Uuid,
    pub balance_cents: i64,
    pub recharged_cents: i64,
    pub earned_cents: i64,
    pub spent_cents: i64,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}
