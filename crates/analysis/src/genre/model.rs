//! The classifier: multinomial naive Bayes over word features, plus a categorical naive
//! Bayes term for each binned style measurement, read passage by passage.
//!
//! A text is read as passages about as long as the training passages (see
//! [`super::passages`]; a short text is one passage). A passage p's evidence for genre g
//! is
//!
//! ```text
//! e_p(g) = ( scale_p * Σ_f w(f) * (1 + ln count_p(f)) * ln P(f | g)
//!            + style_weight * Σ_s ln P(level_s,p | g) ) / temperature
//! ```
//!
//! where f runs over the passage's word features, w(f) is the feature's inverse document
//! frequency in the training passages (scaled to average 1; words every genre writes
//! weigh less), a feature repeated in a passage counts 1 + ln of its count, `scale_p` =
//! min(1, length_cap / content words) (a passage longer than the training passages is no
//! surer than one), and s runs over the style measurements of that same passage. The
//! text's score is
//!
//! ```text
//! score(g) = ln prior(g) + mean_p e_p(g)
//! ```
//!
//! so words and style keep their relative weight at any length, every passage read has
//! its say, and the probabilities (the softmax of the scores) are as sure as a typical
//! passage: the temperature is fitted so that a passage's probabilities are calibrated
//! (`tests/genre_cross_validation.rs`). Because the score is a sum, every feature's and
//! every passage's share of it can be shown: [`GenreModel::explain`],
//! [`GenreModel::judge`].

use std::collections::hash_map::Entry;
use std::ops::Range;

use quire_genres::{GENRES, genre_id};
use rustc_hash::FxHashMap;

use super::era::Era;
use super::features;
use super::form::Form;
use super::passages;
use super::settings::{Settings, TrainingError};
use super::style::{FEATURES, Style, WordTally};
use crate::text;
use crate::{GenreEvidence, GenreFeature, GenrePassage, GenreScore};

const G: usize = GENRES.len();

/// How many features [`GenreModel::explain`] lists at most.
const EXPLAIN_TOP: usize = 10;

/// How many passages a judgement shows at most.
const PASSAGES_SHOWN: usize = 3;

/// Words of a passage's excerpt.
const EXCERPT_WORDS: usize = 30;

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
    /// The weight of each feature's occurrences, by feature id: its inverse document
    /// frequency in the training passages.
    word_weight: Vec<f32>,
    /// ln P(level | genre), by style feature, then level.
    style_log_lik: Vec<Vec<[f32; G]>>,
}

/// The genre of a text, and why (see [`GenreModel::judge`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Judgement {
    /// The genre: the writer's, unless the text clearly says otherwise (see
    /// [`GenreModel::judge`]), else the most probable.
    pub genre: String,
    /// Every genre's probability, best first, summing to 1.
    pub scores: Vec<GenreScore>,
    /// What decided it. Its passages' `chapter` is 0 and their `offset` a byte offset
    /// into the text judged.
    pub evidence: GenreEvidence,
}

/// What one passage shows the model.
struct Observation<'a> {
    /// Where the passage is in the text.
    range: Range<usize>,
    /// Feature id -> how often it occurs and how it was first written.
    features: FxHashMap<u32, Seen<'a>>,
    /// Content words, known to the model or not.
    content_words: usize,
    style: Style,
}

/// What a text shows the model: its passages, and its form.
struct Reading<'a> {
    passages: Vec<Observation<'a>>,
    form: Form,
    /// The period of its English, from the passages read.
    era: Era,
}

struct Seen<'a> {
    count: f32,
    first: &'a str,
    second: Option<&'a str>,
}

