//! The knobs of the genre model, and why training can fail.

use std::fmt;

/// The knobs of the model. The defaults were chosen by cross-validation on the training
/// passages (see `tests/genre_cross_validation.rs`), never on the test passages.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Settings {
    /// Additive (Lidstone) smoothing of the word counts.
    pub smoothing: f32,
    /// A pair of neighbouring words becomes a feature when it occurs this often in training.
    pub min_pair_count: u32,
    /// Weight of each style measurement relative to the words.
    pub style_weight: f32,
    /// Content words beyond this many add no further certainty (they still vote).
    pub length_cap: f32,
    /// Divides the evidence before the prior is added; above 1 it softens overconfident
    /// naive Bayes probabilities (calibrated by cross-validated log loss).
    pub temperature: f32,
    /// Prior probability of the writer's own genre (the other genres share the rest
    /// equally); without a usable hint the prior is uniform.
    pub hint_prior: f32,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            smoothing: 3.0,
            min_pair_count: 2,
            style_weight: 1.5,
            length_cap: 150.0,
            temperature: 2.0,
            hint_prior: 0.5,
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
    /// Checks that every setting is in its range: smoothing, length cap and temperature
    /// positive, style weight not negative, hint prior strictly between 0 and 1.
    pub fn validate(&self) -> Result<(), TrainingError> {
        let positive = |v: f32| v.is_finite() && v > 0.0;
        let checks = [
            ("smoothing", positive(self.smoothing)),
            ("length_cap", positive(self.length_cap)),
            ("temperature", positive(self.temperature)),
            (
                "style_weight",
                self.style_weight.is_finite() && self.style_weight >= 0.0,
            ),
            ("hint_prior", self.hint_prior > 0.0 && self.hint_prior < 1.0),
        ];
        match checks.iter().find(|(_, ok)| !ok) {
            Some((name, _)) => Err(TrainingError::InvalidSetting(name)),
            None => Ok(()),
        }
    }
}
