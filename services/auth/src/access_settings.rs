//! Whether anyone may register, and the rate limits the gateway enforces, as admins set
//! them while Quire runs. A setting no admin has set (or one cleared) keeps its default:
//! registration open, the gateway's own limit. Each is read when it is needed (every
//! registration; the gateway asks for the rates every second or so), so a change applies
//! without a restart.
//!
//! A value is stored as JSON text, the same value the audit log shows before and after;
//! changes are written with their audit entries by `quire_kit::settings`.

use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use quire_kit::caller::Caller;
use quire_kit::settings::{self as kit_settings, Change};
use quire_proto::auth::v1 as pb;
use serde_json::{Value, json};

use crate::db::schema::settings;
use crate::db::setting::SettingRow;
use crate::error::{AuthError, CommonErrors, Result};
use crate::{AppState, SERVICE};

pub const REGISTRATION_OPEN: &str = "registration_open";

/// The rate limits, by the name of their field, in the order of the message.
pub const RATES: [&str; 6] = [
    "rate_login_per_min",
    "rate_verify_per_min",
    "rate_api_per_min",
    "rate_upload_per_min",
    "rate_chat_per_min",
    "rate_anonymous_per_min",
];

/// The highest rate an admin may set, in requests a minute.
pub const MAX_RATE: u32 = 100_000;

/// The settings as they are now, defaults included.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Access {
    registration_open: bool,
    /// In the order of [`RATES`]; `None` while the gateway's default applies.
    rates: [Option<u32>; 6],
}

impl Access {
    fn from_rows(rows: Vec<SettingRow>) -> Result<Self> {
        let mut access = Self {
            registration_open: true,
            rates: [None; 6],
        };
        for row in rows {
            let value: Value = serde_json::from_str(&row.value)
                .map_err(|e| AuthError::internal(format!("setting {}: {e}", row.key)))?;
            let bad = || AuthError::internal(format!("setting {}: {value} unexpected", row.key));
            if row.key == REGISTRATION_OPEN {
                access.registration_open = value.as_bool().ok_or_else(bad)?;
            } else if let Some(i) = RATES.iter().position(|r| *r == row.key) {
                let rate = value.as_u64().and_then(|n| u32::try_from(n).ok());
                access.rates[i] = Some(rate.ok_or_else(bad)?);
            }
        }
        Ok(access)
    }
}

impl From<Access> for pb::AccessSettings {
    fn from(a: Access) -> Self {
        let [login, verify, api, upload, chat, anonymous] = a.rates;
        pb::AccessSettings {
            registration_open: a.registration_open,
            rate_login_per_min: login,
            rate_verify_per_min: verify,
            rate_api_per_min: api,
            rate_upload_per_min: upload,
            rate_chat_per_min: chat,
            rate_anonymous_per_min: anonymous,
        }
    }
}

async fn load(conn: &mut AsyncPgConnection) -> Result<Access> {
    let rows: Vec<SettingRow> = settings::table
        .select(SettingRow::as_select())
        .load(conn)
        .await?;
    Access::from_rows(rows)
}

/// Whether a new account may be made by anyone but an admin (registration, a first
/// sign-in with a wallet or an identity provider).
pub async fn registration_open(conn: &mut AsyncPgConnection) -> Result<bool> {
    let row: Option<SettingRow> = settings::table
        .find(REGISTRATION_OPEN)
        .select(SettingRow::as_select())
        .first(conn)
        .await
        .optional()?;
    Ok(Access::from_rows(row.into_iter().collect())?.registration_open)
}

/// [`registration_open`], as the error to answer while it is closed.
pub async fn ensure_registration_open(conn: &mut AsyncPgConnection) -> Result<()> {
    if registration_open(conn).await? {
        Ok(())
    } else {
        Err(AuthError::RegistrationClosed)
    }
}

