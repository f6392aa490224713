//! Platform settings of the catalog; today the trial size, which admins change (each
//! change with its audit entry, in one transaction) and every read of a book reads anew.

use chrono::Utc;
use diesel::prelude::*;
use diesel_async::scoped_futures::ScopedFutureExt;
use diesel_async::{AsyncConnection, AsyncPgConnection, RunQueryDsl};
use quire_kit::audit::{self, AuditRecord};
use quire_kit::caller::Caller;
use quire_proto::catalog::v1 as pb;

use crate::db::schema::settings;
use crate::db::setting::SettingRow;
use crate::error::{CatalogError, CommonErrors, Result};
use crate::{SERVICE, input};

pub const TRIAL_PERCENT: &str = "trial_percent";

/// The trial size in percent (1..=100); `default` until an admin set one.
pub async fn trial_percent(conn: &mut AsyncPgConnection, default: u8) -> Result<u8> {
    let stored: Option<String> = settings::table
        .find(TRIAL_PERCENT)
        .select(settings::value)
        .first(conn)
        .await
        .optional()?;
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
    let admin = caller.user_id();
    conn.transaction::<_, CatalogError, _>(|conn| {
        async move {
            let before = lock_trial_percent(conn, default).await?;
            if before == percent {
                return Ok(());
            }
            diesel::update(settings::table.find(TRIAL_PERCENT))
                .set((
                    settings::value.eq(percent.to_string()),
                    settings::updated_at.eq(Utc::now()),
                ))
                .execute(conn)
                .await?;
            audit::record(
                conn,
                SERVICE,
                AuditRecord {
                    actor_id: admin,
                    action: "settings.update",
                    target: format!("setting:{TRIAL_PERCENT}"),
                    before: before.into(),
                    after: percent.into(),
                },
            )
            .await?;
            tracing::info!(before, after = percent, "trial size changed");
            Ok(())
        }
        .scope_boxed()
    })
    .await?;
    Ok(pb::Settings {
        trial_percent: u32::from(percent),
    })
}

/// The trial size in effect, its row locked until the transaction ends so that concurrent
/// changes take turns and each records the value the one before it left. An absent row is
/// written first with the default, which is the size in effect.
async fn lock_trial_percent(conn: &mut AsyncPgConnection, default: u8) -> Result<u8> {
    let row = SettingRow {
        key: TRIAL_PERCENT.into(),
        value: default.clamp(1, 100).to_string(),
        updated_at: Utc::now(),
    };
    diesel::insert_into(settings::table)
        .values(&row)
        .on_conflict(settings::key)
        .do_nothing()
        .execute(conn)
        .await?;
    let stored: String = settings::table
        .find(TRIAL_PERCENT)
        .select(settings::value)
        .for_update()
        .first(conn)
        .await?;
    Ok(valid_percent(Some(stored), default))
}
