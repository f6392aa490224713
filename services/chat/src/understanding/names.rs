//! Authors and titles: "by Agatha Christie", "\"The Long Winter\"", "books like Dune",
//! "something similar to The Hobbit", "the one called Moonfleet". A name runs from its cue
//! to the end of the phrase (punctuation, or a word that starts a constraint: "under",
//! "but", "set", "for"...) and keeps the reader's spelling. "like" is a cue only after a
//! word that asks for more of something ("books like", "something like") or at the start,
//! so "I'd like a mystery" names nothing. "I loved The Salt Witch" (a book the reader
//! loved, named with capitals or quotes, and no genre: "I loved Fantasy" asks for
//! fantasy) asks for books like it, never the book itself. A capitalised name keeps its
//! small words ("Letters to the Lighthouse") while a capitalised word follows them.

use super::request::Request;
use super::text::{Kind, Token, mark_used};

const LIKE_CUES: &[&str] = &[
    "books",
    "book",
    "something",
    "anything",
    "stuff",
    "novels",
    "ones",
    "similar",
    "reads",
    "things",
    "titles",
    "more",
    "else",
];
const SIMILAR: &[&str] = &[
    "similar to",
    "in the vein of",
    "in the style of",
    "along the lines of",
    "reminiscent of",
];
const CALLED: &[&str] = &["called", "titled", "named", "entitled"];
/// Saying a book was loved: after "I" (or "really", "just"), a book to find more like.
const LOVED: &[&str] = &[
    "loved", "enjoyed", "liked", "adored", "love", "enjoy", "adore",
];
const LOVED_BY: &[&str] = &["i", "i've", "we", "really", "just", "so", "also", "totally"];
/// Small words a capitalised title keeps when a capitalised word comes after them
/// ("Letters to the Lighthouse", "Murder at Mill Lane").
const TITLE_JOINS: &[&str] = &["to", "of", "in", "at", "on", "from", "for", "with"];

/// Words that end a name: they start a constraint or another part of the request.
const NAME_ENDS: &[&str] = &[
    "under",
    "below",
    "less",
    "cheaper",
    "over",
    "above",
    "for",
    "that",
    "which",
    "with",
    "and",
    "or",
    "but",
    "please",
    "not",
    "no",
    "set",
    "about",
    "in",
    "from",
    "published",
    "cheap",
    "free",
    "short",
    "shorter",
    "long",
    "longer",
    "new",
    "recent",
    "only",
    "though",
    "without",
    "thanks",
    "thank",
    "if",
    "is",
    "are",
    "was",
    "i",
    "i'm",
    "so",
    "maybe",
    "nothing",
    "except",
    "to",
    "at",
    "on",
    "again",
    "too",
    "instead",
    "ones",
    "books",
    "book",
    "novels",
    "stories",
    "something",
    "anything",
    "pls",
    "plz",
    "now",
    "then",
    "either",
    "ever",
    "yet",
];
/// A name is at most this many words (longer runs are a sentence, not a name).
const MAX_NAME_WORDS: usize = 6;

/// Finds authors and titles in `tokens` and sets them on `request`.
pub(crate) fn parse(tokens: &mut [Token], request: &mut Request) {
    for i in 0..tokens.len() {
        if tokens[i].used {
            continue;
        }
        if tokens[i].kind == Kind::Quoted {
            let title = tokens[i].text.clone();
            tokens[i].used = true;
            if like_cue_before(tokens, i) {
                request.like_title = Some(title);
            } else {
                request.title = Some(title);
            }
            continue;
        }
        let word = tokens[i].lower.as_str();
        if word == "by" && request.author.is_none() {
            if let Some((name, len)) = name_after(tokens, i + 1, true) {
                request.author = Some(name);
                mark_used(tokens, i, 1 + len);
            }
        } else if word == "like" && like_cue_at(tokens, i) {
            if let Some((name, len)) = name_after(tokens, i + 1, false) {
                request.like_title = Some(name);
                mark_used(tokens, i, 1 + len);
            }
        } else if LOVED.contains(&word) && loved_cue_at(tokens, i) {
            if let Some((name, len)) = name_after(tokens, i + 1, false)
                && !opens_with_genre(&name)
            {
                request.like_title = Some(name);
                mark_used(tokens, i, 1 + len);
            }
        } else if CALLED.contains(&word) {
            if let Some((name, len)) = name_after(tokens, i + 1, false) {
                request.title = Some(name);
                mark_used(tokens, i, 1 + len);
            }
        } else if let Some(cue_len) = SIMILAR
            .iter()
            .filter_map(|p| super::text::phrase_at(tokens, i, p))
            .max()
            && let Some((name, len)) = name_after(tokens, i + cue_len, false)
        {
            request.like_title = Some(name);
            mark_used(tokens, i, cue_len + len);
        }
    }
}

/// Whether the "like" at `at` asks for similar books: at the start, after a cue word, or
/// opening a phrase before a capitalised or quoted name (", like a keeper" names nothing).
fn like_cue_at(tokens: &[Token], at: usize) -> bool {
    at == 0
        || (tokens[at - 1].kind == Kind::Break && named_at(tokens, at + 1))
        || LIKE_CUES.contains(&tokens[at - 1].lower.as_str())
}

/// Whether the "loved" at `at` says a book was loved: after "I" and before a capitalised
/// or quoted name.
fn loved_cue_at(tokens: &[Token], at: usize) -> bool {
    at > 0 && LOVED_BY.contains(&tokens[at - 1].lower.as_str()) && named_at(tokens, at + 1)
}

