//! The JSON shapes of the records routes: pages of wallets, recharges and top-ups, trades
//! (with the caller's part in each) and invite rewards.

use quire_proto::wallet::v1 as pb;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use uuid::Uuid;

use super::wallet_dto::{TopUpRecordOut, TradeOut, WalletOut};
use crate::money::to_decimal;

fn all<P, T: From<P>>(items: Vec<P>) -> Vec<T> {
    items.into_iter().map(Into::into).collect()
}

/// A page of wallets, newest first.
#[derive(Debug, Serialize, ToSchema)]
pub struct WalletPageOut {
    pub total: u64,
    pub page: u32,
    pub page_size: u32,
    pub result: Vec<WalletOut>,
}

impl From<pb::WalletPage> for WalletPageOut {
    fn from(p: pb::WalletPage) -> Self {
        Self {
            total: p.total,
            page: p.page,
            page_size: p.page_size,
            result: all(p.wallets),
        }
    }
}

/// A page of recharges and top-ups, newest first.
#[derive(Debug, Serialize, ToSchema)]
pub struct TopUpPageOut {
    pub total: u64,
    pub page: u32,
    pub page_size: u32,
    pub result: Vec<TopUpRecordOut>,
}

impl From<pb::TopUpPage> for TopUpPageOut {
    fn from(p: pb::TopUpPage) -> Self {
        Self {
            total: p.total,
            page: p.page,
            page_size: p.page_size,
            result: all(p.records),
        }
    }
}

/// A trade in someone's records.
#[derive(Debug, Serialize, ToSchema)]
pub struct TradeRecordOut {
    #[serde(flatten)]
    pub trade: TradeOut,
    /// bought or sold, seen from the user whose records these are; null in the admin's
    /// list of every trade when the admin took no part in it.
    pub role: Option<String>,
}

/// A page of trade records, newest first.
#[derive(Debug, Serialize, ToSchema)]
pub struct TradePageOut {
    pub total: u64,
    pub page: u32,
    pub page_size: u32,
    pub result: Vec<TradeRecordOut>,
}

impl TradePageOut {
    /// The page with each trade's role seen from `subject`.
    pub fn seen_by(p: pb::TradePage, subject: Uuid) -> Self {
        let me = subject.to_string();
        let role = |t: &pb::Trade| {
            if t.buyer_uid == me {
                Some("bought".to_owned())
            } else if t.seller_uid == me {
                Some("sold".to_owned())
            } else {
                None
            }
        };
        Self {
            total: p.total,
            page: p.page,
            page_size: p.page_size,
            result: p
                .trades
                .into_iter()
                .map(|t| TradeRecordOut {
                    role: role(&t),
                    trade: t.into(),
                })
                .collect(),
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct RewardOut {
    #[schema(format = Uuid)]
    pub reward_id: String,
    /// The inviter, who is paid.
    #[schema(format = Uuid)]
    pub user_id: String,
    /// The invited user whose step earned it.
    #[schema(format = Uuid)]
    pub invitee_id: String,
    /// registered (the invited user signed up) or first_purchase (their first trade).
    pub reason: String,
    pub amount: f64,
    pub created_at: String,
}

impl From<pb::Reward> for RewardOut {
    fn from(r: pb::Reward) -> Self {
        Self {
            reward_id: r.reward_id,
            user_id: r.user_id,
            invitee_id: r.invitee_id,
            reason: r.reason,
            amount: to_decimal(r.amount_cents),
            created_at: r.created_at,
        }
    }
}

/// A page of the caller's invite rewards and the sum of all of them.
#[derive(Debug, Serialize, ToSchema)]
pub struct RewardPageOut {
    pub total: u64,
    pub page: u32,
    pub page_size: u32,
    /// The sum of every reward, not only this page's.
    pub total_amount: f64,
    pub result: Vec<RewardOut>,
}

impl From<pb::RewardPage> for RewardPageOut {
    fn from(p: pb::RewardPage) -> Self {
        Self {
            total: p.total,
            page: p.page,
            page_size: p.page_size,
            total_amount: to_decimal(p.total_cents),
            result: all(p.rewards),
        }
    }
}

#[derive(Debug, Default, Deserialize, ToSchema, utoipa::IntoParams)]
pub struct TopUpQuery {
    /// The user to credit.
    #[param(format = Uuid, required = true)]
    pub uid: Option<String>,
    /// A decimal amount (4.99), more than 0.
    #[param(value_type = f64, exclusive_minimum = 0, maximum = 1000000)]
    #[schema(value_type = f64, exclusive_minimum = 0, maximum = 1000000)]
    pub amount: Option<String>,
    /// Why (at most 200 characters).
    #[param(max_length = 200)]
    pub note: Option<String>,
    /// Accepted and ignored: only an admin token lets this call through.
    pub password: Option<String>,
}

/// Whose records; `page` and `page_size` come beside it.
#[derive(Debug, Default, Deserialize, ToSchema, utoipa::IntoParams)]
pub struct RecordsQuery {
    /// Whose records: the caller's when absent (an admin's absent uid: everyone's).
    /// Another user's for admins only.
    #[param(format = Uuid)]
    pub uid: Option<String>,
    /// Accepted and ignored: the token decides.
    pub password: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_trade_is_bought_by_its_buyer_and_sold_by_its_seller() {
        let (buyer, seller, admin) = (Uuid::new_v4(), Uuid::new_v4(), Uuid::new_v4());
        let page = pb::TradePage {
            total: 1,
            page: 1,
            page_size: 10,
            trades: vec![pb::Trade {
                buyer_uid: buyer.to_string(),
                seller_uid: seller.to_string(),
                price_cents: 500,
                seller_cents: 450,
                platform_cents: 50,
                ..pb::Trade::default()
            }],
        };
        let role = |who| {
            TradePageOut::seen_by(page.clone(), who).result[0]
                .role
                .clone()
        };
        assert_eq!(role(buyer).as_deref(), Some("bought"));
        assert_eq!(role(seller).as_deref(), Some("sold"));
        assert_eq!(role(admin), None);
        let json = serde_json::to_value(TradePageOut::seen_by(page.clone(), buyer)).unwrap();
        let record = &json["result"][0];
        assert_eq!(record["price"], 5.0);
        assert_eq!(record["seller_amount"], 4.5);
        assert_eq!(record["platform_amount"], 0.5);
        assert_eq!(record["role"], "bought");
    }
}
