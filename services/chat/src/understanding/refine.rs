//! Follow-ups that change the last request rather than start a new one: "shorter",
//! "cheaper", "longer", "newer", "not that one" / "not the third" (leave a shown book
//! out), "more like the second" (start from a shown book), "what about horror instead"
//! (a new subject, the same constraints), and cue words ("only", "but", "also", "just")
//! that say the rest of the utterance narrows the last request ("only ones set in
//! winter"). Books are referred to by their place in the last list shown: "that one" is
//! the first.

use super::price::{CHEAP_CENTS, longest};
use super::request::{Length, Request, Shown, push_unique};
use super::text::{Kind, Token, mark_used, phrase_at};

/// One change a follow-up asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Change {
    Shorter,
    Longer,
    Cheaper,
    Newer,
    /// Leave out the shown book at this index.
    Exclude(usize),
    /// Start from the shown book at this index.
    MoreLike(usize),
    /// Replace the subject, keep the constraints.
    Instead,
}

/// What a follow-up says: its changes, and whether it opens with a word that narrows.
#[derive(Debug, Default)]
pub(crate) struct FollowUp {
    pub changes: Vec<Change>,
    pub narrows: bool,
}

const ORDINALS: &[(&str, usize)] = &[
    ("first", 0),
    ("1st", 0),
    ("1", 0),
    ("top", 0),
    ("second", 1),
    ("2nd", 1),
    ("2", 1),
    ("third", 2),
    ("3rd", 2),
    ("3", 2),
    ("fourth", 3),
    ("4th", 3),
    ("4", 3),
    ("fifth", 4),
    ("5th", 4),
    ("5", 4),
    ("sixth", 5),
    ("6th", 5),
    ("6", 5),
    ("seventh", 6),
    ("7", 6),
    ("eighth", 7),
    ("8", 7),
    ("ninth", 8),
    ("9", 8),
    ("tenth", 9),
    ("10", 9),
];
/// The last book shown, whatever its index.
const LAST: usize = usize::MAX;
const EXCLUDE: &[&str] = &[
    "not",
    "no",
    "not the",
    "no not",
    "skip",
    "skip the",
    "not number",
    "anything but",
];
const SEEN: &[&str] = &[
    "i've read that",
    "i've read it",
    "i have read that",
    "i have read it",
    "already read that",
    "already read it",
    "read that one already",
    "read it already",
    "i've read that one",
    "already read that one",
    "i've seen that",
    "i own that",
    "i have that one",
];
const MORE_LIKE: &[&str] = &[
    "more like",
    "more like the",
    "like the",
    "something like the",
    "similar to the",
    "more like number",
    "more of",
    "more of the",
    "similar to",
    "another like",
    "another like the",
    "others like",
    "others like the",
    "ones like the",
    "books like the",
];
const THAT: &[&str] = &[
    "that one",
    "this one",
    "that",
    "this",
    "it",
    "that book",
    "this book",
];
const COMPARATIVES: &[(&str, Change)] = &[
    ("shorter", Change::Shorter),
    ("less long", Change::Shorter),
    ("longer", Change::Longer),
    ("cheaper", Change::Cheaper),
    ("less expensive", Change::Cheaper),
    ("newer", Change::Newer),
    ("more recent", Change::Newer),
    ("instead", Change::Instead),
    ("what about", Change::Instead),
    ("how about", Change::Instead),
    ("rather", Change::Instead),
];
const NARROWING: &[&str] = &["only", "just", "but", "also", "and", "ones", "though"];

/// Finds the follow-up changes in `tokens`, marking what it understood as used.
pub(crate) fn parse(tokens: &mut [Token]) -> FollowUp {
    let mut follow = FollowUp {
        narrows: tokens
            .first()
            .is_some_and(|t| NARROWING.contains(&t.lower.as_str())),
        ..FollowUp::default()
    };
    if let Some(at) = tokens
        .iter()
        .position(|t| t.is_word())
        .filter(|_| follow.narrows)
    {
        tokens[at].used = true;
    }
    let mut i = 0;
    while i < tokens.len() {
        if let Some(len) = longest(tokens, i, SEEN) {
            follow.changes.push(Change::Exclude(0));
            mark_used(tokens, i, len);
            i += len;
        } else if let Some((index, len)) = cue_then_book(tokens, i, EXCLUDE) {
            follow.changes.push(Change::Exclude(index));
            mark_used(tokens, i, len);
            i += len;
        } else if let Some((index, len)) = cue_then_book(tokens, i, MORE_LIKE) {
            follow.changes.push(Change::MoreLike(index));
            mark_used(tokens, i, len);
            i += len;
        } else if let Some((change, len)) = comparative(tokens, i) {
            follow.changes.push(change);
            mark_used(tokens, i, len);
            i += len;
        } else {
            i += 1;
        }
    }
    follow
}

/// A cue ("not", "more like") then a shown book ("that one", "the second", "number 3",
/// "the last one"): the book's index and the tokens taken.
fn cue_then_book(tokens: &[Token], at: usize, cues: &[&str]) -> Option<(usize, usize)> {
    cues.iter()
        .filter_map(|cue| phrase_at(tokens, at, cue))
        .filter_map(|cue_len| {
            book_at(tokens, at + cue_len).map(|(index, len)| (index, cue_len + len))
        })
        .max_by_key(|(_, len)| *len)
}

