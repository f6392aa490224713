//! Checks of request fields. Every failure names the field, so a caller sees a 400 that
//! says what to fix, never a 500.

use chrono::NaiveDate;
use quire_kit::KitError;
use quire_kit::caller::Caller;
use quire_kit::input::{self, Lines};
use uuid::Uuid;

use crate::error::{CatalogError, CommonErrors, Result};

pub const MAX_PRICE_CENTS: i64 = 100_000_000;
pub const MAX_TITLE_CHARS: usize = 300;
pub const MAX_SUMMARY_CHARS: usize = 20_000;

pub fn uuid(field: &'static str, value: &str) -> Result<Uuid> {
    Uuid::parse_str(value.trim())
        .map_err(|_| CatalogError::invalid(field, format!("{field} must be a UUID")))
}

/// An optional id: empty means none.
pub fn opt_uuid(field: &'static str, value: &str) -> Result<Option<Uuid>> {
    if value.trim().is_empty() {
        Ok(None)
    } else {
        uuid(field, value).map(Some)
    }
}

/// The lowest price of a book that is not free, and the highest price of any book: the
/// bounds Amazon's Kindle Direct Publishing keeps for an e-book's list price in US dollars
/// ($0.99 to $200.00). A shop with the largest e-book catalogue finds no reader paying more
/// for an e-book, and a price under a dollar costs more in payment fees than it earns; a
/// typo like $10,000 is refused instead of saved.
pub const MIN_LIST_PRICE_CENTS: i64 = 99;
pub const MAX_LIST_PRICE_CENTS: i64 = 20_000;

/// What a book may cost: 0 (free), or from $0.99 to $200.00.
pub fn list_price(cents: i64) -> Result<i64> {
    if cents == 0 || (MIN_LIST_PRICE_CENTS..=MAX_LIST_PRICE_CENTS).contains(&cents) {
        Ok(cents)
    } else {
        Err(CatalogError::invalid(
            "price",
            "price must be 0 (free) or from 0.99 to 200.00, the bounds of Kindle Direct \
             Publishing's e-book list prices",
        ))
    }
}

/// An amount in a filter: from 0 to 1,000,000.00.
pub fn price(cents: i64) -> Result<i64> {
    if (0..=MAX_PRICE_CENTS).contains(&cents) {
        Ok(cents)
    } else {
        Err(CatalogError::invalid(
            "price",
            "price must be between 0 and 1000000.00",
        ))
    }
}

/// Text read from an uploaded file: Postgres refuses NUL bytes in text, and control
/// characters have no place in titles, so they are dropped rather than refused.
pub fn clean(value: &str) -> String {
    value
        .chars()
        .filter(|c| !c.is_control() || matches!(c, '\n' | '\t'))
        .collect()
}

/// Control characters are refused as every service refuses them (kit's input helpers);
/// `Lines::Many` keeps line breaks and tabs for free text.
fn no_control(field: &'static str, value: &str, lines: Lines) -> Result<()> {
    match input::forbidden_char(value, lines) {
        None => Ok(()),
        Some(c) => Err(CatalogError::invalid(
            field,
            input::refused(field, c).message,
        )),
    }
}

pub fn title(value: &str) -> Result<String> {
    no_control("title", value, Lines::One)?;
    let t = value.trim();
    if t.is_empty() {
        return Err(CatalogError::invalid("title", "title must not be empty"));
    }
    if t.chars().count() > MAX_TITLE_CHARS {
        return Err(CatalogError::invalid(
            "title",
            format!("title must be at most {MAX_TITLE_CHARS} characters"),
        ));
    }
    Ok(t.to_owned())
}

/// A free text of at most `max` characters (trimmed).
pub fn text(field: &'static str, value: &str, max: usize) -> Result<String> {
    no_control(field, value, Lines::Many)?;
    let t = value.trim();
    if t.chars().count() > max {
        return Err(CatalogError::invalid(
            field,
            format!("{field} must be at most {max} characters"),
        ));
    }
    Ok(t.to_owned())
}

