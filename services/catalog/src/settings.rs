//! Platform settings of the catalog; today the trial size, which admins change (each
//! change with its audit entry, in one transaction: `quire_kit::settings`) and every read
//! of a book reads anew.

use diesel_async::AsyncPgConnection;
use quire_kit::caller::Caller;
use quire_kit::settings::{self as kit_settings, Change};
use quire_proto::catalog::v1 as pb;

use crate::error::{CatalogError, CommonErrors, Result};
use crate::{SERVICE, input};

pub const TRIAL_PERCENT: &str = "trial_percent";

/// The trial size in percent (1..=100); `default` until an admin set one.
pub async fn trial_percent(conn: &mut AsyncPgConnection, default: u8) -> Result<u8> {
    let stored = kit_settings::stored(conn, TRIAL_PERCENT).await?;
    Ok(valid_percent(stored, default))
}

/// The size a stored value says; `default` when none (or none valid) is stored.
fn valid_percent(stored: Option<String>, default: u8) -> u8 {
    stored
        .and_then(|v| v.parse::<u8>().ok())
        .filter(|p| (1..=100).contains(p))
        .unwrap_or(default.clamp(1, 100))
}

pub async fn get(conn: &mut AsyncPgConnection, default: u8) -> Result<pb::Settings> {
    Ok(pb::Settings {
        trial_percent: u32::from(trial_percent(conn, default).await?),
    })
}

/// An admin changes the trial size: checked first (nothing changes on a bad value), then
/// the new value and its audit entry in one transaction. Setting the size in effect
/// already changes nothing and records nothing.
pub async fn update(
    conn: &mut AsyncPgConnection,
    caller: Option<&Caller>,
    req: &pb::UpdateSettingsRequest,
    default: u8,
) -> Result<pb::Settings> {
    let caller = input::required(caller)?;
    caller.require_admin()?;
    let percent = u8::try_from(req.trial_percent)
        .ok()
        .filter(|p| (1..=100).contains(p))
        .ok_or_else(|| {
            CatalogError::invalid(TRIAL_PERCENT, "trial_percent must be between 1 and 100")
        })?;
    let change = Change {
        key: TRIAL_PERCENT,
        stored: Some(percent.to_string()),
    };
    kit_settings::change::<CatalogError, _>(
        conn,
        SERVICE,
        caller.user_id(),
        &[change],
        |_, stored| Ok(valid_percent(stored.map(str::to_owned), default).into()),
    )
    .await?;
    Ok(pb::Settings {
        trial_percent: u32::from(percent),
    })
}
