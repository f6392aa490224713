//! The wallet's settings an admin changes while it runs: today the writer's share k of a
//! sale and of a funded campaign (`seller_share_percent`), the configured default until
//! an admin sets one. Trades and settlements read it in their own transactions (see
//! [`SellerShare`]), so a change applies to the next one without a restart; a change is
//! written with its audit entry, in one transaction (`quire_kit::settings`).

use diesel::OptionalExtension;
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use futures::FutureExt;
use futures::future::BoxFuture;
use quire_kit::caller::Caller;
use quire_kit::settings::{self as kit_settings, Change};
use quire_proto::wallet::v1 as pb;

use crate::db::schema::settings;
use crate::error::{CommonErrors, Result, WalletError};
use crate::{AppState, SERVICE};

pub const SELLER_SHARE_PERCENT: &str = "seller_share_percent";

/// How the seller's share is read: the stored setting, else `default` (the configuration's
/// `seller_share_percent`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SellerShare {
    pub default: u8,
}

impl SellerShare {
    pub fn new(default: u8) -> Self {
        Self { default }
    }

    /// The share in percent now, read in the caller's transaction.
    pub async fn read(self, conn: &mut AsyncPgConnection) -> Result<u8> {
        self.statement(conn).await
    }

    /// [`Self::read`], not yet awaited (see `quire_kit::db`, *Pipelining*).
    pub fn statement(self, conn: &mut AsyncPgConnection) -> BoxFuture<'static, Result<u8>> {
        settings::table
            .find(SELLER_SHARE_PERCENT)
            .select(settings::value)
            .first::<String>(conn)
            .map(move |found| share_of(found.optional()?, self.default))
            .boxed()
    }
}

/// The share a stored value says, `default` when none is stored. A stored value outside
/// 0-100 (the table's CHECK refuses one) fails rather than move money wrongly.
fn share_of(stored: Option<String>, default: u8) -> Result<u8> {
    match stored {
        None => Ok(default.min(100)),
        Some(value) => value
            .parse::<u8>()
            .ok()
            .filter(|p| *p <= 100)
            .ok_or_else(|| {
                WalletError::internal(format!(
                    "stored {SELLER_SHARE_PERCENT} {value:?} is not 0-100"
                ))
            }),
    }
}

/// The settings as anyone may read them.
pub async fn get(state: &AppState) -> Result<pb::WalletSettings> {
    let mut conn = state.conn().await?;
    let share = SellerShare::new(state.config.seller_share_percent)
        .read(&mut conn)
        .await?;
    Ok(pb::WalletSettings {
        seller_share_percent: u32::from(share),
    })
}

/// An admin changes the settings: checked first (nothing changes on a bad value), then
/// the new value and its audit entry in one transaction. Setting the value in effect
/// already changes nothing and records nothing.
pub async fn update(
    state: &AppState,
    caller: &Caller,
    req: &pb::UpdateWalletSettingsRequest,
) -> Result<pb::WalletSettings> {
    caller.require_admin()?;
    let share = u8::try_from(req.seller_share_percent)
        .ok()
        .filter(|p| *p <= 100)
        .ok_or_else(|| {
            WalletError::invalid(
                SELLER_SHARE_PERCENT,
                "seller_share_percent must be between 0 and 100",
            )
        })?;
    let default = state.config.seller_share_percent;
    let change = Change {
        key: SELLER_SHARE_PERCENT,
        stored: Some(share.to_string()),
    };
    let mut conn = state.conn().await?;
    kit_settings::change::<WalletError, _>(
        &mut conn,
        SERVICE,
        caller.user_id(),
        &[change],
        |_, stored| Ok(share_of(stored.map(str::to_owned), default)?.into()),
    )
    .await?;
    Ok(pb::WalletSettings {
        seller_share_percent: u32::from(share),
    })
}

#[cfg(test)]
mod tests {
    use super::share_of;

    #[test]
    fn the_default_applies_until_a_share_is_stored() {
        assert_eq!(share_of(None, 90).unwrap(), 90);
        assert_eq!(share_of(Some("75".into()), 90).unwrap(), 75);
        assert_eq!(share_of(Some("0".into()), 90).unwrap(), 0);
        assert_eq!(share_of(Some("100".into()), 90).unwrap(), 100);
        assert!(share_of(Some("101".into()), 90).is_err());
        assert!(share_of(Some("x".into()), 90).is_err());
    }
}
