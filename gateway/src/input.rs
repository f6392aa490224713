//! Strict readers for the scalar inputs of the REST surface (ids, switches, paging).
//! Query and form fields arrive as text and are parsed here, so that every refusal is a
//! 400 naming the field instead of a generic deserializer message.

use uuid::Uuid;

use crate::envelope::Failure;

/// The default and largest page sizes of every list (DESIGN.md section 4).
pub const DEFAULT_PAGE_SIZE: u32 = 10;
pub const MAX_PAGE_SIZE: u32 = 100;

/// A UUID named `field`; given as text so a malformed one is a 400, not a 404.
pub fn uuid(field: &str, text: &str) -> Result<Uuid, Failure> {
    Uuid::parse_str(text.trim())
        .map_err(|_| Failure::bad_request("invalid_id", format!("{field}: not a valid id")))
}

/// An optional UUID parameter: absent or empty is `None`.
pub fn opt_uuid(field: &str, text: Option<&str>) -> Result<Option<Uuid>, Failure> {
    match text.map(str::trim) {
        None | Some("") => Ok(None),
        Some(t) => uuid(field, t).map(Some),
    }
}

/// `on_or_off`: on/off, true/false, 1/0 (any case).
pub fn switch(field: &str, text: &str) -> Result<bool, Failure> {
    match text.trim().to_ascii_lowercase().as_str() {
        "on" | "true" | "1" => Ok(true),
        "off" | "false" | "0" => Ok(false),
        _ => Err(Failure::bad_request(
            "invalid_switch",
            format!("{field}: must be on or off (true/false, 1/0)"),
        )),
    }
}

/// A whole number in `min..=max` named `field`; absent or empty gives `default`.
pub fn number(
    field: &str,
    text: Option<&str>,
    default: u32,
    min: u32,
    max: u32,
) -> Result<u32, Failure> {
    let Some(t) = text.map(str::trim).filter(|t| !t.is_empty()) else {
        return Ok(default);
    };
    t.parse::<u32>()
        .ok()
        .filter(|n| (min..=max).contains(n))
        .ok_or_else(|| {
            Failure::bad_request(
                "invalid_number",
                format!("{field}: must be a whole number from {min} to {max}"),
            )
        })
}

/// `page` (from 1) and `page_size` (1..=100, default 10).
pub fn paging(page: Option<&str>, page_size: Option<&str>) -> Result<(u32, u32), Failure> {
    Ok((
        number("page", page, 1, 1, 1_000_000)?,
        number("page_size", page_size, DEFAULT_PAGE_SIZE, 1, MAX_PAGE_SIZE)?,
    ))
}

/// [`paging`] for numbers that came typed in a JSON body.
pub fn json_paging(page: Option<u32>, page_size: Option<u32>) -> Result<(u32, u32), Failure> {
    paging(
        page.map(|p| p.to_string()).as_deref(),
        page_size.map(|p| p.to_string()).as_deref(),
    )
}

/// Free text named `field`, at most `max` characters.
pub fn text(field: &str, value: String, max: usize) -> Result<String, Failure> {
    if value.chars().count() > max {
        return Err(Failure::bad_request(
            "too_long",
            format!("{field}: at most {max} characters"),
        ));
    }
    Ok(value)
}

/// A comma-joined list (`tags=a, b,,c` -> `[a, b, c]`).
pub fn comma_list(value: &str) -> Vec<String> {
    value
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect()
}

/// A field that must be given and not blank.
pub fn required<'a>(field: &str, value: Option<&'a str>) -> Result<&'a str, Failure> {
    value
        .map(str::trim)
        .filter(|v| !v.is_empty())
        .ok_or_else(|| Failure::bad_request("missing_field", format!("{field}: required")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn switches_read_every_spelling() {
        for on in ["on", "ON", "true", "1"] {
            assert!(switch("on_or_off", on).unwrap());
        }
        for off in ["off", "False", "0"] {
            assert!(!switch("on_or_off", off).unwrap());
        }
        assert!(switch("on_or_off", "yes").is_err());
        assert!(switch("on_or_off", "").is_err());
    }

    #[test]
    fn paging_is_bounded() {
        assert_eq!(paging(None, None).unwrap(), (1, 10));
        assert_eq!(paging(Some("2"), Some("100")).unwrap(), (2, 100));
        assert!(paging(Some("0"), None).is_err());
        assert!(paging(None, Some("1000")).is_err());
        assert!(paging(None, Some("0")).is_err());
        assert!(paging(Some("-1"), None).is_err());
        assert!(paging(Some("abc"), None).is_err());
        assert!(json_paging(Some(1), Some(101)).is_err());
    }

    #[test]
    fn ids_must_be_uuids() {
        assert!(uuid("book_id", "x").is_err());
        assert!(opt_uuid("uid", Some("")).unwrap().is_none());
        let id = Uuid::new_v4().to_string();
        assert!(opt_uuid("uid", Some(&id)).unwrap().is_some());
    }

    #[test]
    fn comma_lists_drop_blanks() {
        assert_eq!(comma_list(" a, b,,c ,"), ["a", "b", "c"]);
        assert!(comma_list("").is_empty());
    }
}
