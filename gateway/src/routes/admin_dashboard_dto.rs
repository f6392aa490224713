//! The JSON shapes of the admin's dashboard: each part as its owner counts it, money as
//! decimals like every amount of the REST surface.

use quire_proto::auth::v1 as auth_pb;
use quire_proto::catalog::v1 as catalog_pb;
use quire_proto::chat::v1 as chat_pb;
use quire_proto::ops::v1 as ops_pb;
use quire_proto::wallet::v1 as wallet_pb;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::money::to_decimal;

#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
pub struct DashboardQuery {
    /// The range: this many days back to today, 1 to 366 (default 365).
    #[param(value_type = Option<u32>, minimum = 1, maximum = 366)]
    pub days: Option<String>,
}

/// One UTC day of a series.
#[derive(Debug, Serialize, ToSchema)]
pub struct DayCountOut {
    /// YYYY-MM-DD
    #[schema(format = Date)]
    pub day: String,
    pub count: i64,
}

impl From<ops_pb::DailyPoint> for DayCountOut {
    fn from(p: ops_pb::DailyPoint) -> Self {
        Self {
            day: p.day,
            count: p.count,
        }
    }
}

/// One UTC day of a series of payments: how many, and their sum.
#[derive(Debug, Serialize, ToSchema)]
pub struct DayAmountOut {
    /// YYYY-MM-DD
    #[schema(format = Date)]
    pub day: String,
    pub count: i64,
    pub amount: f64,
}

impl From<ops_pb::DailyPoint> for DayAmountOut {
    fn from(p: ops_pb::DailyPoint) -> Self {
        Self {
            day: p.day,
            count: p.count,
            amount: to_decimal(p.amount),
        }
    }
}

/// How many accounts hold each role.
#[derive(Debug, Default, Serialize, ToSchema)]
pub struct RoleCountsOut {
    pub reader: u64,
    pub writer: u64,
    pub publisher: u64,
    pub admin: u64,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct UserStatsOut {
    pub total: u64,
    pub disabled: u64,
    pub by_role: RoleCountsOut,
    /// Accounts created per day, oldest first.
    pub signups: Vec<DayCountOut>,
}

impl From<auth_pb::UserStats> for UserStatsOut {
    fn from(s: auth_pb::UserStats) -> Self {
        let mut by_role = RoleCountsOut::default();
        for r in s.by_role {
            let slot = match r.role.as_str() {
                "reader" => &mut by_role.reader,
                "writer" => &mut by_role.writer,
                "publisher" => &mut by_role.publisher,
                "admin" => &mut by_role.admin,
                _ => continue,
            };
            *slot = r.count;
        }
        Self {
            total: s.total,
            disabled: s.disabled,
            by_role,
            signups: s.signups.into_iter().map(Into::into).collect(),
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct BookStatsOut {
    pub total: u64,
    /// In the shop now.
    pub listed: u64,
    pub taken_down: u64,
    /// Books created per day, oldest first.
    pub created: Vec<DayCountOut>,
}

impl From<catalog_pb::BookStats> for BookStatsOut {
    fn from(s: catalog_pb::BookStats) -> Self {
        Self {
            total: s.total,
            listed: s.listed,
            taken_down: s.taken_down,
            created: s.created.into_iter().map(Into::into).collect(),
        }
    }
}

/// Campaigns now, whatever their age.
#[derive(Debug, Serialize, ToSchema)]
pub struct CampaignCountsOut {
    pub open: u64,
    pub funded: u64,
    pub failed: u64,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct SalesStatsOut {
    /// Trades over the range (book sales, campaign trades included).
    pub trades: u64,
    /// What buyers paid over the range.
    pub revenue: f64,
    /// The platform's part of it.
    pub platform_revenue: f64,
    pub trades_per_day: Vec<DayAmountOut>,
    pub top_ups_per_day: Vec<DayAmountOut>,
    pub campaigns: CampaignCountsOut,
    /// Held in escrow by open campaigns now.
    pub escrow: f64,
}

impl From<wallet_pb::SalesStats> for SalesStatsOut {
    fn from(s: wallet_pb::SalesStats) -> Self {
        Self {
            trades: s.trades,
            revenue: to_decimal(s.revenue),
            platform_revenue: to_decimal(s.platform_revenue),
            trades_per_day: s.trades_per_day.into_iter().map(Into::into).collect(),
            top_ups_per_day: s.top_ups_per_day.into_iter().map(Into::into).collect(),
            campaigns: CampaignCountsOut {
                open: s.campaigns_open,
                funded: s.campaigns_funded,
                failed: s.campaigns_failed,
            },
            escrow: to_decimal(s.escrow),
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ChatStatsOut {
    pub conversations: u64,
    /// Turns (reader messages) per day, oldest first.
    pub turns_per_day: Vec<DayCountOut>,
}

impl From<chat_pb::ChatStats> for ChatStatsOut {
    fn from(s: chat_pb::ChatStats) -> Self {
        Self {
            conversations: s.conversations,
            turns_per_day: s.turns_per_day.into_iter().map(Into::into).collect(),
        }
    }
}

/// One consumer group of a service on one topic.
#[derive(Debug, Serialize, ToSchema)]
pub struct ConsumerLagOut {
    pub group: String,
    pub topic: String,
    /// Records published and not yet committed by the group; -1 when the broker could not
    /// be asked.
    pub lag: i64,
}

/// A service's outbox and consumers now.
#[derive(Debug, Serialize, ToSchema)]
pub struct ServiceStatusOut {
    /// auth, catalog, wallet, manuscript or chat.
    pub service: String,
    /// Events written and not yet published.
    pub outbox_pending: u64,
    /// Age of the oldest of them in seconds; 0 when none waits.
    pub outbox_oldest_secs: f64,
    pub consumers: Vec<ConsumerLagOut>,
}

impl ServiceStatusOut {
    pub fn new(service: &str, s: ops_pb::OpsStatus) -> Self {
        Self {
            service: service.to_owned(),
            outbox_pending: s.outbox_pending,
            outbox_oldest_secs: s.outbox_oldest_secs,
            consumers: s
                .consumers
                .into_iter()
                .map(|c| ConsumerLagOut {
                    group: c.group,
                    topic: c.topic,
                    lag: c.lag,
                })
                .collect(),
        }
    }
}

/// The platform over the last `days` days. A part whose service could not answer is
/// null and named in `unavailable`.
#[derive(Debug, Serialize, ToSchema)]
pub struct DashboardOut {
    pub days: u32,
    #[schema(required = true)]
    pub users: Option<UserStatsOut>,
    #[schema(required = true)]
    pub books: Option<BookStatsOut>,
    #[schema(required = true)]
    pub sales: Option<SalesStatsOut>,
    #[schema(required = true)]
    pub chat: Option<ChatStatsOut>,
    /// The services that answered, in a fixed order (auth, catalog, wallet, manuscript,
    /// chat).
    pub services: Vec<ServiceStatusOut>,
    /// The parts that could not be had: `users`, `books`, `sales`, `chat`, and
    /// `services.<name>` for a service missing from `services`.
    pub unavailable: Vec<String>,
}
