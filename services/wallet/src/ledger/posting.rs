//! What a transfer is made of: the accounts it moves money between, how much each
//! ([`Posting`]) and what it was for ([`TransferKind`]), which decides whether a credit to
//! a user moves the balance now or waits as a pending credit.

use uuid::Uuid;

/// An account of the ledger.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Account {
    /// A user's wallet; its id is the user's id.
    User(Uuid),
    /// Outside money: payments and admins' top-ups come from here.
    World,
    /// The platform's share of book sales.
    Platform,
    /// Where consumed money goes.
    Spent,
    /// What funds invite rewards.
    Promotions,
    /// A crowd-funding campaign's pledges until it is settled; its id is the campaign's.
    /// Like the system accounts it carries no running balance, so pledges never queue on a
    /// row of their own.
    Escrow(Uuid),
}

impl Account {
    /// The account's id; system accounts have fixed ids seeded by the migration.
    pub fn id(self) -> Uuid {
        match self {
            Self::User(id) | Self::Escrow(id) => id,
            Self::World => Uuid::from_u128(1),
            Self::Platform => Uuid::from_u128(2),
            Self::Spent => Uuid::from_u128(3),
            Self::Promotions => Uuid::from_u128(4),
        }
    }
}

/// What a transfer was for; it decides which wallet total a credit counts toward.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TransferKind {
    Recharge,
    TopUp,
    Consume,
    Trade,
    Reward,
    /// A backer's pledge: wallet -> the campaign's escrow.
    Pledge,
    /// A funded campaign's escrow -> its writer and the platform.
    CampaignPayout,
    /// A failed campaign's escrow -> back to every backer.
    CampaignRefund,
}

impl TransferKind {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Recharge => "recharge",
            Self::TopUp => "top_up",
            Self::Consume => "consume",
            Self::Trade => "trade",
            Self::Reward => "reward",
            Self::Pledge => "pledge",
            Self::CampaignPayout => "campaign_payout",
            Self::CampaignRefund => "campaign_refund",
        }
    }

    /// Whether it is money from outside: its credit counts toward the wallet's recharged
    /// total, not its earned one.
    pub(super) fn is_money_in(self) -> bool {
        matches!(self, Self::Recharge | Self::TopUp)
    }

    /// Whether its credits to users wait as pending credits: the ones that can pile up on
    /// one wallet at once (a popular writer's sales, an inviter's rewards, a campaign's
    /// payout) and the ones a transfer makes by the thousand (a failed campaign's refunds,
    /// written by [`Recorded::settle_credits`](super::Recorded::settle_credits) in one statement). Either way the wallet
    /// shows them at once (`wallet_balances`). Money in is credited at once, as its owner
    /// is usually about to spend it.
    pub(super) fn credits_later(self) -> bool {
        matches!(
            self,
            Self::Trade | Self::Reward | Self::CampaignPayout | Self::CampaignRefund
        )
    }
}

/// One side of a transfer: `cents` credited to `account` (negative: debited).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Posting {
    pub account: Account,
    pub cents: i64,
}

impl Posting {
    pub fn new(account: Account, cents: i64) -> Self {
        Self { account, cents }
    }
}
