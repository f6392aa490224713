//! Checks of request fields. Every failure names the field, so a caller sees a 400 that
//! says what to fix and no money moves.

use quire_kit::caller::Caller;
use uuid::Uuid;

use crate::error::{CommonErrors, Result, WalletError};

/// The largest single amount accepted (1,000,000.00): beyond it is a typo or an attack,
/// and it keeps every sum far from overflowing.
pub const MAX_AMOUNT_CENTS: i64 = 100_000_000;
pub const MAX_TEXT_CHARS: usize = 200;

/// A user or book id.
pub fn uuid(field: &'static str, value: &str) -> Result<Uuid> {
    Uuid::parse_str(value.trim())
        .map_err(|_| WalletError::invalid(field, format!("{field} must be a UUID")))
}

/// The user a request acts for: empty is the caller; anyone else only for an admin.
pub fn acting_for(caller: &Caller, field: &'static str, value: &str) -> Result<Uuid> {
    Ok(caller.acting_for(field, value)?)
}

/// Whose records a list shows: `all` is everyone's (admins only, answered as `None`),
/// else `user_id` as in [`acting_for`].
pub fn whose(caller: &Caller, all: bool, user_id: &str) -> Result<Option<Uuid>> {
    if all {
        caller.require_admin()?;
        Ok(None)
    } else {
        acting_for(caller, "user_id", user_id).map(Some)
    }
}

/// A positive amount of cents, at most [`MAX_AMOUNT_CENTS`].
pub fn amount(cents: i64) -> Result<i64> {
    if (1..=MAX_AMOUNT_CENTS).contains(&cents) {
        Ok(cents)
    } else {
        Err(WalletError::invalid(
            "amount",
            "amount must be between 0.01 and 1000000.00",
        ))
    }
}

/// A short free text (memo, note): trimmed, at most 200 characters, no control characters
/// (Postgres refuses NUL in text).
pub fn text(field: &'static str, value: &str) -> Result<String> {
    let t = value.trim();
    if t.chars().any(char::is_control) {
        return Err(WalletError::invalid(
            field,
            format!("{field} must not contain control characters"),
        ));
    }
    if t.chars().count() > MAX_TEXT_CHARS {
        return Err(WalletError::invalid(
            field,
            format!("{field} must be at most {MAX_TEXT_CHARS} characters"),
        ));
    }
    Ok(t.to_owned())
}

pub use quire_kit::paging::{Page, total};

#[cfg(test)]
mod tests {
    use quire_kit::KitError;

    use super::*;

    fn field(e: WalletError) -> &'static str {
        match e {
            WalletError::Kit(KitError::Invalid(f, _)) => f,
            other => panic!("not a 400: {other}"),
        }
    }

    #[test]
    fn amounts_must_be_positive_and_sane() {
        assert_eq!(amount(1).unwrap(), 1);
        assert_eq!(amount(MAX_AMOUNT_CENTS).unwrap(), MAX_AMOUNT_CENTS);
        for bad in [0, -1, MAX_AMOUNT_CENTS + 1, i64::MIN, i64::MAX] {
            assert_eq!(field(amount(bad).unwrap_err()), "amount");
        }
    }

    #[test]
    fn texts_are_short_and_printable() {
        assert_eq!(text("memo", "  coffee ").unwrap(), "coffee");
        assert_eq!(field(text("memo", "a\0b").unwrap_err()), "memo");
        assert_eq!(field(text("note", &"x".repeat(201)).unwrap_err()), "note");
    }
}
