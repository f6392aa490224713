//! Constraints that are not prices: who the book is for ("for kids", "YA"), how long it
//! is ("short", "a quick read", "not too long", "a doorstopper") and how new ("new",
//! "recent", "latest"). Runs after negation: "not too long" asks for a short book, "not
//! for kids" leaves children's books out.

use super::price::longest;
use super::request::{Audience, Length, Request, push_unique};
use super::text::{Token, mark_used};

const CHILDREN: &[&str] = &[
    "for kids",
    "for children",
    "for a child",
    "for my kid",
    "for my kids",
    "for my son",
    "for my daughter",
    "for my nephew",
    "for my niece",
    "for my grandson",
    "for my granddaughter",
    "children's",
    "childrens",
    "children",
    "kids",
    "kid's",
    "kids'",
    "picture book",
    "picture books",
    "bedtime story",
    "bedtime stories",
    "middle grade",
    "for little ones",
];
const YOUNG_ADULT: &[&str] = &[
    "young adult",
    "ya",
    "teen",
    "teens",
    "teenager",
    "teenagers",
    "for my teenager",
    "for a teenager",
    "for a teen",
    "teenage",
];
const SHORT: &[&str] = &[
    "short",
    "shortish",
    "quick read",
    "quick reads",
    "quick",
    "brief",
    "novella",
    "novellas",
    "short story",
    "short stories",
    "in one sitting",
    "one sitting",
    "slim",
    "bite sized",
];
const LONG: &[&str] = &[
    "long",
    "lengthy",
    "longish",
    "doorstopper",
    "doorstoppers",
    "big",
    "chunky",
    "thick",
    "long read",
    "saga",
    "sagas",
];
const RECENT: &[&str] = &[
    "new",
    "newest",
    "recent",
    "recently published",
    "latest",
    "just out",
    "just released",
    "new releases",
    "new release",
    "this year",
    "brand new",
    "fresh",
    "out this month",
];
/// "new" before these is a place or a phrase, not a request for recent books.
const NOT_NEW: &[&str] = &[
    "york",
    "zealand",
    "orleans",
    "england",
    "mexico",
    "jersey",
    "delhi",
    "world",
    "to",
    "hampshire",
    "south",
    "guinea",
];

/// Finds the audience, length and recency in `tokens` and sets them on `request`.
pub(crate) fn parse(tokens: &mut [Token], request: &mut Request) {
    let mut i = 0;
    while i < tokens.len() {
        let negated = tokens[i].negated;
        let len = if let Some(len) = longest(tokens, i, CHILDREN) {
            audience(request, Audience::Children, negated);
            len
        } else if let Some(len) = longest(tokens, i, YOUNG_ADULT) {
            audience(request, Audience::YoungAdult, negated);
            len
        } else if let Some(len) = longest(tokens, i, SHORT) {
            request.length = Some(if negated { Length::Long } else { Length::Short });
            len
        } else if let Some(len) = longest(tokens, i, LONG) {
            request.length = Some(if negated { Length::Short } else { Length::Long });
            len
        } else if let Some(len) = longest(tokens, i, RECENT) {
            let place = tokens
                .get(i + 1)
                .is_some_and(|t| NOT_NEW.contains(&t.lower.as_str()));
            if place && len == 1 {
                i += 2;
                continue;
            }
            request.recent = !negated;
            len
        } else {
            i += 1;
            continue;
        };
        mark_used(tokens, i, len);
        i += len;
    }
}

fn audience(request: &mut Request, audience: Audience, negated: bool) {
    if negated {
        push_unique(&mut request.exclude_genres, audience.genre());
    } else if request.audience.is_none() {
        // An age said it already ("for my daughter, she's 15").
        request.audience = Some(audience);
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::run;
    use super::*;

    fn parsed(s: &str) -> Request {
        run(s, true, parse)
    }

    #[test]
    fn negated_lengths_flip() {
        assert_eq!(parsed("not too long").length, Some(Length::Short));
        assert_eq!(parsed("nothing short").length, Some(Length::Long));
        assert_eq!(parsed("a quick read").length, Some(Length::Short));
    }

    #[test]
    fn audiences_and_their_negation() {
        assert_eq!(
            parsed("a story for my daughter").audience,
            Some(Audience::Children)
        );
        assert_eq!(parsed("YA fantasy").audience, Some(Audience::YoungAdult));
        let not_for_kids = parsed("not for kids");
        assert_eq!(
            (not_for_kids.audience, not_for_kids.exclude_genres),
            (None, vec!["Children".to_string()])
        );
    }

    #[test]
    fn new_york_is_a_place() {
        assert!(!parsed("a thriller set in New York").recent);
        assert!(parsed("the latest thrillers").recent);
    }
}
