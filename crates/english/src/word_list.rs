//! Sorted word lists kept as text (one word per line, byte order), embedded with
//! `include_str!` and binary-searched in place: no start-up cost, no heap. The stop words
//! of this crate are one; quire-analysis keeps its own lists (titles, abbreviations, ...)
//! the same way.

use std::cmp::Ordering;

/// A sorted, newline-separated word list.
#[derive(Clone, Copy)]
pub struct WordList(&'static str);

impl WordList {
    /// The list in `text`, which must be byte-sorted (each list's unit test checks, with
    /// [`WordList::is_sorted`]).
    pub const fn new(text: &'static str) -> Self {
        WordList(text)
    }

    /// Whether `word` is a line of the list.
    pub fn contains(&self, word: &str) -> bool {
        let bytes = self.0.as_bytes();
        let (mut low, mut high) = (0usize, bytes.len());
        while low < high {
            let mid = low + (high - low) / 2;
            let start = bytes[..mid]
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |p| p + 1);
            let end = bytes[start..]
                .iter()
                .position(|&b| b == b'\n')
                .map_or(bytes.len(), |p| start + p);
            match bytes[start..end].cmp(word.as_bytes()) {
                Ordering::Equal => return !word.is_empty(),
                Ordering::Less => low = end + 1,
                Ordering::Greater => high = start,
            }
        }
        false
    }

    /// The words of the list, in order.
    pub fn words(&self) -> impl Iterator<Item = &'static str> {
        self.0.lines()
    }

    /// Whether the lines are strictly increasing in byte order (so search works).
    pub fn is_sorted(&self) -> bool {
        let lines: Vec<&str> = self.0.lines().collect();
        !lines.is_empty() && lines.windows(2).all(|w| w[0].as_bytes() < w[1].as_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_line_and_nothing_else_is_found() {
        let list = WordList::new("apple\nbanana\ncherry\n");
        assert!(list.is_sorted());
        for word in ["apple", "banana", "cherry"] {
            assert!(list.contains(word), "{word}");
        }
        for word in ["", "a", "applf", "banan", "zebra", "cherry\n"] {
            assert!(!list.contains(word), "{word:?}");
        }
        assert!(!WordList::new("b\na\n").is_sorted());
        assert!(!WordList::new("").contains("a"));
    }
}
