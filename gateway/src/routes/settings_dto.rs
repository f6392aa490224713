//! The JSON shapes of the platform settings: the public ones every page reads, the
//! admin's full view, and the admin's partial update with its checks.

use serde::{Deserialize, Deserializer, Serialize};
use utoipa::ToSchema;

use crate::envelope::Failure;
use crate::live_limits::Rates;

/// What every visitor may know of the platform's settings.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct SettingsOut {
    /// How much of an unbought book a reader gets, in percent (1-100).
    pub trial_percent: u32,
    /// Whether new accounts may register.
    pub registration_open: bool,
    /// The name the book assistant introduces itself by.
    pub assistant_name: String,
}

/// Requests per minute, per client address or signed-in user, of each class of route.
#[derive(Debug, Serialize, ToSchema)]
pub struct RateLimitsOut {
    /// Logins, registrations, token refreshes.
    pub login: u32,
    /// Verification mails and codes.
    pub verify: u32,
    /// Any call with a token, per user.
    pub api: u32,
    /// Calls that carry a file.
    pub upload: u32,
    /// Chat turns and recommendations, per user.
    pub chat: u32,
    /// Any call without a token, per address.
    pub anonymous: u32,
}

impl From<Rates> for RateLimitsOut {
    fn from([login, verify, api, upload, chat, anonymous]: Rates) -> Self {
        Self {
            login,
            verify,
            api,
            upload,
            chat,
            anonymous,
        }
    }
}

/// Every platform setting, as the admin sees them.
#[derive(Debug, Serialize, ToSchema)]
pub struct AdminSettingsOut {
    /// 1-100.
    pub trial_percent: u32,
    /// The writer's share of a sale and of a funded campaign, in percent (0-100).
    pub seller_share_percent: u32,
    pub assistant_name: String,
    pub registration_open: bool,
    /// The limits in force: the admin's override, or the default.
    pub rate_limits: RateLimitsOut,
    /// The gateway's own defaults, in force where no override is set.
    pub rate_limit_defaults: RateLimitsOut,
}

/// The largest rate an admin may set, per minute.
pub const MAX_RATE: u32 = 100_000;

/// A field that may be left out (`None`) or given as `null` (`Some(None)`).
fn present<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Option<u32>>, D::Error> {
    Option::<u32>::deserialize(d).map(Some)
}

/// New rates: a field left out keeps its value, `null` goes back to the default.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RateLimitsBody {
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<u32>, nullable, minimum = 1, maximum = 100000)]
    pub login: Option<Option<u32>>,
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<u32>, nullable, minimum = 1, maximum = 100000)]
    pub verify: Option<Option<u32>>,
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<u32>, nullable, minimum = 1, maximum = 100000)]
    pub api: Option<Option<u32>>,
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<u32>, nullable, minimum = 1, maximum = 100000)]
    pub upload: Option<Option<u32>>,
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<u32>, nullable, minimum = 1, maximum = 100000)]
    pub chat: Option<Option<u32>>,
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<u32>, nullable, minimum = 1, maximum = 100000)]
    pub anonymous: Option<Option<u32>>,
}

/// The settings to change; a field left out keeps its value.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SettingsBody {
    /// 1-100
    #[schema(minimum = 1, maximum = 100)]
    pub trial_percent: Option<u32>,
    /// 0-100
    #[schema(minimum = 0, maximum = 100)]
    pub seller_share_percent: Option<u32>,
    /// 1-40 characters: letters, digits, spaces, `-`, `.` and apostrophes, a letter
    /// first; surrounding spaces are dropped.
    #[schema(min_length = 1, max_length = 40)]
    pub assistant_name: Option<String>,
    pub registration_open: Option<bool>,
    pub rate_limits: Option<RateLimitsBody>,
}

/// A [`SettingsBody`] whose every field has been checked.
#[derive(Debug, Default, PartialEq)]
pub struct SettingsChange {
    pub trial_percent: Option<u32>,
    pub seller_share_percent: Option<u32>,
    pub assistant_name: Option<String>,
    pub registration_open: Option<bool>,
    /// Per class, in the order of `Class::ALL`: `Some(0)` is back to the default (as auth
    /// takes it), `None` unchanged.
    pub rates: [Option<u32>; 6],
}

impl SettingsChange {
    /// Whether the change changes anything.
    pub fn is_empty(&self) -> bool {
        *self == Self::default()
    }

    /// Whether any access setting (auth's) changes.
    pub fn touches_access(&self) -> bool {
        self.registration_open.is_some() || self.rates.iter().any(Option::is_some)
    }
}

fn percent(field: &str, value: u32, min: u32) -> Result<u32, Failure> {
    if (min..=100).contains(&value) {
        Ok(value)
    } else {
        Err(Failure::bad_request(
            "invalid_number",
            format!("{field}: must be a whole number from {min} to 100"),
        ))
    }
}

