//! Checks of request fields. Every failure names the field, so a caller sees a 400 that
//! says what to fix, never a 500.

use quire_kit::caller::Caller;
use quire_kit::input::{self, Lines};
use uuid::Uuid;

use quire_kit::error::CommonErrors;

use crate::error::{ManuscriptError, Result};

pub const MAX_TITLE_CHARS: usize = 300;
const MAX_GENRE_CHARS: usize = 100;

/// The caller of a method that needs one.
pub fn required(caller: Option<&Caller>) -> Result<&Caller> {
    caller.ok_or(ManuscriptError::Kit(quire_kit::KitError::Unauthenticated))
}

/// Writers upload manuscripts; admins may upload for anyone.
pub fn writer_or_admin(caller: &Caller) -> Result<()> {
    if caller.is_admin() || caller.claims.roles.iter().any(|r| r == "writer") {
        Ok(())
    } else {
        Err(ManuscriptError::forbidden(
            "Only writers can upload manuscripts",
        ))
    }
}

/// The user `field` names: empty is the caller, another user only for an admin.
pub fn acting_for(caller: &Caller, field: &'static str, value: &str) -> Result<Uuid> {
    Ok(caller.acting_for(field, value)?)
}

pub fn uuid(field: &'static str, value: &str) -> Result<Uuid> {
    Uuid::parse_str(value.trim())
        .map_err(|_| ManuscriptError::invalid(field, format!("{field} must be a UUID")))
}

/// An optional id: empty means none.
pub fn opt_uuid(field: &'static str, value: &str) -> Result<Option<Uuid>> {
    if value.trim().is_empty() {
        Ok(None)
    } else {
        uuid(field, value).map(Some)
    }
}

/// The analysis reads English only; the spec's client always sends "english".
pub fn language(value: &str) -> Result<String> {
    let v = value.trim().to_lowercase();
    match v.as_str() {
        "" | "english" | "en" => Ok("english".to_owned()),
        _ => Err(ManuscriptError::invalid(
            "language",
            "language: only english manuscripts can be analysed",
        )),
    }
}

/// The writer's genre, or none.
pub fn genre(value: &str) -> Result<Option<String>> {
    let g = line("genre", value, MAX_GENRE_CHARS)?;
    Ok((!g.is_empty()).then_some(g))
}

/// A trimmed single-line text of at most `max` characters.
pub fn line(field: &'static str, value: &str, max: usize) -> Result<String> {
    input::line(field, value, max).map_err(|e| ManuscriptError::invalid(field, e.message))
}

/// Text the AI check reads: not empty, at most `max` characters.
pub fn text_to_check(value: &str, max: usize) -> Result<&str> {
    if let Some(c) = input::forbidden_char(value, Lines::Many) {
        return Err(ManuscriptError::invalid(
            "text",
            input::refused("text", c).message,
        ));
    }
    if value.trim().is_empty() {
        return Err(ManuscriptError::invalid("text", "text: must not be empty"));
    }
    if value.chars().count() > max {
        return Err(ManuscriptError::invalid(
            "text",
            format!("text: at most {max} characters"),
        ));
    }
    Ok(value)
}

/// Text read from an uploaded file: Postgres refuses NUL bytes in text, and control
/// characters have no place in titles, so they are dropped rather than refused.
pub fn clean(value: &str) -> String {
    value
        .chars()
        .filter(|c| !c.is_control() || matches!(c, '\n' | '\t'))
        .collect()
}

/// A title made from a file's metadata or name: one line, at most [`MAX_TITLE_CHARS`].
pub fn title_from_file(value: &str) -> String {
    let one_line: String = clean(value)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    one_line.chars().take(MAX_TITLE_CHARS).collect()
}

/// The name a browser sent, without any folder part (never used as a path).
pub fn base_name(file_name: &str) -> &str {
    file_name.rsplit(['/', '\\']).next().unwrap_or(file_name)
}

/// A file's name without its folders and extension ("Moby Dick" of "/x/Moby Dick.epub").
pub fn stem(file_name: &str) -> String {
    let base = base_name(file_name);
    let stem = match base.rsplit_once('.') {
        Some((s, _)) if !s.is_empty() => s,
        _ => base,
    };
    title_from_file(stem)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_stem_keeps_no_folder_and_no_extension() {
        assert_eq!(stem("Moby Dick.epub"), "Moby Dick");
        assert_eq!(stem("../../etc/passwd"), "passwd");
        assert_eq!(stem("C:\\books\\tale.v2.docx"), "tale.v2");
        assert_eq!(stem(".hidden"), ".hidden");
        assert_eq!(stem("a\u{0}b\nc.txt"), "ab c");
    }

    #[test]
    fn only_english_is_analysed() {
        assert_eq!(language("English").unwrap(), "english");
        assert_eq!(language("").unwrap(), "english");
        let refused = quire_kit::ApiError::from(language("klingon").unwrap_err());
        assert_eq!(refused.reason, "invalid_language");
    }

    #[test]
    fn checked_text_is_bounded_and_not_empty() {
        assert!(text_to_check("  ", 10).is_err());
        assert!(text_to_check("abcdefghijk", 10).is_err());
        assert!(text_to_check("a\u{0}", 10).is_err());
        assert_eq!(text_to_check("line\nline", 10).unwrap(), "line\nline");
    }
}
