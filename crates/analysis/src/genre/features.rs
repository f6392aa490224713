//! Word features: content words (stop words, numbers and single letters removed),
//! lowercased, without possessive endings and stemmed, so "Recipes" and "recipe" are one
//! feature; and pairs of neighbouring content words ("olive oil", "detective inspector").
//! Tokenising, stop words and stemming come from [`crate::text`].

use std::borrow::Cow;

use rustc_hash::FxHashMap;

use super::style::{WordKind, WordTally};
use crate::text;

/// Function words of older English that the platform's stop words (modern English) lack:
/// they tell a text's age, not its genre ("hath", "'tis", "whence"). Sorted.
#[rustfmt::skip]
const OLD_FUNCTION_WORDS: &[&str] = &[
    "'tis", "'twas", "'twere", "'twill", "canst", "couldst", "didst", "dost", "doth", "e'en",
    "e'er", "ere", "hadst", "hast", "hath", "hence", "hither", "mayst", "methinks", "nay",
    "ne'er", "o'er", "oft", "shalt", "shouldst", "thence", "thither", "tis", "twas", "whence",
    "wherefore", "whilst", "whither", "wilt", "wouldst", "yea",
];

/// Walks the words of `text` once: every word goes into `tally` (for the style
/// measurements), and each content word is handed to `content` as (the word as written,
/// its normalised form), in reading order.
pub fn walk<'a>(text: &'a str, tally: &mut WordTally, content: impl FnMut(&'a str, &str)) {
    Reader::default().walk(text, tally, content);
}

/// Walks texts word by word, remembering what it found out about each spelling, so that
/// the passages of one book sort out each of its spellings once.
#[derive(Default)]
pub struct Reader<'a> {
    spellings: FxHashMap<&'a str, Spelling<'a>>,
}

impl<'a> Reader<'a> {
    /// As [`walk`], with the spellings of earlier walks remembered.
    pub fn walk(
        &mut self,
        text: &'a str,
        tally: &mut WordTally,
        mut content: impl FnMut(&'a str, &str),
    ) {
        for raw in text::words(text) {
            let spelling = self
                .spellings
                .entry(raw)
                .or_insert_with(|| Spelling::of(raw));
            tally.add(spelling.kind);
            if let Some(lower) = &spelling.content {
                content(raw, lower);
            }
        }
    }
}

/// What a walk needs to know about one spelling.
struct Spelling<'a> {
    kind: WordKind,
    /// The normalised form, for content words only.
    content: Option<Cow<'a, str>>,
}

impl<'a> Spelling<'a> {
    fn of(raw: &'a str) -> Self {
        let lower = text::normalise(raw);
        Spelling {
            kind: WordKind::of(raw, &lower),
            content: is_content(&lower).then_some(lower),
        }
    }
}

/// The stem a content word's normalised form is counted under.
pub fn stem(lower: &str) -> String {
    text::stem(text::strip_possessive(lower))
}

/// The name a bigram feature is shown under.
pub fn pair_name(first: &str, second: &str) -> String {
    format!("{first} {second}")
}

fn is_content(lower: &str) -> bool {
    lower.chars().nth(1).is_some()
        && text::is_alphabetic_word(lower)
        && !text::is_stop_word(lower)
        && OLD_FUNCTION_WORDS.binary_search(&lower).is_err()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn content(text: &str) -> Vec<String> {
        let mut out = Vec::new();
        walk(text, &mut WordTally::default(), |_, lower| {
            out.push(stem(lower))
        });
        out
    }

    #[test]
    fn old_function_words_are_sorted_and_left_out() {
        assert!(OLD_FUNCTION_WORDS.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(
            content("'Tis true, he hath a Sword, whence it came."),
            vec!["true", "sword", "came"]
        );
    }

    #[test]
    fn keeps_stemmed_content_words_only() {
        assert_eq!(
            content("The Detective's recipes, and 200 g of the recipe! I said: don't."),
            vec!["detect", "recip", "recip", "said"]
        );
        assert!(content("").is_empty());
        assert!(content("a I 42 x").is_empty());
    }
}
