//! The knobs of the genre model, and why training can fail.

use std::fmt;

/// The knobs of the model. The defaults were chosen by cross-validation on the training
/// passages (see `tests/genre_cross_validation.rs`, which also fits the temperature) and,
/// for what only matters for whole books (style weight and smoothing), on the `tune`
/// split of the real books (`data/real_books`); never on the test passages.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Settings {
    /// Additive (Lidstone) smoothing of the word counts.
    pub smoothing: f32,
    /// A pair of neighbouring words becomes a feature when it occurs this often in training.
    pub min_pair_count: u32,
    /// Weight of each style measurement relative to the words.
    pub style_weight: f32,
    /// Additive smoothing of the style levels' counts: each level of each measurement
    /// starts at this many training passages of every genre, so that a level a genre's
    /// few passages happen never to show is unlikely for it, not nearly impossible.
    pub style_smoothing: f32,
    /// Content words of a passage beyond this many add no further certainty (they still
    /// vote).
    pub length_cap: f32,
    /// Words of a passage: a longer text is read as passages of about this many words
    /// (see `genre::passages`), each scored on its own words and style.
    pub passage_words: u32,
    /// Passages read at most, spread evenly over the text; their evidence is averaged.
    pub max_passages: u32,
    /// Divides each passage's evidence before the prior is added; above 1 it softens
    /// overconfident naive Bayes probabilities (fitted to the lowest cross-validated log
    /// loss of the training passages).
    pub temperature: f32,
    /// Prior probability of the writer's own genre (the other genres share the rest
    /// equally); without a usable hint the prior is uniform.
    pub hint_prior: f32,
    /// The writer's genre is overruled only when the text makes another genre at least
    /// this many times as probable as it (after the prior): a clear margin, not a hair.
    pub hint_margin: f32,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            smoothing: 3.0,
            min_pair_count: 2,
            style_weight: 2.0,
            style_smoothing: 6.0,
            length_cap: 150.0,
            passage_words: 200,
            max_passages: 64,
            temperature: 1.45,
            hint_prior: 0.5,
            hint_margin: 3.0,
        }
    }
}

/// Why a model could not be trained.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TrainingError {
    /// An example is labelled with a genre that is not in the taxonomy.
    UnknownGenre(String),
    /// A setting is out of its range (named).
    InvalidSetting(&'static str),
}

impl fmt::Display for TrainingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TrainingError::UnknownGenre(genre) => write!(f, "unknown genre: {genre:?}"),
            TrainingError::InvalidSetting(name) => write!(f, "setting out of range: {name}"),
        }
    }
}

impl std::error::Error for TrainingError {}

impl Settings {
    /// Checks that every setting is in its range: both smoothings, length cap, temperature,
    /// passage words and passages positive, style weight not negative, hint prior strictly
    /// between 0 and 1, hint margin at least 1.
    pub fn validate(&self) -> Result<(), TrainingError> {
        let positive = |v: f32| v.is_finite() && v > 0.0;
        let checks = [
            ("smoothing", positive(self.smoothing)),
            ("style_smoothing", positive(self.style_smoothing)),
            ("length_cap", positive(self.length_cap)),
            ("temperature", positive(self.temperature)),
            (
                "style_weight",
                self.style_weight.is_finite() && self.style_weight >= 0.0,
            ),
            ("hint_prior", self.hint_prior > 0.0 && self.hint_prior < 1.0),
            (
                "hint_margin",
                self.hint_margin.is_finite() && self.hint_margin >= 1.0,
            ),
            ("passage_words", self.passage_words > 0),
            ("max_passages", self.max_passages > 0),
        ];
        match checks.iter().find(|(_, ok)| !ok) {
            Some((name, _)) => Err(TrainingError::InvalidSetting(name)),
            None => Ok(()),
        }
    }
}
