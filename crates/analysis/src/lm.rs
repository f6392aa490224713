//! The language model of the AI check: an interpolated Kneser-Ney word bigram model
//! trained at build time (see `build.rs`) on public-domain human prose (State of the
//! Union addresses 1910-1979 and The Devil's Dictionary; see data/lm/SOURCES.md).
//!
//! The model stays in the binary as sorted tables searched in place, so using it costs
//! no start-up time and no heap. Its word counts double as a reference frequency list
//! for keyword extraction.

use std::sync::OnceLock;

use crate::lm_key::{self, BIGRAM_BYTES, HEADER_BYTES, MAGIC, UNIGRAM_BYTES};

static MODEL_BYTES: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/lm.bin"));

/// Kneser-Ney discount.
const DISCOUNT: f64 = 0.75;
/// Pseudo-count of a word's predecessors, so words the model never saw keep some mass.
const UNSEEN: f64 = 0.5;

/// A view of the embedded model.
pub(crate) struct Model {
    unigrams: &'static [u8],
    bigrams: &'static [u8],
    total: u64,
    bigram_types: u64,
    vocabulary: u64,
    start: u64,
}

/// What the model knows about one word; look it up once per distinct word with
/// [`Model::word`], then score pairs with [`Model::surprisal`].
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Word {
    key: u64,
    /// Times the training text used the word.
    pub count: u32,
    predecessors: u32,
    successors: u32,
}

/// The embedded model (an empty one if the embedded bytes were somehow malformed, which a
/// unit test rules out).
pub(crate) fn model() -> &'static Model {
    static MODEL: OnceLock<Model> = OnceLock::new();
    MODEL.get_or_init(|| Model::parse(MODEL_BYTES))
}

impl Model {
    fn parse(bytes: &'static [u8]) -> Model {
        let header = |i: usize| read_u64(bytes, 4 + 8 * i);
        let (uni_n, bi_n) = (header(2) as usize, header(3) as usize);
        let uni_end = HEADER_BYTES + uni_n * UNIGRAM_BYTES;
        let bi_end = uni_end + bi_n * BIGRAM_BYTES;
        let valid = bytes.starts_with(MAGIC) && bytes.len() == bi_end;
        Model {
            unigrams: if valid {
                &bytes[HEADER_BYTES..uni_end]
            } else {
                &[]
            },
            bigrams: if valid { &bytes[uni_end..bi_end] } else { &[] },
            total: if valid { header(0) } else { 0 },
            bigram_types: if valid { header(1) } else { 0 },
            vocabulary: if valid { uni_n as u64 } else { 0 },
            start: lm_key::word_key(lm_key::SENTENCE_START),
        }
    }

    /// Words the model was trained on.
    pub fn total_words(&self) -> u64 {
        self.total
    }

    /// How often the training text used a (lowercase) word.
    pub fn count(&self, lower: &str) -> u32 {
        self.word(lower).count
    }

    /// The token before a sentence's first word.
    pub fn sentence_start(&self) -> Word {
        self.unigram(self.start)
    }

    /// What the model knows about a lowercase word.
    pub fn word(&self, lower: &str) -> Word {
        self.unigram(lm_key::word_key(lm_key::model_word(lower)))
    }

    /// Surprisal in bits of `word` right after `previous`.
    pub fn surprisal(&self, previous: &Word, word: &Word) -> f64 {
        let continuation = (f64::from(word.predecessors) + UNSEEN)
            / (self.bigram_types as f64 + UNSEEN * (self.vocabulary as f64 + 1.0));
        let p = if previous.count == 0 {
            continuation
        } else {
            let seen_together = previous.successors > 0 && word.predecessors > 0;
            let pair = if seen_together {
                f64::from(self.bigram(lm_key::pair_key(previous.key, word.key)))
            } else {
                0.0
            };
            let context = f64::from(previous.count);
            (pair - DISCOUNT).max(0.0) / context
                + DISCOUNT * f64::from(previous.successors) / context * continuation
        };
        // The floor only matters for a malformed model; real probabilities are far above it.
        -p.max(1e-12).log2()
    }

