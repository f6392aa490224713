//! Prices and page counts: "under $5", "less than 3 dollars", "£4.99 or less", "at least
//! 2 euros", "cheap", "free", "under 200 pages". Amounts are in the shop's cents; every
//! currency sign and name counts as the shop's one currency. A bare number needs a bound
//! word before it and no other unit after it ("under 5" is a price, "under 5 hours" is
//! not). Runs before negation, so "no more than $5" is a bound, not a negated "more".

use super::request::Request;
use super::text::{Kind, Token, mark_used, phrase_at};

/// What "cheap" means: at most this many cents.
pub const CHEAP_CENTS: u32 = 500;

const UPPER: &[&str] = &[
    "under",
    "below",
    "less than",
    "cheaper than",
    "at most",
    "max",
    "maximum",
    "up to",
    "no more than",
    "not more than",
    "not over",
    "within",
    "beneath",
    "or less",
    "tops",
];
const LOWER: &[&str] = &[
    "over",
    "above",
    "more than",
    "at least",
    "min",
    "minimum",
    "or more",
];
const UNITS: &[&str] = &[
    "dollars", "dollar", "bucks", "buck", "usd", "euros", "euro", "eur", "pounds", "pound", "quid",
    "gbp",
];
const CENT_UNITS: &[&str] = &["cents", "cent", "pence", "p"];
const OTHER_UNITS: &[&str] = &[
    "hours", "hour", "minutes", "minute", "days", "years", "year", "chapters", "words", "stars",
    "star", "percent", "books", "book", "people",
];
const PAGES: &[&str] = &["pages", "page", "pp"];
const CHEAP: &[&str] = &[
    "cheap",
    "inexpensive",
    "affordable",
    "budget",
    "bargain",
    "bargains",
    "low cost",
    "not expensive",
    "not too expensive",
    "nothing expensive",
    "not pricey",
    "not too pricey",
    "cheapest",
    "low priced",
    "on a budget",
];
const FREE: &[&str] = &[
    "for free",
    "free of charge",
    "no cost",
    "costs nothing",
    "zero cost",
    "free",
];
/// Words that may stand before "free" meaning "costs nothing" ("gluten free" is not).
const BEFORE_FREE: &[&str] = &[
    "for",
    "a",
    "any",
    "some",
    "something",
    "anything",
    "only",
    "just",
    "are",
    "is",
    "get",
    "the",
    "me",
    "all",
    "completely",
    "totally",
    "entirely",
    "and",
    "or",
    "there",
    "100%",
];
/// Numbers said as words, each at its value's index.
pub(crate) const NUMBER_WORDS: &[&str] = &[
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
    "twenty",
];

enum Unit {
    Money,
    Cents,
    Pages,
    Bare,
}

/// Finds the prices and page bounds in `tokens` and sets them on `request`.
pub(crate) fn parse(tokens: &mut [Token], request: &mut Request) {
    let mut i = 0;
    while i < tokens.len() {
        if let Some(len) = bounded_amount(tokens, i, request) {
            mark_used(tokens, i, len);
            i += len;
        } else if let Some(len) = longest(tokens, i, FREE).filter(|_| free_here(tokens, i)) {
            request.max_price_cents = Some(0);
            request.min_price_cents = None;
            mark_used(tokens, i, len);
            i += len;
        } else if let Some(len) = longest(tokens, i, CHEAP) {
            if request.max_price_cents.is_none() {
                request.max_price_cents = Some(CHEAP_CENTS);
            }
            mark_used(tokens, i, len);
            i += len;
        } else {
            i += 1;
        }
    }
}

/// The length of the longest phrase of `phrases` starting at `at`.
pub(crate) fn longest(tokens: &[Token], at: usize, phrases: &[&str]) -> Option<usize> {
    phrases
        .iter()
        .filter_map(|p| phrase_at(tokens, at, p))
        .max()
}

fn free_here(tokens: &[Token], at: usize) -> bool {
    if tokens
        .get(at + 1)
        .is_some_and(|t| t.lower == "time" || t.lower == "will")
    {
        return false;
    }
    at == 0
        || tokens[at - 1].kind != Kind::Word
        || BEFORE_FREE.contains(&tokens[at - 1].lower.as_str())
}