impl Seen<'_> {
    /// What a feature seen `count` times in one passage counts for: 1 + ln count, so a
    /// word a writer repeats ("king", "said") is heard, and not heard ten times over.
    fn weight(&self) -> f32 {
        1.0 + self.count.ln()
    }
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
        // A feature's weight is its inverse document frequency (in how few training
        // passages it occurs), scaled so that the average word of the training passages
        // weighs 1: "said" and "know", which every genre writes, count for less than
        // "recipe" or "spaceship" (the IDF weighting of Rennie et al., 2003).
        let mut passages_with = vec![0f32; counts.len()];
        for (_, ids, _) in &docs {
            let pair_ids = ids.windows(2).filter_map(|w| pairs.get(&(w[0], w[1])));
            let mut seen: Vec<u32> = ids.iter().chain(pair_ids).copied().collect();
            seen.sort_unstable();
            seen.dedup();
            for id in seen {
                passages_with[id as usize] += 1.0;
            }
        }
        let n_passages = docs.len() as f32;
        let mut word_weight: Vec<f32> = passages_with
            .iter()
            .map(|n| ((n_passages + 1.0) / (n + 1.0)).ln())
            .collect();
        let occurrences: f32 = totals.iter().sum();
        let mean_weight = counts
            .iter()
            .zip(&word_weight)
            .map(|(row, w)| row.iter().sum::<f32>() * w)
            .sum::<f32>()
            / occurrences.max(1.0);
        if mean_weight > 0.0 {
            for w in &mut word_weight {
                *w /= mean_weight;
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

        let beta = settings.style_smoothing;
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
                            ((row[g] + beta) / (measured[g] + beta * levels as f32)).ln()
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
            word_weight,
            style_log_lik,
        }
    }

    /// Genre probabilities for `text`, best first, summing to 1. `hint` is the writer's
    /// own genre (any synonym); it raises that genre's prior to `hint_prior`, and is
    /// ignored when it names no genre of the taxonomy.
    pub fn classify(&self, text: &str, hint: Option<&str>) -> Vec<GenreScore> {
        let reading = self.read(text);
        let evidence = self.evidence(&reading);
        ranked(&posterior(
            &evidence,
            &self.priors(hint.and_then(genre_id), &reading.era),
        ))
    }

    /// The genre of `text` with `hint` as the writer's genre (see [`Self::classify`]),
    /// and why: whether the hint was kept or overruled, the passages that spoke most for
    /// the genre and the words and style traits that pushed it.
    ///
    /// The hint is a prior: the writer's genre has `hint_prior` of the probability before
    /// the text is read (odds of 17 to 1 against each other genre at the default 0.5).
    /// It is kept unless the text clearly says otherwise: another genre must come out at
    /// least `hint_margin` times as probable as the writer's (3 by default, so the text
    /// must favour it by odds of 51 to 1). Then the hint is overruled, and the evidence
    /// compares the two: the passages and features that favour the text's genre over the
    /// writer's.
    pub fn judge(&self, text: &str, hint: Option<&str>) -> Judgement {
        let reading = self.read(text);
        let per_passage: Vec<[f64; G]> = reading
            .passages
            .iter()
            .map(|o| self.passage_evidence(o))
            .collect();
        let evidence = mean(&per_passage);
        let hint = hint.and_then(genre_id);
        let probabilities = posterior(&evidence, &self.priors(hint, &reading.era));
        let best = argmax(&probabilities);
        let margin = f64::from(self.settings.hint_margin);
        let overruled = hint.filter(|&h| probabilities[best] >= margin * probabilities[h]);
        // The genre: the writer's unless overruled, else the most probable.
        let top = match hint {
            Some(h) if overruled.is_none() => h,
            _ => best,
        };
        let scores = ranked(&probabilities);
        let n = reading.passages.len();
        if n == 0 {
            return Judgement {
                genre: GENRES[top].to_owned(),
                scores,
                evidence: GenreEvidence {
                    hint: hint.map(|h| GENRES[h].to_owned()),
                    reason: match hint {
                        Some(h) => format!(
                            "The text has no words to read: the writer's genre, {}, stands.",
                            GENRES[h]
                        ),
                        None => "The text has no words to read.".to_owned(),
                    },
                    ..GenreEvidence::default()
                },
            };
        }
        // What the genre is measured against: the writer's genre when it was overruled,
        // else the average genre.
        let lift = |row: &[f32; G]| match overruled {
            Some(h) => row[top] - row[h],
            None => row[top] - row.iter().sum::<f32>() / G as f32,
        };
        let mut passages: Vec<(f64, GenrePassage)> = reading
            .passages
            .iter()
            .zip(&per_passage)
            .map(|(o, e)| {
                let margin = match overruled {
                    Some(h) => e[top] - e[h],
                    None => e[top] - e.iter().sum::<f64>() / G as f64,
                };
                let alone = posterior(e, &[1.0 / G as f64; G]);
                (
                    margin,
                    GenrePassage {
                        chapter: 0,
                        offset: o.range.start,
                        excerpt: excerpt(&text[o.range.clone()]),
                        probability: alone[top] as f32,
                    },
                )
            })
            .collect();
        passages.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.offset.cmp(&b.1.offset)));
        let agreeing = per_passage.iter().filter(|e| argmax(e) == top).count();
        let features = self
            .contributions(&reading, lift)
            .into_iter()
            .map(|(feature, weight)| GenreFeature { feature, weight })
            .collect();
        let p = |g: usize| 100.0 * probabilities[g];
        let leaning = format!(
            "{agreeing} of the {n} passages read lean to {}",
            GENRES[top]
        );
        let reason = match (hint, overruled) {
            (Some(h), Some(_)) => format!(
                "The writer's genre, {}, is overruled: the text reads clearly as {} ({:.0}%, \
                 against {:.0}% for {}); {leaning}.",
                GENRES[h],
                GENRES[top],
                p(top),
                p(h),
                GENRES[h],
            ),
            (Some(h), None) if best != h => format!(
                "The writer's genre, {}, is kept ({:.0}%): the text leans to {} ({:.0}%), but \
                 not clearly enough to overrule it; {leaning}.",
                GENRES[h],
                p(h),
                GENRES[best],
                p(best),
            ),
            (Some(h), None) => format!(
                "The writer's genre, {}, is kept ({:.0}%): the text reads as it too; {leaning}.",
                GENRES[h],
                p(h),
            ),
            (None, _) => format!(
                "The text reads as {} ({:.0}%); {leaning}.",
                GENRES[top],
                p(top)
            ),
        };
        // The period moved the prior of every genre but the writer's: say so where the
        // text, not the writer, decided.
        let reason = match reading.era.explain() {
            Some(era) if hint.is_none() || overruled.is_some() => format!("{reason} {era}"),
            _ => reason,
        };
        Judgement {
            genre: GENRES[top].to_owned(),
            scores,
            evidence: GenreEvidence {
                hint: hint.map(|h| GENRES[h].to_owned()),
                hint_overruled: overruled.is_some(),
                reason,
                passages_read: n,
                play: reading.form == Form::Play,
                passages: passages
                    .into_iter()
                    .take(PASSAGES_SHOWN)
                    .map(|(_, p)| p)
                    .collect(),
                features,
            },
        }
    }

    /// The features of `text` that pushed it towards `genre` most, strongest first, with
    /// how much each added to that genre's score compared with the average genre (in
    /// nats, after scaling and temperature, averaged over the passages read). Words are
    /// shown as written in the text (lowercased), style measurements with their level and
    /// value (in how many passages, for a text of several). Empty when `genre` is not in
    /// the taxonomy or nothing in the text favours it.
    pub fn explain(&self, text: &str, genre: &str) -> Vec<(String, f32)> {
        let Some(g) = genre_id(genre) else {
            return Vec::new();
        };
        let reading = self.read(text);
        self.contributions(&reading, |row: &[f32; G]| {
            row[g] - row.iter().sum::<f32>() / G as f32
        })
    }

    /// Each feature's share of the score (by `lift` of its log-likelihood row), averaged
    /// over the passages, the strongest positive ones first.
    fn contributions(
        &self,
        reading: &Reading,
        lift: impl Fn(&[f32; G]) -> f32,
    ) -> Vec<(String, f32)> {
        let n = reading.passages.len();
        if n == 0 {
            return Vec::new();
        }
        let per = 1.0 / n as f32;
        let mut words: FxHashMap<u32, (f32, &Seen)> = FxHashMap::default();
        // (feature, level) -> (share, passages, value of the first).
        let mut style: FxHashMap<(usize, usize), (f32, usize, f32)> = FxHashMap::default();
        let style_factor = self.settings.style_weight / self.settings.temperature;
        for o in &reading.passages {
            let word_factor = self.word_scale(o.content_words) / self.settings.temperature;
            for (&id, seen) in &o.features {
                let share = per
                    * seen.weight()
                    * self.word_weight[id as usize]
                    * word_factor
                    * lift(&self.word_log_lik[id as usize]);
                words.entry(id).or_insert((0.0, seen)).0 += share;
            }
            for (i, level) in o.style.levels() {
                let (Some(level), Some(value)) = (level, o.style.values[i]) else {
                    continue;
                };
                let share = per * style_factor * lift(&self.style_log_lik[i][level]);
                let entry = style.entry((i, level)).or_insert((0.0, 0, value));
                entry.0 += share;
                entry.1 += 1;
            }
        }
        let words = words.into_values().map(|(share, seen)| {
            let name = match seen.second {
                Some(second) => {
                    features::pair_name(&text::normalise(seen.first), &text::normalise(second))
                }
                None => text::normalise(seen.first).into_owned(),
            };
            (name, share)
        });
        let style = style.into_iter().map(|((i, level), (share, k, value))| {
            let name = if n == 1 {
                format!("style: {}", FEATURES[i].describe(value))
            } else {
                format!(
                    "style: {}: {} (in {k} of {n} passages)",
                    FEATURES[i].name, FEATURES[i].levels[level]
                )
            };
            (name, share)
        });
        let mut out: Vec<(String, f32)> = words.chain(style).filter(|(_, c)| *c > 0.0).collect();
        out.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        out.truncate(EXPLAIN_TOP);
        out
    }

    /// The text's evidence by genre id: the mean of its passages' evidence (zero for a
    /// text without passages).
    fn evidence(&self, reading: &Reading) -> [f64; G] {
        let per_passage: Vec<[f64; G]> = reading
            .passages
            .iter()
            .map(|o| self.passage_evidence(o))
            .collect();
        mean(&per_passage)
    }

    /// One passage's evidence by genre id (log-likelihoods, scaled and tempered).
    fn passage_evidence(&self, o: &Observation) -> [f64; G] {
        let mut words = [0f64; G];
        for (&id, seen) in &o.features {
            let row = &self.word_log_lik[id as usize];
            for (sum, ll) in words.iter_mut().zip(row) {
                *sum += f64::from(seen.weight() * self.word_weight[id as usize] * ll);
            }
        }
        let scale = f64::from(self.word_scale(o.content_words));
        let style_weight = f64::from(self.settings.style_weight);
        let temperature = f64::from(self.settings.temperature);
        std::array::from_fn(|g| {
            let style: f64 = o
                .style
                .levels()
                .filter_map(|(i, level)| level.map(|l| f64::from(self.style_log_lik[i][l][g])))
                .sum();
            (scale * words[g] + style_weight * style) / temperature
        })
    }

    /// The prior: uniform, or the writer's genre at `hint_prior` and the others sharing
    /// the rest; then moved by the text's period (see [`Era`]), except the writer's genre,
    /// which the writer chose knowing the book.
    fn priors(&self, hint: Option<usize>, era: &Era) -> [f64; G] {
        let base: [f64; G] = match hint {
            Some(h) => {
                let hinted = f64::from(self.settings.hint_prior);
                let other = (1.0 - hinted) / (G - 1) as f64;
                std::array::from_fn(|g| if g == h { hinted } else { other })
            }
            None => [1.0 / G as f64; G],
        };
        let moved: [f64; G] = std::array::from_fn(|g| {
            if Some(g) == hint {
                base[g]
            } else {
                base[g] * era.prior_factor(g)
            }
        });
        let total: f64 = moved.iter().sum();
        moved.map(|p| p / total)
    }

    fn word_scale(&self, content_words: usize) -> f32 {
        if content_words == 0 {
            return 0.0;
        }
        (self.settings.length_cap / content_words as f32).min(1.0)
    }

    /// Cuts `text` into passages, finds its form and observes each passage.
    fn read<'a>(&self, text: &'a str) -> Reading<'a> {
        let ranges = passages::sample(
            text,
            self.settings.passage_words as usize,
            self.settings.max_passages as usize,
        );
        let form = Form::detect(ranges.iter().map(|r| &text[r.clone()]));
        // Stemming is the costly step; a book repeats its words, so each spelling is
        // sorted out and looked up once for all its passages.
        let mut reader = features::Reader::default();
        let mut known: FxHashMap<&'a str, Option<u32>> = FxHashMap::default();
        let passages: Vec<Observation> = ranges
            .into_iter()
            .map(|range| {
                let reading = form.reading(&text[range.clone()]);
                let mut tally = WordTally::default();
                let mut features: FxHashMap<u32, Seen<'a>> = FxHashMap::default();
                let mut previous: Option<(u32, &'a str)> = None;
                let mut content_words = 0;
                for piece in &reading.pieces {
                    reader.walk(piece, &mut tally, |raw, lower| {
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
                }
                let speeches = (form == Form::Play).then_some(reading.speeches);
                Observation {
                    range,
                    features,
                    content_words,
                    style: Style::measure_pieces(&reading.pieces, speeches, &tally),
                }
            })
            .collect();
        let era = Era::of(passages.iter().map(|o| &text[o.range.clone()]));
        Reading {
            passages,
            form,
            era,
        }
    }
}

/// The mean of the passages' evidence (zero without passages).
fn mean(per_passage: &[[f64; G]]) -> [f64; G] {
    let mut total = [0f64; G];
    for e in per_passage {
        for (t, v) in total.iter_mut().zip(e) {
            *t += v;
        }
    }
    let n = per_passage.len().max(1) as f64;
    total.map(|t| t / n)
}

/// The posterior probabilities of evidence under priors.
fn posterior(evidence: &[f64; G], priors: &[f64; G]) -> [f64; G] {
    let scores: [f64; G] = std::array::from_fn(|g| evidence[g] + priors[g].ln());
    let top = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let weights = scores.map(|s| (s - top).exp());
    let total: f64 = weights.iter().sum();
    weights.map(|w| w / total)
}

/// The genre with the highest value (the first of equals).
fn argmax(values: &[f64; G]) -> usize {
    let mut best = 0;
    for (g, v) in values.iter().enumerate() {
        if *v > values[best] {
            best = g;
        }
    }
    best
}

/// Probabilities by genre id as scores, best first.
fn ranked(probabilities: &[f64; G]) -> Vec<GenreScore> {
    let mut out: Vec<GenreScore> = GENRES
        .iter()
        .zip(probabilities)
        .map(|(genre, p)| GenreScore {
            genre: (*genre).to_owned(),
            probability: *p as f32,
        })
        .collect();
    out.sort_by(|a, b| b.probability.total_cmp(&a.probability));
    out
}

/// The first words of a passage, on one line.
fn excerpt(passage: &str) -> String {
    let mut words = passage.split_whitespace();
    let mut out: Vec<&str> = words.by_ref().take(EXCERPT_WORDS).collect();
    if words.next().is_some() {
        out.push("\u{2026}");
    }
    out.join(" ")
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
