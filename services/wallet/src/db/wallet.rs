use chrono::{DateTime, Utc};
use diesel::prelude::*;
use uuid::Uuid;

// The view of the migration `pending_credits`: a wallet's row plus its pending credits.
// Diesel's schema printer leaves views out, so it is declared here, by hand. Every read of
// a balance goes through it; only the ledger writes `wallets`.
diesel::table! {
    wallet_balances (user_id) {
        user_id -> Uuid,
        balance_cents -> Int8,
        recharged_cents -> Int8,
        earned_cents -> Int8,
        spent_cents -> Int8,
        created_at -> Timestamptz,
        updated_at -> Timestamptz,
    }
}

/// A wallet as its owner sees it: pending credits included.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = wallet_balances)]
pub struct WalletRow {
    pub user_id: Uuid,
    pub balance_cents: i64,
    pub recharged_cents: i64,
    pub earned_cents: i64,
    pub spent_cents: i64,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}