/// "that one", "the second", "2", "#2", "the last one" at `at`.
fn book_at(tokens: &[Token], at: usize) -> Option<(usize, usize)> {
    if let Some(len) = longest(tokens, at, THAT) {
        // "not that one" but not "not that long", "like that author".
        let next = tokens
            .get(at + len)
            .filter(|t| t.is_word())
            .map(|t| t.lower.as_str());
        return matches!(next, None | Some("please" | "thanks" | "either" | "again"))
            .then_some((0, len));
    }
    let first = tokens.get(at)?;
    if first.used || !matches!(first.kind, Kind::Word | Kind::Number) {
        return None;
    }
    let index = if first.lower == "last" {
        LAST
    } else {
        ORDINALS.iter().find(|(w, _)| *w == first.lower)?.1
    };
    let one = tokens
        .get(at + 1)
        .is_some_and(|t| t.is_free_word() && matches!(t.lower.as_str(), "one" | "book" | "title"));
    // A bare number after "not" is a book only when nothing follows ("not 3 dollars").
    let next_is_word = tokens
        .get(at + 1 + usize::from(one))
        .is_some_and(Token::is_word);
    if first.kind == Kind::Number && next_is_word {
        return None;
    }
    Some((index, 1 + usize::from(one)))
}

fn comparative(tokens: &[Token], at: usize) -> Option<(Change, usize)> {
    let (change, len) = COMPARATIVES
        .iter()
        .find_map(|(p, c)| phrase_at(tokens, at, p).map(|len| (*c, len)))?;
    // "cheaper than $5" is a price bound, "shorter than 200 pages" a page bound.
    let than = tokens.get(at + len).is_some_and(|t| t.lower == "than");
    (!than).then_some((change, len))
}

/// The index `index` names among `shown` books ("the last" is the last one).
pub(crate) fn resolve(index: usize, shown: &[Shown]) -> Option<usize> {
    if index == LAST {
        shown.len().checked_sub(1)
    } else {
        (index < shown.len()).then_some(index)
    }
}

/// Applies `change` to `request`; `shown` are the books last shown, `index` already resolved.
pub(crate) fn apply(change: Change, request: &mut Request, shown: &[Shown]) {
    match change {
        Change::Shorter => {
            request.length = Some(Length::Short);
            request.min_pages = None;
            if let Some(fewest) = shown.iter().filter_map(|b| b.pages).min() {
                request.max_pages = Some(fewest.saturating_sub(1));
            }
        }
        Change::Longer => {
            request.length = Some(Length::Long);
            request.max_pages = None;
            if let Some(most) = shown.iter().filter_map(|b| b.pages).max() {
                request.min_pages = Some(most.saturating_add(1));
            }
        }
        Change::Cheaper => {
            let cheapest = shown.iter().filter_map(|b| b.price_cents).min();
            request.max_price_cents = Some(match (cheapest, request.max_price_cents) {
                (Some(c), _) => c.saturating_sub(1),
                (None, Some(max)) => max / 2,
                (None, None) => CHEAP_CENTS,
            });
            request.min_price_cents = None;
        }
        Change::Newer => request.recent = true,
        Change::Exclude(index) => {
            if let Some(book) = shown.get(index) {
                push_unique(&mut request.exclude_books, &book.id);
                if request.like_book.as_deref() == Some(book.id.as_str()) {
                    request.like_book = None;
                    request.like_title = None;
                }
            }
        }
        Change::MoreLike(index) => {
            if let Some(book) = shown.get(index) {
                request.like_book = Some(book.id.clone());
                request.like_title = Some(book.title.clone());
                request.title = None;
            }
        }
        Change::Instead => {}
    }
}

#[cfg(test)]
mod tests {
    use super::super::text::tokenize;
    use super::*;

    fn changes(s: &str) -> Vec<Change> {
        parse(&mut tokenize(s)).changes
    }

    #[test]
    fn shown_books_by_place() {
        assert_eq!(changes("not that one"), [Change::Exclude(0)]);
        assert_eq!(changes("not the third one please"), [Change::Exclude(2)]);
        assert_eq!(changes("more like the second"), [Change::MoreLike(1)]);
        assert_eq!(changes("more like number 4"), [Change::MoreLike(3)]);
        assert_eq!(changes("not the last one"), [Change::Exclude(LAST)]);
        assert_eq!(changes("I've read that one"), [Change::Exclude(0)]);
    }

    #[test]
    fn what_is_not_a_shown_book() {
        assert!(changes("not that long").is_empty());
        assert!(changes("not 3 dollars").is_empty());
        assert!(changes("cheaper than $5").is_empty());
        assert!(changes("like that author").is_empty());
    }

    #[test]
    fn cheaper_and_shorter_go_below_what_was_shown() {
        let shown = [
            Shown {
                id: "a".into(),
                title: "A".into(),
                price_cents: Some(800),
                pages: Some(300),
            },
            Shown {
                id: "b".into(),
                title: "B".into(),
                price_cents: Some(450),
                pages: Some(500),
            },
        ];
        let mut request = Request::default();
        apply(Change::Cheaper, &mut request, &shown);
        apply(Change::Shorter, &mut request, &shown);
        assert_eq!(
            (request.max_price_cents, request.max_pages),
            (Some(449), Some(299))
        );
        apply(Change::Cheaper, &mut request, &[]);
        assert_eq!(request.max_price_cents, Some(224));
        assert_eq!(resolve(LAST, &shown), Some(1));
        assert_eq!(resolve(2, &shown), None);
    }
}
