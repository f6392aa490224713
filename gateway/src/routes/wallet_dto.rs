//! The JSON shapes of the caller's wallet routes: a wallet, money in and out, a trade.
//! Amounts go out as decimals with at most two places (`4.99`).

use quire_proto::wallet::v1 as pb;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use utoipa::ToSchema;

use super::books_dto::non_empty;
use crate::money::to_decimal;

#[derive(Debug, Serialize, ToSchema)]
pub struct WalletOut {
    #[schema(format = Uuid)]
    pub user_id: String,
    pub balance: f64,
    /// ISO 4217; one currency for the whole platform.
    pub currency: String,
    pub created_at: String,
    pub updated_at: String,
    /// Money in since the wallet was opened: recharges and top-ups.
    pub recharged: f64,
    /// Money earned: book sales and invite rewards.
    pub earned: f64,
    /// Money out: consumption and purchases.
    pub spent: f64,
}

impl From<pb::Wallet> for WalletOut {
    fn from(w: pb::Wallet) -> Self {
        Self {
            user_id: w.user_id,
            balance: to_decimal(w.balance_cents),
            currency: w.currency,
            created_at: w.created_at,
            updated_at: w.updated_at,
            recharged: to_decimal(w.recharged_cents),
            earned: to_decimal(w.earned_cents),
            spent: to_decimal(w.spent_cents),
        }
    }
}

/// `{wallet}`, as the spec's wallet calls read it (`data.wallet`).
#[derive(Debug, Serialize, ToSchema)]
pub struct WalletReplyOut {
    pub wallet: WalletOut,
}

impl From<pb::Wallet> for WalletReplyOut {
    fn from(w: pb::Wallet) -> Self {
        Self { wallet: w.into() }
    }
}

/// A recharge (paid through the payment provider) or a top-up (credited by an admin).
#[derive(Debug, Serialize, ToSchema)]
pub struct TopUpRecordOut {
    #[schema(format = Uuid)]
    pub id: String,
    #[schema(format = Uuid)]
    pub user_id: String,
    pub amount: f64,
    /// recharge or top_up
    pub kind: String,
    /// settled, pending or failed
    pub status: String,
    /// The payment provider and its reference for the payment (recharges only).
    pub provider: String,
    pub provider_ref: String,
    pub note: String,
    pub created_at: String,
    /// Null until the payment settles.
    pub settled_at: Option<String>,
    /// The admin who credited a top-up; null for recharges.
    #[schema(format = Uuid)]
    pub created_by: Option<String>,
}

impl From<pb::TopUpRecord> for TopUpRecordOut {
    fn from(r: pb::TopUpRecord) -> Self {
        Self {
            id: r.id,
            user_id: r.user_id,
            amount: to_decimal(r.amount_cents),
            kind: r.kind,
            status: r.status,
            provider: r.provider,
            provider_ref: r.provider_ref,
            note: r.note,
            created_at: r.created_at,
            settled_at: non_empty(r.settled_at),
            created_by: non_empty(r.created_by),
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct RechargeOut {
    pub wallet: WalletOut,
    pub record: TopUpRecordOut,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ConsumeOut {
    pub wallet: WalletOut,
    #[schema(format = Uuid)]
    pub transfer_id: String,
    pub amount: f64,
    pub created_at: String,
}

/// A book bought: the buyer paid `price`; the writer got `seller_amount`, the platform
/// the rest.
#[derive(Debug, Serialize, ToSchema)]
pub struct TradeOut {
    #[schema(format = Uuid)]
    pub trade_id: String,
    #[schema(format = Uuid)]
    pub buyer_uid: String,
    #[schema(format = Uuid)]
    pub book_id: String,
    #[schema(format = Uuid)]
    pub seller_uid: String,
    /// The book's title when it was bought.
    pub title: String,
    pub price: f64,
    pub seller_amount: f64,
    pub platform_amount: f64,
    pub created_at: String,
    /// This answer repeats an earlier purchase of the same book: nothing was charged now.
    pub replayed: bool,
}

impl From<pb::Trade> for TradeOut {
    fn from(t: pb::Trade) -> Self {
        Self {
            trade_id: t.trade_id,
            buyer_uid: t.buyer_uid,
            book_id: t.book_id,
            seller_uid: t.seller_uid,
            title: t.title,
            price: to_decimal(t.price_cents),
            seller_amount: to_decimal(t.seller_cents),
            platform_amount: to_decimal(t.platform_cents),
            created_at: t.created_at,
            replayed: t.replayed,
        }
    }
}

/// `wallet/open`: the body may be left out.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct OpenBody {
    /// A decimal amount (4.99), number or string; more than 0 recharges the new wallet.
    #[schema(value_type = Option<f64>)]
    pub amount: Option<Box<RawValue>>,
}

/// `wallet/info`: the body may be left out.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct InfoBody {
    /// Whose wallet: the caller's when absent; another user's for admins only.
    #[schema(format = Uuid)]
    pub user_id: Option<String>,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct RechargeBody {
    /// A decimal amount (4.99), number or string, more than 0.
    #[schema(value_type = f64, exclusive_minimum = 0, maximum = 1000000)]
    pub amount: Option<Box<RawValue>>,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct ConsumeBody {
    /// A decimal amount (4.99), number or string, more than 0.
    #[schema(value_type = f64, exclusive_minimum = 0, maximum = 1000000)]
    pub amount: Option<Box<RawValue>>,
    /// What the money is spent on (at most 200 characters).
    #[schema(max_length = 200)]
    pub memo: Option<String>,
}

#[derive(Debug, Default, Deserialize, ToSchema, utoipa::IntoParams)]
pub struct TradeQuery {
    /// The buyer: the caller (admins: anyone); the caller when absent.
    #[param(format = Uuid)]
    pub buyer_uid: Option<String>,
    #[param(format = Uuid, required = true)]
    pub book_id: Option<String>,
}
