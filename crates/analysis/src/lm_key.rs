//! How the language model names its entries, shared by the build script that trains it
//! (`build.rs` includes this file) and the code that reads it, so both agree byte for byte.
//! Changing anything here retrains the model at the next build.

use std::hash::Hasher;

use siphasher::sip::SipHasher13;

/// Fixed SipHash keys for model entries (arbitrary constants).
const KEYS: (u64, u64) = (0x4c4d_5f77_6f72_6473, 0x5175_6972_655f_4c4d);

/// The token before a sentence's first word.
pub const SENTENCE_START: &str = "<s>";
/// The token after a sentence's last word (only the build script writes it).
#[allow(dead_code)]
pub const SENTENCE_END: &str = "</s>";
/// The token every word with a digit becomes.
pub const NUMBER: &str = "<num>";

/// The form the model knows a word by: lowercase, any word with a digit as [`NUMBER`].
/// `lower` is the word's normalised (lowercase) form.
pub fn model_word(lower: &str) -> &str {
    if lower.chars().any(|c| c.is_ascii_digit()) {
        NUMBER
    } else {
        lower
    }
}

/// The key of a word (see [`model_word`]).
pub fn word_key(word: &str) -> u64 {
    let mut h = SipHasher13::new_with_keys(KEYS.0, KEYS.1);
    h.write(word.as_bytes());
    h.finish()
}

/// The key of a word pair, from the two word keys.
pub fn pair_key(first: u64, second: u64) -> u64 {
    let mut h = SipHasher13::new_with_keys(KEYS.0, KEYS.1);
    h.write_u64(first);
    h.write_u64(second);
    h.finish()
}

/// Magic bytes opening the model file.
pub const MAGIC: &[u8; 4] = b"QLM1";
/// Bytes per unigram entry: key u64, count u32, distinct predecessors u32, distinct
/// successors u32 (all little-endian).
pub const UNIGRAM_BYTES: usize = 20;
/// Bytes per bigram entry: key u64, count u32.
pub const BIGRAM_BYTES: usize = 12;
/// Bytes of the header: magic, then total tokens, distinct bigrams, unigram entries and
/// bigram entries as u64.
pub const HEADER_BYTES: usize = 4 + 4 * 8;
