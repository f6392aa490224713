//! The English a text is written in: of today, or of an earlier century. It moves the
//! genre prior the way a bookshop's shelves do. Young Adult is a publishers' shelf of the
//! 1960s and after, so a book written in the English of the nineteenth century is almost
//! never shelved there (a school story or a girl's coming of age from then goes to
//! Children or Literary Fiction). And the fiction of those centuries that is still read
//! is mostly shelved as Literary Fiction (the "classics").
//!
//! The measure is how often the text uses forms that were common then and are rare now:
//! "upon", "whilst", "amongst", "shall", "thee", "thou", "hath", "'tis", "ere", ... per
//! 1,000 words. The threshold was set between the two halves of the genre training set
//! (`data/genres`), not on any book: the passages written in present-day English use
//! 0.1 of these per 1,000 words, those written in nineteenth-century English 8.4. A text
//! counts as period English in full at [`FULL`] per 1,000 words or more, not at all at
//! [`NONE`] or less, in between in proportion. A short text says little: the judgement
//! grows to full weight over the first [`SURE_AFTER_WORDS`] words, so a single passage
//! (one "upon" in 100 words) barely moves the prior.
//!
//! The size of the shift ([`PERIOD_PRIOR`]) was chosen on the `tune` split of the real
//! books (`data/real_books`): Young Adult's prior divided by 20 and Literary Fiction's
//! doubled (tripling it was no better).

use quire_genres::genre_id;

use crate::text;

/// Rare-today forms, lowercase, sorted (binary search).
const MARKERS: [&str; 25] = [
    "'tis",
    "amongst",
    "dost",
    "doth",
    "ere",
    "hath",
    "hither",
    "methinks",
    "nay",
    "o'er",
    "oft",
    "perchance",
    "shall",
    "shalt",
    "thee",
    "thine",
    "thither",
    "thou",
    "thy",
    "upon",
    "whence",
    "wherefore",
    "whilst",
    "whither",
    "wilt",
];

/// Markers per 1,000 words at or below which a text is of today.
pub const NONE: f32 = 0.5;
/// Markers per 1,000 words at or above which a text is period English in full.
pub const FULL: f32 = 1.5;
/// Words after which the measure is trusted in full.
pub const SURE_AFTER_WORDS: f32 = 2_000.0;

/// How a period text's prior moves: each genre's prior is multiplied by its factor
/// raised to the text's period weight (0 to 1), then the priors are normalised.
pub const PERIOD_PRIOR: [(&str, f64); 2] = [("Young Adult", 0.05), ("Literary Fiction", 2.0)];

/// What the text's English says about its period.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Era {
    /// Rare-today forms per 1,000 words.
    pub per_thousand: f32,
    /// Words read.
    pub words: usize,
}

impl Era {
    /// Counts the markers in `pieces` (the passages read).
    pub fn of<'a>(pieces: impl IntoIterator<Item = &'a str>) -> Self {
        let (mut words, mut markers) = (0usize, 0usize);
        for piece in pieces {
            for word in text::words(piece) {
                words += 1;
                let lower = text::normalise(word);
                if MARKERS.binary_search(&lower.as_ref()).is_ok() {
                    markers += 1;
                }
            }
        }
        let per_thousand = if words == 0 {
            0.0
        } else {
            1000.0 * markers as f32 / words as f32
        };
        Era {
            per_thousand,
            words,
        }
    }

    /// How much the text is period English, 0 (of today, or too short to say) to 1.
    pub fn weight(&self) -> f32 {
        let level = ((self.per_thousand - NONE) / (FULL - NONE)).clamp(0.0, 1.0);
        let sure = (self.words as f32 / SURE_AFTER_WORDS).min(1.0);
        level * sure
    }

    /// The factor on genre `g`'s prior (1 for a text of today).
    pub fn prior_factor(&self, g: usize) -> f64 {
        let weight = f64::from(self.weight());
        PERIOD_PRIOR
            .iter()
            .find(|(name, _)| genre_id(name) == Some(g))
            .map_or(1.0, |(_, factor)| factor.powf(weight))
    }

    /// One sentence for the writer when the period moved the prior, else `None`.
    pub fn explain(&self) -> Option<String> {
        (self.weight() >= 0.5).then(|| {
            format!(
                "It is written in the English of an earlier century ({:.1} forms such as \
                 \"upon\", \"shall\" and \"whilst\" per 1,000 words), so Young Adult is \
                 taken as unlikely and Literary Fiction as likelier, as a bookshop \
                 shelves such books.",
                self.per_thousand
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quire_genres::genre_id;

    #[test]
    fn markers_are_sorted_for_binary_search() {
        assert!(MARKERS.windows(2).all(|w| w[0] < w[1]), "{MARKERS:?}");
    }

    #[test]
    fn period_english_moves_the_prior_and_present_day_english_does_not() {
        let old = "I shall wait upon the lady whilst thou art abroad, and ere long \
                   we shall see what hath come of it. "
            .repeat(150);
        let new = "She texted her friend after school and they walked to the mall, \
                   laughing about the test they had taken that morning. "
            .repeat(150);
        let ya = genre_id("Young Adult").unwrap();
        let lf = genre_id("Literary Fiction").unwrap();
        let romance = genre_id("Romance").unwrap();
        let old = Era::of([old.as_str()]);
        assert_eq!(old.weight(), 1.0);
        assert!((old.prior_factor(ya) - 0.05).abs() < 1e-9);
        assert!((old.prior_factor(lf) - 2.0).abs() < 1e-9);
        assert_eq!(old.prior_factor(romance), 1.0);
        assert!(old.explain().is_some());
        let new = Era::of([new.as_str()]);
        assert_eq!(new.weight(), 0.0);
        assert_eq!(new.prior_factor(ya), 1.0);
        assert!(new.explain().is_none());
    }

    #[test]
    fn a_short_text_barely_moves_the_prior() {
        let era = Era::of(["Upon my word, he said, I shall go."]);
        assert!(era.per_thousand > FULL);
        assert!(era.weight() < 0.01, "{}", era.weight());
    }
}