/// Whether a name starts at `at`: a quoted title or a capitalised word.
fn named_at(tokens: &[Token], at: usize) -> bool {
    tokens.get(at).is_some_and(|t| {
        t.kind == Kind::Quoted || t.text.chars().next().is_some_and(char::is_uppercase)
    })
}

/// Whether the first words of `name` name a genre ("Fantasy as a kid").
fn opens_with_genre(name: &str) -> bool {
    let words: Vec<String> = name.split_whitespace().map(str::to_lowercase).collect();
    (1..=words.len().min(3)).any(|n| super::topics::genre_of(&words[..n].join(" ")).is_some())
}

/// Whether a quoted title at `at` follows a similarity cue ("like", "similar to").
fn like_cue_before(tokens: &[Token], at: usize) -> bool {
    at > 0
        && matches!(tokens[at - 1].lower.as_str(), "like" | "to" | "of")
        && (tokens[at - 1].lower != "like" || like_cue_at(tokens, at - 1))
}

/// The name starting at `at` and its length in tokens. Authors refuse a leading article
/// ("by the sea" is no author).
fn name_after(tokens: &[Token], at: usize, author: bool) -> Option<(String, usize)> {
    let first = tokens.get(at)?;
    if first.used {
        return None;
    }
    if first.kind == Kind::Quoted {
        return Some((first.text.clone(), 1));
    }
    if author
        && matches!(
            first.lower.as_str(),
            "the" | "a" | "an" | "my" | "myself" | "me"
        )
    {
        return None;
    }
    // "I" is capitalised and names nothing ("like Dune for I ...").
    let capital = |t: &Token| {
        t.text.chars().next().is_some_and(char::is_uppercase)
            && t.lower != "i"
            && !t.lower.starts_with("i'")
    };
    let titled = capital(first);
    let mut words: Vec<&Token> = Vec::new();
    for (i, t) in tokens.iter().enumerate().skip(at) {
        if t.used || !matches!(t.kind, Kind::Word | Kind::Number) || words.len() == MAX_NAME_WORDS {
            break;
        }
        if NAME_ENDS.contains(&t.lower.as_str()) {
            // "to the Lighthouse": kept when a capitalised word follows the small words.
            let joins = titled && TITLE_JOINS.contains(&t.lower.as_str());
            let next = tokens[i + 1..]
                .iter()
                .find(|n| !matches!(n.lower.as_str(), "the" | "a" | "an"));
            if !(joins && next.is_some_and(|n| n.kind == Kind::Word && !n.used && capital(n))) {
                break;
            }
        }
        words.push(t);
    }
    if words.is_empty() {
        return None;
    }
    let name = words
        .iter()
        .map(|t| t.text.as_str())
        .collect::<Vec<_>>()
        .join(" ");
    Some((name, words.len()))
}

#[cfg(test)]
mod tests {
    use super::super::test_support::run;
    use super::*;

    fn parsed(s: &str) -> Request {
        run(s, false, parse)
    }

    #[test]
    fn authors_after_by_keep_their_spelling_and_stop_at_constraints() {
        assert_eq!(
            parsed("something by Terry Pratchett under $5")
                .author
                .as_deref(),
            Some("Terry Pratchett")
        );
        assert_eq!(
            parsed("anything by le Carr\u{e9}, please")
                .author
                .as_deref(),
            Some("le Carr\u{e9}")
        );
        assert_eq!(parsed("a book to read by the sea").author, None);
    }

    #[test]
    fn like_names_a_book_only_after_a_cue() {
        assert_eq!(
            parsed("books like The Hobbit but shorter")
                .like_title
                .as_deref(),
            Some("The Hobbit")
        );
        assert_eq!(parsed("Like Dune").like_title.as_deref(), Some("Dune"));
        assert_eq!(parsed("I'd like a mystery").like_title, None);
        assert_eq!(parsed("a loner, like a keeper").like_title, None);
        assert_eq!(
            parsed("something like Murder at Mill Lane for my mum")
                .like_title
                .as_deref(),
            Some("Murder at Mill Lane")
        );
        assert_eq!(
            parsed("similar to Rebecca").like_title.as_deref(),
            Some("Rebecca")
        );
    }

    #[test]
    fn a_loved_book_named_with_capitals_asks_for_more_like_it() {
        assert_eq!(
            parsed("I loved Letters to the Lighthouse, what else would I like?")
                .like_title
                .as_deref(),
            Some("Letters to the Lighthouse")
        );
        assert_eq!(
            parsed("I really enjoyed \"The Salt Witch\"")
                .like_title
                .as_deref(),
            Some("The Salt Witch")
        );
        assert_eq!(parsed("I loved Fantasy as a kid").like_title, None);
        assert_eq!(parsed("I loved it").like_title, None);
        assert_eq!(parsed("i love cosy mysteries").like_title, None);
    }

    #[test]
    fn quoted_titles() {
        assert_eq!(
            parsed("do you have \"The Long Winter\"?").title.as_deref(),
            Some("The Long Winter")
        );
        assert_eq!(
            parsed("more like \u{201c}Emma\u{201d}")
                .like_title
                .as_deref(),
            Some("Emma")
        );
        assert_eq!(
            parsed("the one called Moonfleet").title.as_deref(),
            Some("Moonfleet")
        );
    }
}
