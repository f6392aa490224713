//! What a caller may send: who they act for, a conversation id, the words of a turn or a
//! query, how many books. Every refusal names its field and says what is wrong.

use quire_kit::caller::Caller;
use uuid::Uuid;

use crate::MAX_INPUT_CHARS;
use crate::error::{ChatError, CommonErrors, Result};

/// The most books one RecommendBooks answers, and how many when the caller does not say.
pub const MAX_LIMIT: u32 = 20;
pub const DEFAULT_LIMIT: u32 = 5;

/// The text of a too long input, as the REST contract words it.
pub const TOO_LONG: &str = "Input exceeds 500 characters limit";

/// The caller's id, when `uid` names the caller (empty names the caller too): a
/// conversation is its reader's alone, so not even an admin speaks for someone else.
pub fn uid(caller: &Caller, uid: &str) -> Result<Uuid> {
    let uid = uid.trim();
    if uid.is_empty() {
        return Ok(caller.user_id());
    }
    match Uuid::parse_str(uid) {
        Ok(id) if id == caller.user_id() => Ok(id),
        Ok(_) => Err(ChatError::forbidden("uid must be the signed-in user")),
        Err(_) => Err(ChatError::invalid("uid", "uid: not a user id")),
    }
}

/// A conversation id: 1 to 64 of `A-Z a-z 0-9 _ -`.
pub fn conversation_id(id: &str) -> Result<String> {
    let ok = (1..=64).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    if ok {
        Ok(id.to_owned())
    } else {
        Err(ChatError::invalid(
            "conversation_id",
            "conversation_id: 1 to 64 letters, digits, '_' or '-'",
        ))
    }
}

/// What the reader said, trimmed: not empty and at most 500 characters.
pub fn utterance(field: &'static str, text: &str, empty: &str) -> Result<String> {
    let text = text.trim();
    if text.is_empty() {
        return Err(ChatError::invalid(field, empty));
    }
    if text.chars().count() > MAX_INPUT_CHARS {
        return Err(ChatError::invalid(field, TOO_LONG));
    }
    Ok(text.to_owned())
}

/// How many books: 0 is the default, at most [`MAX_LIMIT`].
pub fn limit(limit: u32) -> Result<usize> {
    match limit {
        0 => Ok(DEFAULT_LIMIT as usize),
        n if n <= MAX_LIMIT => Ok(n as usize),
        _ => Err(ChatError::invalid(
            "limit",
            format!("limit: at most {MAX_LIMIT} books"),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conversation_ids_are_short_and_plain() {
        assert!(conversation_id("0b7c5a1e-9f3d-4c2a-8e61-5a0f2d9c7b14").is_ok());
        assert!(conversation_id("a_b-C9").is_ok());
        assert!(conversation_id("").is_err());
        assert!(conversation_id(&"x".repeat(65)).is_err());
        assert!(conversation_id("a b").is_err());
        assert!(conversation_id("é").is_err());
    }

    #[test]
    fn input_is_trimmed_and_at_most_500_characters() {
        assert_eq!(utterance("current_input", "  hi ", "empty").unwrap(), "hi");
        assert!(utterance("current_input", "   ", "empty").is_err());
        assert!(utterance("current_input", &"é".repeat(500), "empty").is_ok());
        let long = utterance("current_input", &"é".repeat(501), "empty").unwrap_err();
        assert_eq!(long.to_string(), TOO_LONG);
    }

    #[test]
    fn the_limit_defaults_to_five_and_stops_at_twenty() {
        assert_eq!(limit(0).unwrap(), 5);
        assert_eq!(limit(20).unwrap(), 20);
        assert!(limit(21).is_err());
    }
}
