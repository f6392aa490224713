//! Ages: "for a 12 year old", "my son is 8", "for my daughter, she's 15", "aged ten".
//! An age of twelve or under asks for children's books, thirteen to seventeen for young
//! adult ones; an adult's age asks for neither. The age and the words around it (the
//! child it is of: "son", "daughter") are understood here, so "for my daughter" does not
//! make a fifteen-year-old a child afterwards ([`super::filters`] keeps an audience
//! already set).

use super::price::NUMBER_WORDS;
use super::request::{Audience, Request};
use super::text::{Kind, Token};

/// The oldest child; older, up to [`OLDEST_TEEN`], is a young adult.
const OLDEST_CHILD: u32 = 12;
const OLDEST_TEEN: u32 = 17;

/// Before an age: "aged 9", "she's 15", "my son is 8", "turning 13".
const BEFORE: &[&str] = &[
    "aged", "age", "ages", "she's", "he's", "they're", "is", "turning", "turned", "turns",
];
/// "is" before a number is an age only when the utterance says whose.
const PERSONS: &[&str] = &[
    "son",
    "sons",
    "daughter",
    "daughters",
    "kid",
    "kids",
    "child",
    "boy",
    "girl",
    "nephew",
    "niece",
    "grandson",
    "granddaughter",
    "grandchild",
    "grandkid",
    "he",
    "she",
    "they",
];
/// After an age: "12 year old", "12 years old", "8 yo", "8 yr old".
const AFTER: &[&str] = &["year", "years", "yo", "yr", "yrs"];

/// Finds an age in `tokens`, sets the audience it asks for and marks its words used.
pub(crate) fn parse(tokens: &mut [Token], request: &mut Request) {
    let whose = tokens
        .iter()
        .any(|t| t.is_free_word() && PERSONS.contains(&t.lower.as_str()));
    for i in 0..tokens.len() {
        let Some(age) = number(&tokens[i]) else {
            continue;
        };
        let word = |at: usize| {
            tokens
                .get(at)
                .filter(|t| t.is_free_word())
                .map(|t| t.lower.as_str())
        };
        let after = word(i + 1).is_some_and(|w| AFTER.contains(&w));
        let before = i
            .checked_sub(1)
            .and_then(word)
            .is_some_and(|w| BEFORE.contains(&w) && (w != "is" || whose));
        if !(after || before) || tokens[i].negated {
            continue;
        }
        let old = after && word(i + 2) == Some("old");
        if age <= OLDEST_CHILD {
            request.audience = Some(Audience::Children);
        } else if age <= OLDEST_TEEN {
            request.audience = Some(Audience::YoungAdult);
        }
        tokens[i].used = true;
        if after {
            for t in tokens.iter_mut().skip(i + 1).take(1 + usize::from(old)) {
                t.used = true;
            }
        }
        if before {
            tokens[i - 1].used = true;
        }
        for t in tokens
            .iter_mut()
            .filter(|t| t.is_free_word() && PERSONS.contains(&t.lower.as_str()))
        {
            t.used = true;
        }
        return;
    }
}

/// The whole number a token says, in digits or words.
fn number(token: &Token) -> Option<u32> {
    if token.used {
        return None;
    }
    match token.kind {
        Kind::Number => token.lower.parse().ok(),
        Kind::Word => NUMBER_WORDS
            .iter()
            .position(|w| *w == token.lower)
            .and_then(|n| u32::try_from(n).ok()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::run;
    use super::*;

    fn audience(s: &str) -> Option<Audience> {
        run(s, true, parse).audience
    }

    #[test]
    fn ages_say_children_or_young_adults() {
        assert_eq!(audience("for a 12 year old"), Some(Audience::Children));
        assert_eq!(audience("a 12-year-old reader"), Some(Audience::Children));
        assert_eq!(audience("my son is 8"), Some(Audience::Children));
        assert_eq!(
            audience("for my daughter, she's 15"),
            Some(Audience::YoungAdult)
        );
        assert_eq!(audience("aged thirteen"), Some(Audience::YoungAdult));
        assert_eq!(audience("my dad is 70"), None);
    }

    #[test]
    fn other_numbers_are_no_age() {
        assert_eq!(audience("it is 8 dollars"), None);
        assert_eq!(audience("under 12 pounds"), None);
        assert_eq!(audience("the 2 of them"), None);
    }
}
