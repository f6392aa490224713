//! Genre classification: which genres of the platform's taxonomy (quire-genres) a text
//! reads like, with probabilities, and which of its words and stylistic traits say so.
//!
//! The model is multinomial naive Bayes over stemmed content words and pairs of
//! neighbouring content words, plus binned style measurements (dialogue, verse lines,
//! quantities with units, "you", "I", dates, exclamations, sentence and word length); see
//! [`GenreModel`]. It is trained, on first use, from the labelled passages compiled into
//! the crate (`data/genres/train`, written for Quire; `data/genres/README.md` says how,
//! and how accurate the model is on the held-out `data/genres/test`). Training is
//! deterministic: the same passages always give the same model.
//!
//! The writer's own genre is a prior, not the answer: it raises the hinted genre's prior
//! probability from 1/18 to one half (odds of 17 to 1 against each other genre), so a
//! text that clearly belongs elsewhere still goes elsewhere.

pub mod corpus;
mod features;
mod model;
mod settings;
mod style;

use std::sync::OnceLock;

pub use crate::GenreScore;
pub use model::GenreModel;
pub use settings::{Settings, TrainingError};

/// Genre probabilities for `text`, best first, summing to 1. `hint` is the genre the
/// writer chose (case-insensitive, synonyms such as "sci-fi", "humor", "kids" or "YA"
/// accepted); it is ignored when it names no genre of [`quire_genres::GENRES`]. An empty
/// text gives the prior: uniform, or the hint's.
pub fn classify(text: &str, hint: Option<&str>) -> Vec<GenreScore> {
    built_in().classify(text, hint)
}

/// The words and style traits of `text` that pushed it most towards `genre`, strongest
/// first, each with its share of the score in nats (see [`GenreModel::explain`]).
pub fn explain(text: &str, genre: &str) -> Vec<(String, f32)> {
    built_in().explain(text, genre)
}

/// The model trained on the built-in passages, trained once, on first use.
pub fn built_in() -> &'static GenreModel {
    static MODEL: OnceLock<GenreModel> = OnceLock::new();
    MODEL.get_or_init(|| GenreModel::fit(&corpus::indexed_training_set(), Settings::default()))
}
