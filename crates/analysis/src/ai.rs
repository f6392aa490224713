//! The advisory AI check: how likely a text is machine-written, and the signals behind it.
//!
//! The text is cut into windows of whole sentences of about [`WINDOW_WORDS`] words (the
//! length of the labelled passages the model was fitted on), each window gets the
//! [`features`] and a logistic model turns them into a probability; a chapter's and the
//! whole text's probability are the means over their windows, and the reported signals
//! are the mean feature values. How the model was fitted, and its accuracy on held-out
//! passages, is in data/ai_check/README.md.

mod features;
mod weights;

use serde::Serialize;

use crate::doc::Doc;

/// Windows hold whole sentences up to at least this many words.
pub const WINDOW_WORDS: usize = 200;
/// Texts with fewer words are too short to judge.
pub const MIN_WORDS: usize = 30;
/// What every result says about itself.
pub const NOTICE: &str = "This check is advisory: it estimates from statistical signals whether the text reads as machine-written, it can be wrong in both directions (especially on short or heavily edited texts), and it is never proof of how a text was written.";

/// The result of the AI check.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AiCheck {
    /// Probability (0..=1) that the text is machine-written.
    pub probability: f32,
    /// Short verdict, e.g. "likely human-written".
    pub verdict: &'static str,
    /// The signals the probability rests on.
    pub signals: Vec<Signal>,
    /// Per chapter, when the check ran on a whole manuscript.
    pub chapters: Vec<ChapterAiCheck>,
    /// Says the check is advisory and can be wrong.
    pub notice: &'static str,
}

/// One measured signal.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Signal {
    /// Stable machine key.
    pub key: &'static str,
    /// Human label.
    pub label: &'static str,
    /// The measured value.
    pub value: f64,
    /// -1 (leans human) .. +1 (leans machine).
    pub leaning: f32,
    /// What the value means.
    pub note: String,
}

/// The AI check of one chapter.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ChapterAiCheck {
    /// Chapter index, from 0.
    pub index: usize,
    /// Chapter title.
    pub title: String,
    /// Probability (0..=1) that the chapter is machine-written.
    pub probability: f32,
}

/// The AI check of a whole document, with a result per chapter when it has more than one.
pub(crate) fn check(doc: &Doc) -> AiCheck {
    let predictability = features::predictability(doc);
    let mut all: Vec<[f64; features::COUNT]> = Vec::new();
    let mut chapters = Vec::with_capacity(doc.chapters.len());
    for (index, chapter) in doc.chapters.iter().enumerate() {
        let windows: Vec<[f64; features::COUNT]> = windows(doc, chapter.sentences.clone())
            .into_iter()
            .map(|range| features::measure(doc, range, &predictability))
            .collect();
        let probability = if chapter.tokens.len() < MIN_WORDS {
            0.5
        } else {
            mean_probability(&windows)
        };
        chapters.push(ChapterAiCheck {
            index,
            title: chapter.title.to_owned(),
            probability,
        });
        all.extend(windows);
    }
    let words = doc.tokens.len();
    let probability = if words < MIN_WORDS {
        0.5
    } else {
        mean_probability(&all)
    };
    AiCheck {
        probability,
        verdict: verdict(probability, words),
        signals: signals(&all),
        chapters: if doc.chapters.len() > 1 {
            chapters
        } else {
            Vec::new()
        },
        notice: NOTICE,
    }
}

/// Probability per chapter (in chapter order) as [`check`] computes it.
pub(crate) fn chapter_probabilities(check: &AiCheck, chapters: usize) -> Vec<f32> {
    if check.chapters.is_empty() {
        return vec![check.probability; chapters];
    }
    check.chapters.iter().map(|c| c.probability).collect()
}

/// Consecutive runs of whole sentences of at least [`WINDOW_WORDS`] words; a short
/// remainder joins the last window.
fn windows(doc: &Doc, range: std::ops::Range<usize>) -> Vec<std::ops::Range<usize>> {
    let mut out: Vec<std::ops::Range<usize>> = Vec::new();
    let mut start = range.start;
    let mut words = 0;
    for i in range.clone() {
        words += doc.sentences[i].tokens.len();
        if words >= WINDOW_WORDS {
            out.push(start..i + 1);
            start = i + 1;
            words = 0;
        }
    }
    if start < range.end {
        match out.last_mut() {
            Some(last) if words < WINDOW_WORDS / 2 => last.end = range.end,
            _ => out.push(start..range.end),
        }
    }
    out
}

/// Each feature's contribution to the log-odds of machine-written text.
fn contributions(features: &[f64; features::COUNT]) -> [f64; features::COUNT] {
    let mut out = [0.0; features::COUNT];
    for (i, c) in out.iter_mut().enumerate() {
        *c = weights::WEIGHTS[i] * (features[i] - weights::MEAN[i]) / weights::SCALE[i];
    }
    out
}

/// The probability that text with these features is machine-written.
fn probability(features: &[f64; features::COUNT]) -> f64 {
    let z = weights::BIAS + contributions(features).iter().sum::<f64>();
    1.0 / (1.0 + (-z).exp())
}

fn mean_probability(windows: &[[f64; features::COUNT]]) -> f32 {
    if windows.is_empty() {
        return 0.5;
    }
    let sum: f64 = windows.iter().map(probability).sum();
    (sum / windows.len() as f64) as f32
}

fn signals(windows: &[[f64; features::COUNT]]) -> Vec<Signal> {
    let mut mean = [0f64; features::COUNT];
    for f in windows {
        for (m, v) in mean.iter_mut().zip(f) {
            *m += v / windows.len() as f64;
        }
    }
    let contributions = contributions(&mean);
    features::DESCRIPTIONS
        .iter()
        .zip(mean)
        .zip(contributions)
        .map(|(((key, label, meaning), value), contribution)| Signal {
            key,
            label,
            value,
            leaning: contribution.tanh() as f32,
            note: format!(
                "{value:.2}: {meaning}; {}",
                match contribution {
                    c if c > 0.25 => "leans machine-written",
                    c if c < -0.25 => "leans human-written",
                    _ => "neutral",
                }
            ),
        })
        .collect()
}

fn verdict(probability: f32, words: usize) -> &'static str {
    match probability {
        _ if words < MIN_WORDS => "too short to judge",
        p if p < 0.25 => "likely human-written",
        p if p < 0.5 => "leans human-written",
        p if p < 0.75 => "leans machine-written",
        _ => "likely machine-written",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_cover_every_sentence_once() {
        let text = "One two three four five. ".repeat(100);
        let doc = Doc::single(&text);
        let w = windows(&doc, 0..doc.sentences.len());
        assert_eq!(w.first().map(|r| r.start), Some(0));
        assert_eq!(w.last().map(|r| r.end), Some(100));
        assert!(w.windows(2).all(|p| p[0].end == p[1].start));
        assert_eq!(w.len(), 3);
        assert!(windows(&doc, 0..0).is_empty());
    }

    #[test]
    fn short_text_is_not_judged() {
        let c = check(&Doc::single("Just a few words here."));
        assert_eq!(c.verdict, "too short to judge");
        assert_eq!(c.probability, 0.5);
        assert_eq!(c.notice, NOTICE);
        assert_eq!(c.signals.len(), features::COUNT);
    }
}
