//! Admin settings of the assistant: its name (`assistant_name`, default [`DEFAULT_NAME`]).
//! Every turn reads it anew, so a change applies to the next reply; a change is written
//! with its audit entry, in one transaction (`quire_kit::settings`).

use diesel_async::AsyncPgConnection;
use quire_kit::caller::Caller;
use quire_kit::settings::{self as kit_settings, Change};
use quire_proto::chat::v1 as pb;

use crate::error::{ChatError, CommonErrors, Result};
use crate::{DEFAULT_NAME, SERVICE};

pub const ASSISTANT_NAME: &str = "assistant_name";

/// The longest name, in characters.
pub const MAX_NAME_CHARS: usize = 40;

/// The name Quinn introduces itself by.
pub async fn assistant_name(conn: &mut AsyncPgConnection) -> Result<String> {
    Ok(name_or_default(
        kit_settings::stored(conn, ASSISTANT_NAME).await?,
    ))
}

fn name_or_default(stored: Option<String>) -> String {
    stored
        .map(|n| n.trim().to_owned())
        .filter(|n| !n.is_empty())
        .unwrap_or_else(|| DEFAULT_NAME.to_owned())
}

/// A name as the proto says: trimmed, 1-40 characters, letters, digits, spaces, '-', '.'
/// and apostrophes, a letter first.
pub fn valid_name(value: &str) -> Result<String> {
    let name = value.trim();
    let bad = |why: &str| ChatError::invalid(ASSISTANT_NAME, format!("assistant_name {why}"));
    let length = name.chars().count();
    if length == 0 || length > MAX_NAME_CHARS {
        return Err(bad("must be 1 to 40 characters"));
    }
    if !name.starts_with(char::is_alphabetic) {
        return Err(bad("must start with a letter"));
    }
    let allowed = |c: char| c.is_alphanumeric() || matches!(c, ' ' | '-' | '.' | '\'' | '’');
    if !name.chars().all(allowed) {
        return Err(bad(
            "may hold only letters, digits, spaces, '-', '.' and apostrophes",
        ));
    }
    Ok(name.to_owned())
}

pub async fn get(conn: &mut AsyncPgConnection) -> Result<pb::ChatSettings> {
    Ok(pb::ChatSettings {
        assistant_name: assistant_name(conn).await?,
    })
}

/// An admin renames the assistant: checked first (nothing changes on a bad name), then the
/// new name and its audit entry in one transaction. The name in use already changes
/// nothing and records nothing.
pub async fn update(
    conn: &mut AsyncPgConnection,
    caller: &Caller,
    req: &pb::UpdateChatSettingsRequest,
) -> Result<pb::ChatSettings> {
    caller.require_admin()?;
    let name = valid_name(&req.assistant_name)?;
    let change = Change {
        key: ASSISTANT_NAME,
        stored: Some(name.clone()),
    };
    kit_settings::change::<ChatError, _>(
        conn,
        SERVICE,
        caller.user_id(),
        &[change],
        |_, stored| Ok(name_or_default(stored.map(str::to_owned)).into()),
    )
    .await?;
    Ok(pb::ChatSettings {
        assistant_name: name,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_is_trimmed_and_may_hold_what_names_hold() {
        assert_eq!(valid_name("  Ada  ").unwrap(), "Ada");
        for ok in ["Q", "Dr. Quinn-Smith", "O'Brien 2", "Zoë", "Sam’s Pal"] {
            assert_eq!(valid_name(ok).unwrap(), ok);
        }
        assert_eq!(valid_name(&"a".repeat(40)).unwrap().len(), 40);
    }

    #[test]
    fn a_bad_name_is_refused_naming_the_field() {
        for bad in ["", "   ", "2Quinn", "-Q", "Quinn!", "Q\tQ", "<b>Q</b>"] {
            let e = quire_kit::ApiError::from(valid_name(bad).unwrap_err());
            assert_eq!(e.reason, "invalid_assistant_name", "{bad:?}");
            assert!(e.message.contains(ASSISTANT_NAME), "{bad:?}: {}", e.message);
        }
        assert!(valid_name(&"a".repeat(41)).is_err());
    }
}
