//! The classifier: multinomial naive Bayes over word features, plus a categorical naive
//! Bayes term for each binned style measurement.
//!
//! For a genre g, a text's score is
//!
//! ```text
//! score(g) = ln prior(g) + ( scale * Σ_f count(f) * ln P(f | g)
//!                           + style_weight * Σ_s ln P(level_s | g) ) / temperature
//! ```
//!
//! where f runs over the word features, `scale` = min(1, length_cap / content words)
//! keeps a whole novel from being thousands of times surer than a page, and s runs over
//! the style measurements. Probabilities are the softmax of the scores. Because the score
//! is a sum, every feature's share of it can be shown: [`GenreModel::explain`].

use std::collections::hash_map::Entry;

use quire_genres::{GENRES, genre_id};
use rustc_hash::FxHashMap;

use super::features;
use super::settings::{Settings, TrainingError};
use super::style::{FEATURES, Style, WordTally};
use crate::GenreScore;
use crate::text;

const G: usize = GENRES.len();

/// How many features [`GenreModel::explain`] lists at most.
const EXPLAIN_TOP: usize = 10;

/// A trained genre classifier.
#[derive(Debug, Clone)]
pub struct GenreModel {
    settings: Settings,
    /// Stem of a content word -> its feature id.
    stems: FxHashMap<String, u32>,
    /// (feature id, feature id) of two neighbouring content words -> the pair's feature id.
    pairs: FxHashMap<(u32, u32), u32>,
    /// ln P(feature | genre), by feature id.
    word_log_lik: Vec<[f32; G]>,
    /// ln P(level | genre), by style feature, then level.
    style_log_lik: Vec<Vec<[f32; G]>>,
}

/// What a text shows the model.
struct Observation<'a> {
    /// Feature id -> how often it occurs and how it was first written.
    features: FxHashMap<u32, Seen<'a>>,
    /// Content words, known to the model or not.
    content_words: usize,
    style: Style,
}

struct Seen<'a> {
    count: f32,
    first: &'a str,
    second: Option<&'a str>,
}

impl GenreModel {
    /// Trains on (genre, text) examples with the default settings. Genre names go
    /// through the same synonyms as hints.
    pub fn train(examples: &[(&str, &str)]) -> Result<Self, TrainingError> {
        Self::train_with(examples, Settings::default())
    }