    fn unigram(&self, key: u64) -> Word {
        match search(self.unigrams, UNIGRAM_BYTES, key) {
            Some(at) => Word {
                key,
                count: read_u32(self.unigrams, at + 8),
                predecessors: read_u32(self.unigrams, at + 12),
                successors: read_u32(self.unigrams, at + 16),
            },
            None => Word {
                key,
                ..Word::default()
            },
        }
    }

    fn bigram(&self, key: u64) -> u32 {
        search(self.bigrams, BIGRAM_BYTES, key).map_or(0, |at| read_u32(self.bigrams, at + 8))
    }
}

/// Byte offset of the entry with `key` in a table of `width`-byte entries sorted by key.
/// Keys are SipHash values, spread evenly over all of u64, so interpolating the position
/// finds an entry in a handful of probes instead of the ~17 of a binary search.
fn search(table: &[u8], width: usize, key: u64) -> Option<usize> {
    let (mut low, mut high) = (0usize, table.len() / width);
    while low < high {
        let (first, last) = (
            read_u64(table, low * width),
            read_u64(table, (high - 1) * width),
        );
        if key < first || key > last {
            return None;
        }
        let span = (high - 1 - low) as u128;
        let mid = if last == first {
            low
        } else {
            low + (u128::from(key - first) * span / u128::from(last - first)) as usize
        };
        let k = read_u64(table, mid * width);
        match k.cmp(&key) {
            std::cmp::Ordering::Less => low = mid + 1,
            std::cmp::Ordering::Greater => high = mid,
            std::cmp::Ordering::Equal => return Some(mid * width),
        }
    }
    None
}

fn read_u64(bytes: &[u8], at: usize) -> u64 {
    bytes
        .get(at..at + 8)
        .and_then(|b| b.try_into().ok())
        .map_or(0, u64::from_le_bytes)
}

fn read_u32(bytes: &[u8], at: usize) -> u32 {
    bytes
        .get(at..at + 4)
        .and_then(|b| b.try_into().ok())
        .map_or(0, u32::from_le_bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_model_is_well_formed() {
        let m = model();
        assert!(m.total_words() > 400_000, "{}", m.total_words());
        assert!(m.count("the") > 20_000);
        assert!(m.count("congress") > 100);
        assert_eq!(m.count("zzzqx"), 0);
    }

    #[test]
    fn common_continuations_are_less_surprising() {
        let m = model();
        let of = m.word("of");
        let the = m.word("the");
        let common = m.surprisal(&of, &the);
        let rare = m.surprisal(&of, &m.word("tariff"));
        let unknown = m.surprisal(&of, &m.word("zzzqx"));
        assert!(common < rare && rare < unknown, "{common} {rare} {unknown}");
        assert!(common > 0.0 && unknown.is_finite());
        let cold = m.surprisal(&m.word("zzzqx"), &the);
        assert!(cold.is_finite() && cold > 0.0);
        let opening = m.surprisal(&m.sentence_start(), &the);
        assert!(opening < m.surprisal(&m.sentence_start(), &m.word("tariff")));
    }

    #[test]
    fn a_strong_collocation_is_likely() {
        let m = model();
        let p_states = (-m.surprisal(&m.word("united"), &m.word("states"))).exp2();
        assert!(p_states > 0.5 && p_states < 1.0, "{p_states}");
    }

    #[test]
    fn every_entry_is_found_by_interpolation() {
        let m = model();
        for table in [(m.unigrams, UNIGRAM_BYTES), (m.bigrams, BIGRAM_BYTES)] {
            let (bytes, width) = table;
            for i in (0..bytes.len() / width).step_by(97) {
                let key = read_u64(bytes, i * width);
                assert_eq!(search(bytes, width, key), Some(i * width));
                assert_eq!(
                    search(bytes, width, key.wrapping_add(1)).is_some(),
                    read_u64(bytes, (i + 1) * width) == key.wrapping_add(1)
                );
            }
        }
        assert_eq!(search(&[], 12, 5), None);
    }

    #[test]
    fn malformed_bytes_give_an_empty_model() {
        let m = Model::parse(b"nope");
        assert_eq!(m.total_words(), 0);
        assert!(m.surprisal(&m.word("a"), &m.word("b")).is_finite());
    }
}
