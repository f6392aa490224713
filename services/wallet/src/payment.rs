//! The payment provider recharges go through. The wallet writes a pending top-up before it
//! asks the provider, and asks with the top-up's id, so a provider must treat a repeated
//! request for the same id as the same payment (every real one offers an idempotency key
//! for this). The built-in `instant` provider settles at once; a real one plugs in behind
//! [`PaymentProvider`] and may answer pending, to be asked again later.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use uuid::Uuid;

/// What the wallet asks a provider to collect.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Payment {
    /// The pending top-up; the provider's idempotency key.
    pub top_up_id: Uuid,
    pub user_id: Uuid,
    pub amount_cents: i64,
    pub currency: String,
}

/// The provider's answer about one payment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PaymentOutcome {
    /// The money is collected; `reference` is the provider's id of the payment.
    Settled { reference: String },
    /// Not decided yet (the user has to confirm, a bank is slow): ask again later.
    Pending { reference: String },
    /// Refused; no money moves.
    Failed { reference: String, reason: String },
}

/// The provider could not be asked (unreachable, timed out): the top-up stays pending.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct PaymentError(pub String);

pub type PaymentFuture<'a> =
    Pin<Box<dyn Future<Output = Result<PaymentOutcome, PaymentError>> + Send + 'a>>;

pub trait PaymentProvider: Send + Sync + 'static {
    /// The name stored with each top-up, so pending ones are asked of the right provider.
    fn name(&self) -> &'static str;
    /// Collects `payment`, or tells how collecting it went if asked before.
    fn charge<'a>(&'a self, payment: &'a Payment) -> PaymentFuture<'a>;
}

/// Settles every payment at once (local runs, demos, tests).
pub struct Instant;

impl PaymentProvider for Instant {
    fn name(&self) -> &'static str {
        "instant"
    }

    fn charge<'a>(&'a self, payment: &'a Payment) -> PaymentFuture<'a> {
        Box::pin(async move {
            Ok(PaymentOutcome::Settled {
                reference: format!("instant-{}", payment.top_up_id),
            })
        })
    }
}

/// The provider named in the configuration. `instant` only where the configuration says
/// no real money is taken: a production wallet that shipped it would hand out balances
/// for nothing.
pub fn from_name(name: &str, allow_instant: bool) -> anyhow::Result<Arc<dyn PaymentProvider>> {
    match name {
        "instant" if !allow_instant => anyhow::bail!(
            "the instant payment provider collects no money: name a real provider, or set \
             QUIRE_ALLOW_INSTANT_PAYMENTS=true where no real money is taken (local runs, demos, tests)"
        ),
        "instant" => Ok(Arc::new(Instant)),
        other => anyhow::bail!("unknown payment provider {other:?} (known: instant)"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_free_provider_is_refused_unless_no_real_money_is_taken() {
        let refused = from_name("instant", false).err().unwrap().to_string();
        assert!(
            refused.contains("QUIRE_ALLOW_INSTANT_PAYMENTS"),
            "{refused}"
        );
        assert!(from_name("instant", true).is_ok());
        assert!(from_name("paypal-ish", true).is_err());
    }
}