    /// Trains on (genre, text) examples with the given settings.
    pub fn train_with(
        examples: &[(&str, &str)],
        settings: Settings,
    ) -> Result<Self, TrainingError> {
        settings.validate()?;
        let labelled = examples
            .iter()
            .map(|&(genre, text)| {
                genre_id(genre)
                    .map(|id| (id, text))
                    .ok_or_else(|| TrainingError::UnknownGenre(genre.to_owned()))
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Self::fit(&labelled, settings))
    }

    /// Trains on (genre id, text) examples; `settings` must be valid.
    pub(super) fn fit(examples: &[(usize, &str)], settings: Settings) -> Self {
        let mut stems: FxHashMap<String, u32> = FxHashMap::default();
        let mut docs = Vec::with_capacity(examples.len());
        for &(genre, text) in examples {
            let mut tally = WordTally::default();
            let mut ids = Vec::new();
            features::walk(text, &mut tally, |_, lower| {
                let next = stems.len() as u32;
                ids.push(*stems.entry(features::stem(lower)).or_insert(next));
            });
            docs.push((genre, ids, Style::measure(text, &tally)));
        }

        let mut pair_counts: FxHashMap<(u32, u32), u32> = FxHashMap::default();
        for (_, ids, _) in &docs {
            for w in ids.windows(2) {
                *pair_counts.entry((w[0], w[1])).or_default() += 1;
            }
        }
        let mut kept: Vec<(u32, u32)> = pair_counts
            .into_iter()
            .filter(|&(_, n)| n >= settings.min_pair_count)
            .map(|(pair, _)| pair)
            .collect();
        kept.sort_unstable();
        let first_pair_id = stems.len();
        let pairs: FxHashMap<(u32, u32), u32> = kept
            .into_iter()
            .enumerate()
            .map(|(i, pair)| (pair, (first_pair_id + i) as u32))
            .collect();

        let mut counts = vec![[0f32; G]; first_pair_id + pairs.len()];
        let mut totals = [0f32; G];
        for (genre, ids, _) in &docs {
            let pair_ids = ids.windows(2).filter_map(|w| pairs.get(&(w[0], w[1])));
            for &id in ids.iter().chain(pair_ids) {
                counts[id as usize][*genre] += 1.0;
                totals[*genre] += 1.0;
            }
        }
        let alpha = settings.smoothing;
        let vocabulary = counts.len() as f32;
        let word_log_lik = counts
            .iter()
            .map(|row| {
                std::array::from_fn(|g| ((row[g] + alpha) / (totals[g] + alpha * vocabulary)).ln())
            })
            .collect();

        let style_log_lik = FEATURES
            .iter()
            .enumerate()
            .map(|(i, feature)| {
                let levels = feature.levels.len();
                let mut seen = vec![[0f32; G]; levels];
                let mut measured = [0f32; G];
                for (genre, _, style) in &docs {
                    if let Some(value) = style.values[i] {
                        seen[feature.level(value)][*genre] += 1.0;
                        measured[*genre] += 1.0;
                    }
                }
                seen.iter()
                    .map(|row| {
                        std::array::from_fn(|g| {
                            ((row[g] + 1.0) / (measured[g] + levels as f32)).ln()
                        })
                    })
                    .collect()
            })
            .collect();

        GenreModel {
            settings,
            stems,
            pairs,
            word_log_lik,
            style_log_lik,
        }
    }

    /// Genre probabilities for `text`, best first, summing to 1. `hint` is the writer's
    /// own genre (any synonym); it raises that genre's prior to `hint_prior`, and is
    /// ignored when it names no genre of the taxonomy.
    pub fn classify(&self, text: &str, hint: Option<&str>) -> Vec<GenreScore> {
        let scores = self.scores(&self.observe(text), hint.and_then(genre_id));
        let top = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let weights: Vec<f64> = scores.iter().map(|s| (s - top).exp()).collect();
        let total: f64 = weights.iter().sum();
        let mut out: Vec<GenreScore> = GENRES
            .iter()
            .zip(&weights)
            .map(|(genre, w)| GenreScore {
                genre: (*genre).to_owned(),
                probability: (w / total) as f32,
            })
            .collect();
        out.sort_by(|a, b| b.probability.total_cmp(&a.probability));
        out
    }

    /// The features of `text` that pushed it towards `genre` most, strongest first, with
    /// how much each added to that genre's score compared with the average genre (in
    /// nats, after scaling and temperature). Words are shown as written in the text
    /// (lowercased), style measurements with their level and value. Empty when `genre` is
    /// not in the taxonomy or nothing in the text favours it.
    pub fn explain(&self, text: &str, genre: &str) -> Vec<(String, f32)> {
        let Some(g) = genre_id(genre) else {
            return Vec::new();
        };
        let observation = self.observe(text);
        let word_factor = self.word_scale(observation.content_words) / self.settings.temperature;
        let lift = |row: &[f32; G]| row[g] - row.iter().sum::<f32>() / G as f32;
        let words = observation.features.iter().map(|(&id, seen)| {
            let name = match seen.second {
                Some(second) => {
                    features::pair_name(&text::normalise(seen.first), &text::normalise(second))
                }
                None => text::normalise(seen.first).into_owned(),
            };
            (
                name,
                seen.count * word_factor * lift(&self.word_log_lik[id as usize]),
            )
        });
        let style_factor = self.settings.style_weight / self.settings.temperature;
        let style = observation.style.levels().filter_map(|(i, level)| {
            let (level, value) = (level?, observation.style.values[i]?);
            let name = format!("style: {}", FEATURES[i].describe(value));
            Some((name, style_factor * lift(&self.style_log_lik[i][level])))
        });
        let mut out: Vec<(String, f32)> = words.chain(style).filter(|(_, c)| *c > 0.0).collect();
        out.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        out.truncate(EXPLAIN_TOP);
        out
    }

    /// Scores (log posterior up to a constant) by genre id.
    fn scores(&self, observation: &Observation, hint: Option<usize>) -> [f64; G] {
        let mut words = [0f64; G];
        for (&id, seen) in &observation.features {
            let row = &self.word_log_lik[id as usize];
            for (sum, ll) in words.iter_mut().zip(row) {
                *sum += f64::from(seen.count * ll);
            }
        }
        let scale = f64::from(self.word_scale(observation.content_words));
        let style_weight = f64::from(self.settings.style_weight);
        let temperature = f64::from(self.settings.temperature);
        let priors = self.priors(hint);
        std::array::from_fn(|g| {
            let style: f64 = observation
                .style
                .levels()
                .filter_map(|(i, level)| level.map(|l| f64::from(self.style_log_lik[i][l][g])))
                .sum();
            (scale * words[g] + style_weight * style) / temperature + priors[g].ln()
        })
    }

    fn priors(&self, hint: Option<usize>) -> [f64; G] {
        match hint {
            Some(h) => {
                let hinted = f64::from(self.settings.hint_prior);
                let other = (1.0 - hinted) / (G - 1) as f64;
                std::array::from_fn(|g| if g == h { hinted } else { other })
            }
            None => [1.0 / G as f64; G],
        }
    }

    fn word_scale(&self, content_words: usize) -> f32 {
        if content_words == 0 {
            return 0.0;
        }
        (self.settings.length_cap / content_words as f32).min(1.0)
    }

    fn observe<'a>(&self, text: &'a str) -> Observation<'a> {
        let mut tally = WordTally::default();
        // Stemming is the costly step; a book repeats its words, so each spelling is
        // looked up once.
        let mut known: FxHashMap<&'a str, Option<u32>> = FxHashMap::default();
        let mut features: FxHashMap<u32, Seen<'a>> = FxHashMap::default();
        let mut previous: Option<(u32, &'a str)> = None;
        let mut content_words = 0;
        features::walk(text, &mut tally, |raw, lower| {
            content_words += 1;
            let id = *known
                .entry(raw)
                .or_insert_with(|| self.stems.get(&features::stem(lower)).copied());
            let Some(id) = id else {
                previous = None;
                return;
            };
            see(&mut features, id, raw, None);
            if let Some((before, before_raw)) = previous
                && let Some(&pair) = self.pairs.get(&(before, id))
            {
                see(&mut features, pair, before_raw, Some(raw));
            }
            previous = Some((id, raw));
        });
        Observation {
            features,
            content_words,
            style: Style::measure(text, &tally),
        }
    }
}

fn see<'a>(
    features: &mut FxHashMap<u32, Seen<'a>>,
    id: u32,
    first: &'a str,
    second: Option<&'a str>,
) {
    match features.entry(id) {
        Entry::Occupied(mut e) => e.get_mut().count += 1.0,
        Entry::Vacant(e) => {
            e.insert(Seen {
                count: 1.0,
                first,
                second,
            });
        }
    }
}