/// A list of short labels (authors, tags): trimmed, empty ones dropped, duplicates removed.
pub fn labels(field: &'static str, values: &[String]) -> Result<Vec<String>> {
    let mut out: Vec<String> = Vec::new();
    for v in values {
        no_control(field, v, Lines::One)?;
        let v = v.trim();
        if v.is_empty() {
            continue;
        }
        if v.chars().count() > 200 {
            return Err(CatalogError::invalid(
                field,
                format!("each of {field} must be at most 200 characters"),
            ));
        }
        if !out.iter().any(|o| o.eq_ignore_ascii_case(v)) {
            out.push(v.to_owned());
        }
    }
    if out.len() > 50 {
        return Err(CatalogError::invalid(field, format!("too many {field}")));
    }
    Ok(out)
}

pub fn score(value: f64) -> Result<f64> {
    if value.is_finite() && (0.0..=100.0).contains(&value) {
        Ok(value)
    } else {
        Err(CatalogError::invalid(
            "assessment_score",
            "assessment_score must be between 0 and 100",
        ))
    }
}

/// A `YYYY-MM-DD` date; empty means none.
pub fn date(value: &str) -> Result<Option<NaiveDate>> {
    let v = value.trim();
    if v.is_empty() {
        return Ok(None);
    }
    NaiveDate::parse_from_str(v, "%Y-%m-%d")
        .map(Some)
        .map_err(|_| CatalogError::invalid("publish_date", "publish_date must be YYYY-MM-DD"))
}

/// Page (from 1) and page size (kit's limits); returns (page, size, offset).
pub fn page(page: u32, page_size: u32) -> Result<(u32, u32, i64)> {
    let p = quire_kit::paging::Page::parse(page, page_size)?;
    Ok((p.number, p.size, p.offset()))
}

/// The caller, or 401.
pub fn required(caller: Option<&Caller>) -> Result<&Caller> {
    caller.ok_or(CatalogError::Kit(KitError::Unauthenticated))
}

/// A user id a request names: it must be the caller unless the caller is an admin.
/// Empty names the caller.
pub fn acting_for(caller: &Caller, field: &'static str, value: &str) -> Result<Uuid> {
    Ok(caller.acting_for(field, value)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_fields_are_named() {
        let field = |e: CatalogError| match e {
            CatalogError::Kit(KitError::Invalid(f, _)) => f,
            other => panic!("not a 400: {other}"),
        };
        assert_eq!(field(uuid("book_id", "nope").unwrap_err()), "book_id");
        assert_eq!(field(price(-1).unwrap_err()), "price");
        assert_eq!(field(price(MAX_PRICE_CENTS + 1).unwrap_err()), "price");
        assert_eq!(list_price(0).unwrap(), 0);
        assert_eq!(list_price(99).unwrap(), 99);
        assert_eq!(list_price(20_000).unwrap(), 20_000);
        for bad in [1, 98, 20_001, 1_000_000, -1] {
            assert_eq!(field(list_price(bad).unwrap_err()), "price", "{bad}");
        }
        assert_eq!(field(title("  ").unwrap_err()), "title");
        assert!(
            matches!(page(1, 101).unwrap_err(), CatalogError::Kit(KitError::Api(e)) if e.message.starts_with("page_size"))
        );
        assert_eq!(field(date("2024-13-01").unwrap_err()), "publish_date");
        assert_eq!(field(score(f64::NAN).unwrap_err()), "assessment_score");
        assert_eq!(field(text("genre", "a\0b", 10).unwrap_err()), "genre");
        assert_eq!(clean("Chap\0ter\u{7}  1"), "Chapter  1");
    }

    #[test]
    fn pages_default_to_ten_from_page_one() {
        assert_eq!(page(0, 0).unwrap(), (1, 10, 0));
        assert_eq!(page(3, 20).unwrap(), (3, 20, 40));
        assert_eq!(price(0).unwrap(), 0);
        assert_eq!(price(MAX_PRICE_CENTS).unwrap(), MAX_PRICE_CENTS);
    }

    #[test]
    fn labels_are_trimmed_and_deduplicated() {
        let got = labels(
            "tags",
            &[" Sea ".into(), "sea".into(), "".into(), "Light".into()],
        );
        assert_eq!(got.unwrap(), vec!["Sea", "Light"]);
    }
}
