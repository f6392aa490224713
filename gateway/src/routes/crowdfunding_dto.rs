//! The JSON shapes of the crowd-funding routes: a campaign, a list of them, a pledge.
//! Amounts go out as decimals with at most two places (`12.5`), as every wallet route's.

use quire_kit::ApiError;
use quire_proto::wallet::v1 as pb;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use utoipa::ToSchema;

use super::books_dto::non_empty;
use super::wallet_dto::WalletOut;
use crate::envelope::Failure;
use crate::money::to_decimal;

/// Where a campaign stands: collecting pledges, or settled (funded: paid to the writer and
/// the book given to every backer; failed: every pledge returned).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum CampaignStatus {
    Open,
    Funded,
    Failed,
}

impl CampaignStatus {
    /// The wallet's word. A word this gateway does not know is a failure, not a guess: a
    /// campaign shown open when its money has moved would mislead every backer.
    fn parse(word: &str) -> Result<Self, Failure> {
        match word {
            "open" => Ok(Self::Open),
            "funded" => Ok(Self::Funded),
            "failed" => Ok(Self::Failed),
            other => {
                Err(ApiError::internal(&format!("wallet sent campaign status {other:?}")).into())
            }
        }
    }
}

/// A crowd-funding campaign for one book.
#[derive(Debug, Serialize, ToSchema)]
pub struct CampaignOut {
    #[schema(format = Uuid)]
    pub campaign_id: String,
    #[schema(format = Uuid)]
    pub book_id: String,
    /// The book's writer, who gets the money when the campaign is funded.
    #[schema(format = Uuid)]
    pub writer_uid: String,
    /// The book's title.
    pub title: String,
    /// What the campaign must collect to be funded.
    pub goal: f64,
    /// The sum of every pledge so far.
    pub pledged: f64,
    /// How many distinct users pledged.
    pub backers: u32,
    pub status: CampaignStatus,
    /// RFC 3339: when an open campaign settles by itself.
    pub deadline: String,
    pub created_at: String,
    /// RFC 3339; null while open.
    pub settled_at: Option<String>,
    /// When funded: what the writer got (their share of each pledge, rounded down) and
    /// the platform the rest; 0 otherwise.
    pub writer_earned: f64,
    pub platform_earned: f64,
    /// What the caller pledged to it; 0 without a token.
    pub my_pledged: f64,
    /// pledged / goal: 1 is the goal met; may exceed 1.
    #[schema(minimum = 0)]
    pub progress: f64,
}

impl TryFrom<pb::Campaign> for CampaignOut {
    type Error = Failure;

    fn try_from(c: pb::Campaign) -> Result<Self, Failure> {
        let progress = if c.goal_cents > 0 {
            c.pledged_cents as f64 / c.goal_cents as f64
        } else {
            0.0
        };
        Ok(Self {
            status: CampaignStatus::parse(&c.status)?,
            campaign_id: c.campaign_id,
            book_id: c.book_id,
            writer_uid: c.writer_uid,
            title: c.title,
            goal: to_decimal(c.goal_cents),
            pledged: to_decimal(c.pledged_cents),
            backers: c.backers,
            deadline: c.deadline,
            created_at: c.created_at,
            settled_at: non_empty(c.settled_at),
            writer_earned: to_decimal(c.writer_cents),
            platform_earned: to_decimal(c.platform_cents),
            my_pledged: to_decimal(c.my_pledged_cents),
            progress,
        })
    }
}

/// A book's campaigns, newest first.
#[derive(Debug, Serialize, ToSchema)]
pub struct CampaignListOut {
    pub campaigns: Vec<CampaignOut>,
}

impl TryFrom<pb::CampaignList> for CampaignListOut {
    type Error = Failure;

    fn try_from(l: pb::CampaignList) -> Result<Self, Failure> {
        Ok(Self {
            campaigns: l
                .campaigns
                .into_iter()
                .map(CampaignOut::try_from)
                .collect::<Result<_, _>>()?,
        })
    }
}

/// A pledge made: the money left the backer's wallet for the campaign's escrow.
#[derive(Debug, Serialize, ToSchema)]
pub struct PledgeOut {
    #[schema(format = Uuid)]
    pub pledge_id: String,
    pub amount: f64,
    pub created_at: String,
    /// The campaign after the pledge.
    pub campaign: CampaignOut,
    /// The backer's wallet after the pledge.
    pub wallet: WalletOut,
}

/// `POST /api/crowdfunding`
#[derive(Debug, Deserialize, ToSchema)]
pub struct CreateCampaignBody {
    /// The caller's book.
    #[schema(format = Uuid)]
    pub book_id: Option<String>,
    /// What the campaign must collect: a decimal amount (50, 12.5), number or string, more
    /// than 0.
    #[schema(value_type = f64, exclusive_minimum = 0, maximum = 1000000)]
    pub goal: Option<Box<RawValue>>,
    /// How many days the campaign stays open, 1 to 90.
    #[schema(minimum = 1, maximum = 90)]
    pub days: Option<u32>,
}

/// `POST /api/crowdfunding/{campaign_id}/pledge`
#[derive(Debug, Deserialize, ToSchema)]
pub struct PledgeBody {
    /// A decimal amount (4.99), number or string, more than 0.
    #[schema(value_type = f64, exclusive_minimum = 0, maximum = 1000000)]
    pub amount: Option<Box<RawValue>>,
}

#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
pub struct CampaignsQuery {
    /// The book whose campaigns to list.
    #[param(format = Uuid, required = true)]
    pub book_id: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_campaign_shows_decimals_progress_and_null_until_settled() {
        let out = CampaignOut::try_from(pb::Campaign {
            goal_cents: 5000,
            pledged_cents: 6250,
            status: "open".into(),
            my_pledged_cents: 500,
            ..Default::default()
        })
        .unwrap();
        let json = serde_json::to_value(&out).unwrap();
        assert_eq!(json["goal"], 50.0);
        assert_eq!(json["pledged"], 62.5);
        assert_eq!(json["progress"], 1.25);
        assert_eq!(json["my_pledged"], 5.0);
        assert_eq!(json["status"], "open");
        assert!(json["settled_at"].is_null(), "{json}");
    }

    #[test]
    fn an_unknown_status_is_refused_not_guessed() {
        let c = pb::Campaign {
            status: "paused".into(),
            ..Default::default()
        };
        assert!(CampaignOut::try_from(c).is_err());
    }
}
