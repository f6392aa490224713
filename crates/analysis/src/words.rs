//! The English word list of the spelling check: SCOWL's American English list as Debian's
//! `wamerican` ships it (see data/words/COPYRIGHT), possessives left out, byte-sorted,
//! decompressed into the binary at build time.
//!
//! Lookups binary-search the embedded text in place: no index, no start-up cost.

use quire_english::WordList;

static WORDS: WordList = WordList::new(include_str!(concat!(env!("OUT_DIR"), "/words.txt")));

/// Whether `word` is in the list as written (proper nouns are listed capitalised).
pub(crate) fn contains(word: &str) -> bool {
    WORDS.contains(word)
}

/// Whether `word` is an English word: listed as written, or in lowercase, with
/// typographic apostrophes made plain and possessives stripped.
pub(crate) fn is_known(word: &str) -> bool {
    let base = crate::text::strip_possessive(word);
    if contains(base) {
        return true;
    }
    let lower = crate::text::normalise(base);
    lower != base && contains(&lower)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_list_is_byte_sorted_and_large() {
        assert!(WORDS.is_sorted());
        assert!(
            include_str!(concat!(env!("OUT_DIR"), "/words.txt"))
                .lines()
                .count()
                > 70_000
        );
    }

    #[test]
    fn words_are_found_in_any_case_and_misspellings_are_not() {
        for word in [
            "whale",
            "Whales",
            "walked",
            "Nantucket",
            "happily",
            "The",
            "Ahab’s",
        ] {
            assert!(is_known(word), "{word}");
        }
        // A proper noun needs its capital.
        for word in ["recieve", "teh", "", "whaleq", "nantucket"] {
            assert!(!is_known(word), "{word}");
        }
        assert!(contains("a") && !contains("\n"));
    }
}
