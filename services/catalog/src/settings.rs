//! Platform settings of the catalog; today the trial size, which admins change.

use chrono::Utc;
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use quire_kit::caller::Caller;
use quire_proto::catalog::v1 as pb;

use crate::db::schema::settings;
use crate::db::setting::SettingRow;
use crate::error::{CatalogError, CommonErrors, Result};
use crate::input;

pub const TRIAL_PERCENT: &str = "trial_percent";

/// The trial size in percent (1..=100); `default` until an admin set one.
pub async fn trial_percent(conn: &mut AsyncPgConnection, default: u8) -> Result<u8> {
    let stored: Option<String> = settings::table
        .find(TRIAL_PERCENT)
        .select(settings::value)
        .first(conn)
        .await
        .optional()?;
    Ok(stored
        .and_then(|v| v.parse::<u8>().ok())
        .filter(|p| (1..=100).contains(p))
        .unwrap_or(default.clamp(1, 100)))
}

pub async fn get(conn: &mut AsyncPgConnection, default: u8) -> Result<pb::Settings> {
    Ok(pb::Settings {
        trial_percent: u32::from(trial_percent(conn, default).await?),
    })
}

pub async fn update(
    conn: &mut AsyncPgConnection,
    caller: Option<&Caller>,
    req: &pb::UpdateSettingsRequest,
) -> Result<pb::Settings> {
    input::required(caller)?.require_admin()?;
    if !(1..=100).contains(&req.trial_percent) {
        return Err(CatalogError::invalid(
            "trial_percent",
            "trial_percent must be between 1 and 100",
        ));
    }
    let row = SettingRow {
        key: TRIAL_PERCENT.into(),
        value: req.trial_percent.to_string(),
        updated_at: Utc::now(),
    };
    diesel::insert_into(settings::table)
        .values(&row)
        .on_conflict(settings::key)
        .do_update()
        .set(&row)
        .execute(conn)
        .await?;
    tracing::info!(trial_percent = req.trial_percent, "trial size changed");
    Ok(pb::Settings {
        trial_percent: req.trial_percent,
    })
}