/// Public: the sign-up page and the gateway read it.
pub async fn get(state: &AppState) -> Result<pb::AccessSettings> {
    let mut conn = quire_kit::db::conn(&state.pool).await?;
    Ok(load(&mut conn).await?.into())
}

/// A setting's value in effect, as stored and audited, from its stored text: registration
/// open while unset, `null` for a rate left to the gateway's default.
fn effective(key: &str, stored: Option<&str>) -> Result<Value> {
    let value = match stored {
        None => Value::Null,
        Some(text) => serde_json::from_str(text)
            .map_err(|e| AuthError::internal(format!("setting {key}: {e}")))?,
    };
    Ok(if key == REGISTRATION_OPEN && value.is_null() {
        json!(true)
    } else {
        value
    })
}

/// The changes a request asks for, each checked, before anything is written.
fn requested(req: &pb::UpdateAccessSettingsRequest) -> Result<Vec<(&'static str, Value)>> {
    let mut changes = Vec::new();
    if let Some(open) = req.registration_open {
        changes.push((REGISTRATION_OPEN, json!(open)));
    }
    let rates = [
        req.rate_login_per_min,
        req.rate_verify_per_min,
        req.rate_api_per_min,
        req.rate_upload_per_min,
        req.rate_chat_per_min,
        req.rate_anonymous_per_min,
    ];
    for (field, rate) in RATES.into_iter().zip(rates) {
        match rate {
            None => {}
            Some(0) => changes.push((field, Value::Null)),
            Some(n) if n <= MAX_RATE => changes.push((field, json!(n))),
            Some(_) => {
                return Err(AuthError::invalid(
                    field,
                    format!("{field}: 1 to {MAX_RATE} requests a minute, or 0 for the default"),
                ));
            }
        }
    }
    Ok(changes)
}

/// Admin: applies the fields set, in one transaction with one audit entry per setting
/// that changed; a field set to the value it has changes nothing and is not audited.
pub async fn update(
    state: &AppState,
    caller: &Caller,
    req: pb::UpdateAccessSettingsRequest,
) -> Result<pb::AccessSettings> {
    caller.require_admin()?;
    let changes = requested(&req)?;
    let changes: Vec<Change> = changes
        .into_iter()
        .map(|(key, value)| Change {
            key,
            stored: (!value.is_null()).then(|| value.to_string()),
        })
        .collect();
    let mut conn = quire_kit::db::conn(&state.pool).await?;
    kit_settings::change::<AuthError, _>(&mut conn, SERVICE, caller.user_id(), &changes, effective)
        .await?;
    Ok(load(&mut conn).await?.into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_rate_is_checked_and_zero_clears_it() {
        let req = pb::UpdateAccessSettingsRequest {
            registration_open: Some(false),
            rate_login_per_min: Some(0),
            rate_api_per_min: Some(MAX_RATE),
            ..Default::default()
        };
        assert_eq!(
            requested(&req).unwrap(),
            vec![
                (REGISTRATION_OPEN, json!(false)),
                ("rate_login_per_min", Value::Null),
                ("rate_api_per_min", json!(MAX_RATE)),
            ]
        );
        let too_many = pb::UpdateAccessSettingsRequest {
            rate_chat_per_min: Some(MAX_RATE + 1),
            ..Default::default()
        };
        let e = quire_kit::ApiError::from(requested(&too_many).unwrap_err());
        assert_eq!(e.reason, "invalid_rate_chat_per_min");
    }

    #[test]
    fn unset_settings_keep_their_defaults() {
        let access = Access::from_rows(Vec::new()).unwrap();
        assert!(access.registration_open);
        assert_eq!(access.rates, [None; 6]);
        assert_eq!(effective("rate_upload_per_min", None).unwrap(), Value::Null);
        assert_eq!(effective(REGISTRATION_OPEN, None).unwrap(), json!(true));
        assert_eq!(
            effective(REGISTRATION_OPEN, Some("false")).unwrap(),
            json!(false)
        );
    }
}
