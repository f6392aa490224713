//! Money on the REST wire: a decimal with at most two places (`4.99`), turned into the
//! integer cents every service works in. One parser for every amount the gateway reads
//! (prices, price filters), so a bad amount is refused the same way everywhere.

use crate::envelope::Failure;

/// The largest amount accepted: 1,000,000.00.
pub const MAX_CENTS: i64 = 100_000_000;

/// Parses `text` as an amount in cents. Only plain decimals are amounts: digits, then
/// optionally a point and one or two digits. Signs, exponents, `NaN`, `inf`, spaces, a
/// third decimal place and anything above [`MAX_CENTS`] are refused.
pub fn parse_cents(text: &str) -> Option<i64> {
    let (whole, fraction) = match text.split_once('.') {
        Some((w, f)) => (w, Some(f)),
        None => (text, None),
    };
    // Enough digits for the largest amount with leading zeros, few enough never to overflow.
    if whole.is_empty() || whole.len() > 12 || !whole.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let mut cents = whole.parse::<i64>().ok()?.checked_mul(100)?;
    if let Some(f) = fraction {
        if f.is_empty() || f.len() > 2 || !f.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let scale = if f.len() == 1 { 10 } else { 1 };
        cents += f.parse::<i64>().ok()? * scale;
    }
    (cents <= MAX_CENTS).then_some(cents)
}

/// [`parse_cents`] with the 400 the REST surface gives, naming `field`.
pub fn cents_field(field: &str, text: &str) -> Result<i64, Failure> {
    parse_cents(text).ok_or_else(|| {
        Failure::bad_request(
            "invalid_amount",
            format!("{field}: not an amount (a number from 0 to 1000000 with at most 2 decimals)"),
        )
    })
}

/// An amount given in a JSON body, as a number (`4.99`) or a string (`"4.99"`). The raw
/// JSON text is read, so `1e2` and `1.234` are refused like their string forms.
pub fn cents_json(field: &str, raw: &serde_json::value::RawValue) -> Result<Option<i64>, Failure> {
    let text = raw.get().trim();
    if text == "null" {
        return Ok(None);
    }
    if text.starts_with('"') {
        let s: String = serde_json::from_str(text).map_err(|_| {
            Failure::bad_request("invalid_amount", format!("{field}: not an amount"))
        })?;
        if s.trim().is_empty() {
            return Ok(None);
        }
        return cents_field(field, &s).map(Some);
    }
    cents_field(field, text).map(Some)
}

/// Cents as the decimal number the REST surface shows (`499` -> `4.99`).
pub fn to_decimal(cents: i64) -> f64 {
    cents as f64 / 100.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_decimals_are_amounts() {
        assert_eq!(parse_cents("0"), Some(0));
        assert_eq!(parse_cents("4.99"), Some(499));
        assert_eq!(parse_cents("4.9"), Some(490));
        assert_eq!(parse_cents("4.09"), Some(409));
        assert_eq!(parse_cents("12"), Some(1200));
        assert_eq!(parse_cents("1000000"), Some(MAX_CENTS));
        assert_eq!(parse_cents("1000000.00"), Some(MAX_CENTS));
        assert_eq!(parse_cents("007.50"), Some(750));
    }

    #[test]
    fn anything_else_is_refused() {
        for bad in [
            "",
            "abc",
            "NaN",
            "nan",
            "inf",
            "-inf",
            "Infinity",
            "-1",
            "-0.01",
            "+1",
            "1.234",
            "1e2",
            "1E2",
            "1.",
            ".5",
            "1,5",
            " 1",
            "1 ",
            "1000000.01",
            "99999999999999999999",
            "0x10",
            "1_000",
            "१२",
        ] {
            assert_eq!(parse_cents(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn json_numbers_are_read_from_their_text() {
        let raw = |s: &str| serde_json::from_str::<Box<serde_json::value::RawValue>>(s).unwrap();
        assert_eq!(cents_json("p", &raw("4.99")).unwrap(), Some(499));
        assert_eq!(cents_json("p", &raw("\"4.99\"")).unwrap(), Some(499));
        assert_eq!(cents_json("p", &raw("null")).unwrap(), None);
        assert!(cents_json("p", &raw("1e2")).is_err());
        assert!(cents_json("p", &raw("1.234")).is_err());
        assert!(cents_json("p", &raw("-1")).is_err());
        assert!(cents_json("p", &raw("\"NaN\"")).is_err());
        assert!(cents_json("p", &raw("true")).is_err());
        assert!(cents_json("p", &raw("[1]")).is_err());
    }

    #[test]
    fn cents_show_as_short_decimals() {
        assert_eq!(serde_json::json!(to_decimal(499)).to_string(), "4.99");
        assert_eq!(serde_json::json!(to_decimal(0)).to_string(), "0.0");
        assert_eq!(serde_json::json!(to_decimal(1234)).to_string(), "12.34");
    }
}