/// The assistant's name without its surrounding spaces, if it follows the rule.
pub fn assistant_name(value: &str) -> Result<String, Failure> {
    let name = value.trim();
    let refuse = |why: &str| {
        Err(Failure::bad_request(
            "invalid_name",
            format!("assistant_name: {why}"),
        ))
    };
    let count = name.chars().count();
    if count == 0 {
        return refuse("required");
    }
    if count > 40 {
        return refuse("at most 40 characters");
    }
    if !name.chars().next().is_some_and(char::is_alphabetic) {
        return refuse("must start with a letter");
    }
    let allowed = |c: char| c.is_alphanumeric() || matches!(c, ' ' | '-' | '.' | '\'' | '’');
    if !name.chars().all(allowed) {
        return refuse("only letters, digits, spaces, '-', '.' and apostrophes");
    }
    Ok(name.to_owned())
}

impl SettingsBody {
    /// Checks every field given, before anything is sent anywhere. A body that changes
    /// nothing is refused too: it is most likely a misspelt or misplaced field.
    pub fn check(self) -> Result<SettingsChange, Failure> {
        let rates = self.rate_limits.unwrap_or_default();
        let given = [
            ("login", rates.login),
            ("verify", rates.verify),
            ("api", rates.api),
            ("upload", rates.upload),
            ("chat", rates.chat),
            ("anonymous", rates.anonymous),
        ];
        let mut checked = [None; 6];
        for (slot, (name, rate)) in checked.iter_mut().zip(given) {
            *slot = match rate {
                None => None,
                Some(None) => Some(0),
                Some(Some(n)) if (1..=MAX_RATE).contains(&n) => Some(n),
                Some(Some(_)) => {
                    return Err(Failure::bad_request(
                        "invalid_number",
                        format!(
                            "rate_limits.{name}: must be a whole number from 1 to {MAX_RATE}, or null for the default"
                        ),
                    ));
                }
            };
        }
        let change = SettingsChange {
            trial_percent: self
                .trial_percent
                .map(|v| percent("trial_percent", v, 1))
                .transpose()?,
            seller_share_percent: self
                .seller_share_percent
                .map(|v| percent("seller_share_percent", v, 0))
                .transpose()?,
            assistant_name: self
                .assistant_name
                .as_deref()
                .map(assistant_name)
                .transpose()?,
            registration_open: self.registration_open,
            rates: checked,
        };
        if change.is_empty() {
            return Err(Failure::bad_request(
                "missing_field",
                "The request changes nothing: give trial_percent, seller_share_percent, assistant_name, registration_open or rate_limits",
            ));
        }
        Ok(change)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn body(json: &str) -> SettingsBody {
        serde_json::from_str(json).unwrap()
    }

    fn refusal(json: &str) -> String {
        body(json).check().unwrap_err().0.message
    }

    #[test]
    fn left_out_keeps_null_resets_and_a_number_sets() {
        let change = body(r#"{"rate_limits":{"api":null,"chat":5}}"#)
            .check()
            .unwrap();
        assert_eq!(change.rates, [None, None, Some(0), None, Some(5), None]);
        assert!(change.touches_access());
        let change = body(r#"{"trial_percent":20}"#).check().unwrap();
        assert_eq!(change.trial_percent, Some(20));
        assert!(!change.touches_access());
    }

    #[test]
    fn a_change_of_nothing_is_refused() {
        for nothing in ["{}", r#"{"rate_limits":{}}"#] {
            assert!(refusal(nothing).contains("trial_percent"), "{nothing}");
        }
    }

    #[test]
    fn every_field_out_of_range_is_refused_by_name() {
        assert!(refusal(r#"{"trial_percent":0}"#).starts_with("trial_percent:"));
        assert!(refusal(r#"{"trial_percent":101}"#).starts_with("trial_percent:"));
        assert!(refusal(r#"{"seller_share_percent":101}"#).starts_with("seller_share_percent:"));
        assert!(refusal(r#"{"rate_limits":{"login":0}}"#).starts_with("rate_limits.login:"));
        assert!(
            refusal(r#"{"rate_limits":{"anonymous":100001}}"#)
                .starts_with("rate_limits.anonymous:")
        );
        assert_eq!(
            body(r#"{"seller_share_percent":0}"#)
                .check()
                .unwrap()
                .seller_share_percent,
            Some(0)
        );
    }

    #[test]
    fn unknown_fields_are_not_ignored() {
        assert!(serde_json::from_str::<SettingsBody>(r#"{"trail_percent":5}"#).is_err());
        assert!(serde_json::from_str::<SettingsBody>(r#"{"rate_limits":{"apis":5}}"#).is_err());
    }

    #[test]
    fn assistant_names_follow_the_rule() {
        assert_eq!(assistant_name("  Ms. O'Hara-2 ").unwrap(), "Ms. O'Hara-2");
        assert_eq!(assistant_name("Zoë").unwrap(), "Zoë");
        for bad in ["", "   ", "2Quinn", "-Q", "Quinn!", "Q<b>", &"Q".repeat(41)] {
            let e = assistant_name(bad).unwrap_err().0.message;
            assert!(e.starts_with("assistant_name:"), "{bad:?}: {e}");
        }
        assert!(assistant_name(&"Q".repeat(40)).is_ok());
    }
}
