//! What identifies a manuscript's text for the duplicate check: the sha256 of its
//! normalised words (an exact copy, whatever its layout, case or punctuation) and its
//! MinHash signature with the LSH band keys that find near copies.

use quire_analysis::{ChapterText, near_dup, text};
use sha2::{Digest, Sha256};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fingerprint {
    /// Hex sha256 of the words, lowercased, one space apart.
    pub sha256: String,
    pub signature: Vec<u8>,
    pub band_keys: Vec<i64>,
    pub words: usize,
}

/// The fingerprint of the chapters' text (their titles left out: a file name may make
/// them).
pub fn of(chapters: &[ChapterText]) -> Fingerprint {
    let mut hasher = Sha256::new();
    let mut words = 0usize;
    for chapter in chapters {
        for word in text::words(&chapter.text) {
            if words > 0 {
                hasher.update(b" ");
            }
            hasher.update(text::normalise(word).as_bytes());
            words += 1;
        }
    }
    let signature = near_dup::signature_of_parts(chapters.iter().map(|c| c.text.as_str()));
    Fingerprint {
        sha256: hex::encode(hasher.finalize()),
        band_keys: near_dup::band_keys(&signature),
        signature: signature.to_bytes(),
        words,
    }
}

/// How alike two stored signatures are (0..1); unreadable ones are not alike.
pub fn similarity(a: &[u8], b: &[u8]) -> f32 {
    match (
        near_dup::Signature::from_bytes(a),
        near_dup::Signature::from_bytes(b),
    ) {
        (Ok(a), Ok(b)) => near_dup::similarity(&a, &b),
        _ => 0.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chapters(texts: &[&str]) -> Vec<ChapterText> {
        texts
            .iter()
            .map(|t| ChapterText {
                title: String::new(),
                text: (*t).to_owned(),
            })
            .collect()
    }

    #[test]
    fn layout_case_and_punctuation_do_not_change_the_hash() {
        let a = of(&chapters(&["The sea was calm.\n\nThe gulls slept."]));
        let b = of(&chapters(&["the SEA was calm", "The gulls   slept!"]));
        assert_eq!(a.sha256, b.sha256);
        assert_eq!(a.words, 7);
        let c = of(&chapters(&["The sea was rough. The gulls slept."]));
        assert_ne!(a.sha256, c.sha256);
    }

    #[test]
    fn a_lightly_edited_text_is_a_near_copy() {
        let base: Vec<String> = (0..300)
            .map(|i| format!("Sentence {i} tells of the keeper and the lamp by the sea."))
            .collect();
        let mut edited = base.clone();
        edited[10] = "An entirely new sentence about something else.".into();
        edited[200] = "Another line the writer changed on a second pass.".into();
        let a = of(&chapters(&[&base.join(" ")]));
        let b = of(&chapters(&[&edited.join(" ")]));
        assert_ne!(a.sha256, b.sha256);
        assert!(similarity(&a.signature, &b.signature) >= 0.8);
        assert!(a.band_keys.iter().any(|k| b.band_keys.contains(k)));
        assert_eq!(similarity(&a.signature, b"short"), 0.0);
    }
}
