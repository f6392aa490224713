//! quire-english: the English the platform's text handling shares. One list of stop words
//! (`data/stop_words.txt`: function words that carry no topic, "the", "of", "would",
//! "don't"), used by the manuscript analysis (quire-analysis), the shop's search
//! (quire-book-search) and the assistant (quire-chat), and [`WordList`], the sorted
//! embedded list it is kept in.
//!
//! A part that must drop more words (the assistant drops "book" and "recommend", words of
//! any request) keeps that domain list itself, on top of this one: this list holds only
//! English, nothing of a domain.
//!
//! It must never do I/O or allocate to answer: the list is compiled in
//! (`include_str!`) and searched in place, the same answer in every process.
#![forbid(unsafe_code)]

mod word_list;

pub use word_list::WordList;

/// English function words, lowercase with plain apostrophes (`data/stop_words.txt`).
pub static STOP_WORDS: WordList = WordList::new(include_str!("../data/stop_words.txt"));

/// Whether a lowercase word (typographic apostrophes made plain) is an English stop word:
/// a function word that carries no topic ("the", "of", "would", "don't").
pub fn is_stop_word(lower: &str) -> bool {
    STOP_WORDS.contains(lower)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stop_words_are_sorted_lowercase_single_words() {
        assert!(STOP_WORDS.is_sorted());
        for word in STOP_WORDS.words() {
            assert!(!word.is_empty() && word.trim() == word, "{word:?}");
            assert_eq!(word.to_lowercase(), word);
            assert!(
                word.chars().all(|c| c.is_alphabetic() || c == '\''),
                "{word:?}"
            );
        }
    }

    #[test]
    fn function_words_are_stop_words_and_topic_words_are_not() {
        for word in ["the", "of", "would", "don't", "and", "upon"] {
            assert!(is_stop_word(word), "{word}");
        }
        for word in ["whale", "book", "mystery", "", "The", "don’t"] {
            assert!(!is_stop_word(word), "{word}");
        }
    }
}
