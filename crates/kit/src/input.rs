//! Text as it comes in from a caller, checked the same way in every service: control
//! characters are refused with a 400 naming the field. Postgres refuses a NUL byte in
//! text (the whole statement fails, which used to surface as a 500), and no title, name,
//! search or comment has a use for the others. Multi-line fields (a bio, a comment) keep
//! line breaks and tabs.
//!
//! The gateway refuses the same characters before a call leaves it; a service checks
//! again because it trusts no caller (DESIGN.md section 5).

use crate::ApiError;

/// Whether a text may span lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lines {
    /// A name, a title, a search: no control character at all.
    One,
    /// A bio, a comment, a description: line breaks and tabs allowed.
    Many,
}

/// The first character of `value` that `lines` does not allow, if any.
pub fn forbidden_char(value: &str, lines: Lines) -> Option<char> {
    value
        .chars()
        .find(|&c| c.is_control() && !(lines == Lines::Many && matches!(c, '\n' | '\r' | '\t')))
}

/// Refuses `value` when it holds a character `lines` does not allow.
pub fn no_control(field: &str, value: &str, lines: Lines) -> Result<(), ApiError> {
    match forbidden_char(value, lines) {
        None => Ok(()),
        Some(c) => Err(refused(field, c)),
    }
}

/// The error for a control character found in `field`.
pub fn refused(field: &str, c: char) -> ApiError {
    ApiError::bad_request(
        format!("invalid_{field}"),
        format!(
            "{field}: must not contain control characters (found U+{:04X})",
            u32::from(c)
        ),
    )
}

/// A trimmed single-line text of at most `max` characters (0 means no limit).
pub fn line(field: &str, value: &str, max: usize) -> Result<String, ApiError> {
    checked(field, value, max, Lines::One)
}

/// A trimmed text that may span lines, of at most `max` characters (0 means no limit).
pub fn multiline(field: &str, value: &str, max: usize) -> Result<String, ApiError> {
    checked(field, value, max, Lines::Many)
}

fn checked(field: &str, value: &str, max: usize, lines: Lines) -> Result<String, ApiError> {
    no_control(field, value, lines)?;
    let t = value.trim();
    if max > 0 && t.chars().count() > max {
        return Err(ApiError::bad_request(
            format!("invalid_{field}"),
            format!("{field}: at most {max} characters"),
        ));
    }
    Ok(t.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_nul_byte_is_refused_naming_the_field() {
        let e = line("bio", "a\0b", 0).unwrap_err();
        assert_eq!(e.code, crate::ErrorCode::BadRequest);
        assert!(e.message.starts_with("bio: "), "{}", e.message);
        assert!(e.message.contains("U+0000"), "{}", e.message);
        assert!(multiline("bio", "a\0b", 0).is_err());
    }

    #[test]
    fn line_breaks_are_allowed_only_in_multi_line_text() {
        assert!(line("title", "one\ntwo", 0).is_err());
        assert_eq!(
            multiline("comment", " one\r\n\ttwo ", 0).unwrap(),
            "one\r\n\ttwo"
        );
        assert!(multiline("comment", "bell\u{7}", 0).is_err());
        assert!(line("q", "\u{9b}escape", 0).is_err());
    }

    #[test]
    fn length_is_counted_in_characters() {
        assert!(line("name", "ééé", 3).is_ok());
        assert!(line("name", "éééé", 3).is_err());
        assert_eq!(line("name", "  Ishmael  ", 0).unwrap(), "Ishmael");
    }
}