/// "under $5", "$5 or less", "less than 3 dollars", "over 300 pages", "for $2", "$3 books":
/// sets the bound and gives how many tokens it took.
fn bounded_amount(tokens: &[Token], at: usize, request: &mut Request) -> Option<usize> {
    let (upper, bound_len) = if let Some(len) = longest(tokens, at, UPPER) {
        (true, len)
    } else if let Some(len) = longest(tokens, at, LOWER) {
        (false, len)
    } else if tokens[at].is_free_word()
        && (tokens[at].lower == "for" || tokens[at].lower == "around")
    {
        (true, 1)
    } else {
        (true, 0)
    };
    let (value, unit, amount_len) = amount(tokens, at + bound_len)?;
    let mut len = bound_len + amount_len;
    let mut upper = upper;
    if bound_len == 0 || tokens[at].lower == "for" || tokens[at].lower == "around" {
        // "$5 or less", "300 pages or more", or a bare "$3 books" (at most $3).
        if let Some(after) = longest(tokens, at + len, &["or less", "or under", "max", "tops"]) {
            len += after;
        } else if let Some(after) = longest(tokens, at + len, &["or more", "plus"]) {
            upper = false;
            len += after;
        } else if matches!(unit, Unit::Bare | Unit::Pages) {
            return None;
        }
    }
    let (bound_min, bound_max) = match unit {
        Unit::Pages => (&mut request.min_pages, &mut request.max_pages),
        Unit::Money | Unit::Cents | Unit::Bare => {
            (&mut request.min_price_cents, &mut request.max_price_cents)
        }
    };
    if upper {
        *bound_max = Some(value)
    } else {
        *bound_min = Some(value)
    }
    Some(len)
}

/// An amount at `at`: its value (cents, or pages), unit and token count.
fn amount(tokens: &[Token], at: usize) -> Option<(u32, Unit, usize)> {
    let mut i = at;
    let currency_before = tokens.get(i).is_some_and(|t| t.kind == Kind::Currency);
    if currency_before {
        i += 1;
    }
    let t = tokens.get(i)?;
    if t.used {
        return None;
    }
    let number = match t.kind {
        Kind::Number => t.lower.clone(),
        Kind::Word => NUMBER_WORDS.iter().position(|w| *w == t.lower)?.to_string(),
        _ => return None,
    };
    i += 1;
    let next = tokens.get(i).filter(|t| !t.used);
    let next_word = next.map(|t| t.lower.as_str()).unwrap_or("");
    let unit = if currency_before || next.is_some_and(|t| t.kind == Kind::Currency) {
        if !currency_before {
            i += 1;
        }
        Unit::Money
    } else if UNITS.contains(&next_word) {
        i += 1;
        Unit::Money
    } else if CENT_UNITS.contains(&next_word) {
        i += 1;
        Unit::Cents
    } else if PAGES.contains(&next_word) {
        i += 1;
        Unit::Pages
    } else if OTHER_UNITS.contains(&next_word) {
        return None;
    } else {
        Unit::Bare
    };
    let value = match unit {
        Unit::Money | Unit::Bare => to_cents(&number)?,
        Unit::Cents | Unit::Pages => number.parse::<u32>().ok()?,
    };
    Some((value, unit, i - at))
}

/// "4.99" as 499, "5" as 500; `None` for anything that is not a sane amount.
pub(crate) fn to_cents(number: &str) -> Option<u32> {
    let (whole, fraction) = number.split_once('.').unwrap_or((number, ""));
    let whole: u32 = if whole.is_empty() {
        0
    } else {
        whole.parse().ok()?
    };
    let cents: u32 = match fraction.len() {
        0 => 0,
        1 => fraction.parse::<u32>().ok()? * 10,
        2 => fraction.parse().ok()?,
        _ => return None,
    };
    whole.checked_mul(100)?.checked_add(cents)
}

#[cfg(test)]
mod tests {
    use super::super::test_support::run;
    use super::*;

    fn parsed(s: &str) -> Request {
        run(s, false, parse)
    }

    fn max(s: &str) -> Option<u32> {
        parsed(s).max_price_cents
    }

    #[test]
    fn upper_bounds_in_many_spellings() {
        assert_eq!(max("under $5"), Some(500));
        assert_eq!(max("less than 3 dollars"), Some(300));
        assert_eq!(max("below 4.99"), Some(499));
        assert_eq!(max("no more than \u{a3}2.5"), Some(250));
        assert_eq!(max("$3 or less"), Some(300));
        assert_eq!(max("5$ max"), Some(500));
        assert_eq!(max("under five bucks"), Some(500));
        assert_eq!(max("for 2 dollars"), Some(200));
        assert_eq!(max("under 99 cents"), Some(99));
        assert_eq!(max("something cheap"), Some(CHEAP_CENTS));
    }

    #[test]
    fn lower_bounds_and_pages() {
        let r = parsed("over $10 and under 200 pages");
        assert_eq!(
            (r.min_price_cents, r.max_price_cents, r.max_pages),
            (Some(1000), None, Some(200))
        );
        assert_eq!(parsed("at least 400 pages").min_pages, Some(400));
    }

    #[test]
    fn numbers_that_are_not_prices() {
        assert_eq!(max("under 5 hours"), None);
        assert_eq!(max("top 5 mysteries"), None);
        assert_eq!(max("2 books please"), None);
        assert_eq!(max("under $99999999999"), None);
        assert_eq!(max("under $1.234"), None);
        assert_eq!(max("under $"), None);
    }

    #[test]
    fn free_but_not_gluten_free() {
        assert_eq!(max("free books"), Some(0));
        assert_eq!(max("anything for free"), Some(0));
        assert_eq!(max("gluten free recipes"), None);
        assert_eq!(max("for my free time"), None);
    }
}
