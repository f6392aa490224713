//! Genre classification: which genres of the platform's taxonomy (quire-genres) a text
//! reads like, with probabilities, and which of its passages, words and stylistic traits
//! say so.
//!
//! The model is multinomial naive Bayes over stemmed content words and pairs of
//! neighbouring content words, plus binned style measurements (dialogue, verse lines,
//! quantities with units, "you", "I", dates, exclamations, sentence and word length); see
//! [`GenreModel`]. It is trained, on first use, from the labelled passages compiled into
//! the crate (`data/genres/train`, written for Quire; `data/genres/README.md` says how,
//! and how accurate the model is on the held-out `data/genres/test` and on real books).
//! Training is deterministic: the same passages always give the same model.
//!
//! A text is read as passages about as long as the training passages, at most 64 of them
//! spread evenly over the whole text; each passage is scored on its own words and its own
//! style, and the text's evidence is the mean of its passages' (so words and style keep
//! their weight at any length, and no page decides alone). A play (speakers' names before
//! the speeches, stage directions between them) is read as its speeches, not as verse.
//! The temperature that calibrates the probabilities was fitted by cross-validation on
//! the training passages.
//!
//! The prior follows the period of the text's English (`genre/era.rs`): a book written in the
//! English of an earlier century is seldom shelved as Young Adult and often as Literary
//! Fiction, so those two priors move for it (never the writer's own genre).
//!
//! The writer's own genre is a prior, not the answer: it raises the hinted genre's prior
//! probability from 1/18 to one half (odds of 17 to 1 against each other genre), and it is
//! kept unless the text makes another genre at least three times as probable as it: a
//! clear margin. [`judge`] says which happened, and why.

pub mod corpus;
mod era;
mod features;
mod form;
mod model;
mod passages;
mod settings;
mod style;

use std::sync::OnceLock;

// The quality scores judge a text within its kind with the same readings of its form.
pub use crate::{GenreEvidence, GenreFeature, GenrePassage, GenreScore};
pub(crate) use form::Form;
pub use model::{GenreModel, Judgement};
pub use settings::{Settings, TrainingError};
pub(crate) use style::is_verse;

/// Genre probabilities for `text`, best first, summing to 1. `hint` is the genre the
/// writer chose (case-insensitive, synonyms such as "sci-fi", "humor", "kids" or "YA"
/// accepted); it is ignored when it names no genre of [`quire_genres::GENRES`]. An empty
/// text gives the prior: uniform, or the hint's.
pub fn classify(text: &str, hint: Option<&str>) -> Vec<GenreScore> {
    built_in().classify(text, hint)
}

/// The genre of `text` with `hint` as the writer's genre, and why: whether the hint was
/// kept or overruled, and the passages, words and style traits that decided it (see
/// [`GenreModel::judge`]).
pub fn judge(text: &str, hint: Option<&str>) -> Judgement {
    built_in().judge(text, hint)
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
