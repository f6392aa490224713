//! Writing-quality scores in the manner of ProWritingAid and Hemingway: each part is a
//! measurement, a 0-100 score and one line of advice, and `overall_score` is their
//! weighted mean. The weights, in [`WEIGHTS`], favour what readers notice first:
//! readability 2, sentence length 1.5, spelling 1.5, then 1 each for sentence variety,
//! lexical richness, adverbs, passive voice and repeated words, and 0.5 each for dialogue
//! share and chapter balance (both depend on the kind of book as much as on its craft).

mod sentences;
mod style;
mod vocabulary;

use serde::Serialize;

use crate::doc::Doc;

/// All quality parts and their weighted mean.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Quality {
    /// Weighted mean of the parts, 0-100.
    pub overall_score: u8,
    /// One entry per measured aspect.
    pub parts: Vec<QualityPart>,
}

/// One measured aspect of the writing.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct QualityPart {
    /// Stable machine key ("readability", "adverbs", ...).
    pub key: &'static str,
    /// Human label.
    pub label: &'static str,
    /// 0 (poor) to 100 (good).
    pub score: u8,
    /// What was measured, e.g. "grade 7.4" or "18% of sentences".
    pub measure: String,
    /// One line of advice.
    pub advice: String,
}

/// Weight of each part in `overall_score`, by key.
pub const WEIGHTS: &[(&str, f64)] = &[
    ("readability", 2.0),
    ("sentence_length", 1.5),
    ("sentence_variety", 1.0),
    ("lexical_richness", 1.0),
    ("dialogue", 0.5),
    ("adverbs", 1.0),
    ("passive_voice", 1.0),
    ("repeated_words", 1.0),
    ("spelling", 1.5),
    ("chapter_balance", 0.5),
];

/// Scores the writing of `doc`.
pub(crate) fn assess(doc: &Doc) -> Quality {
    let lengths: Vec<usize> = doc
        .sentences
        .iter()
        .map(|s| s.tokens.len())
        .filter(|&n| n > 0)
        .collect();
    let parts = vec![
        sentences::readability(doc, &lengths),
        sentences::length(&lengths),
        sentences::variety(&lengths),
        vocabulary::richness(doc),
        style::dialogue(doc),
        style::adverbs(doc),
        style::passive_voice(doc),
        vocabulary::repeated_words(doc),
        vocabulary::spelling(doc),
        chapter_balance(doc),
    ];
    let (sum, weights) = parts.iter().fold((0.0, 0.0), |(sum, weights), part| {
        let w = WEIGHTS
            .iter()
            .find(|(k, _)| *k == part.key)
            .map_or(1.0, |(_, w)| *w);
        (sum + w * f64::from(part.score), weights + w)
    });
    Quality {
        overall_score: score(sum / weights),
        parts,
    }
}

/// Variation of chapter lengths (coefficient of variation of their word counts).
fn chapter_balance(doc: &Doc) -> QualityPart {
    let lengths: Vec<f64> = doc
        .chapters
        .iter()
        .map(|c| c.tokens.len() as f64)
        .filter(|&n| n > 0.0)
        .collect();
    if lengths.len() < 2 {
        return part(
            "chapter_balance",
            "Chapter balance",
            100.0,
            format!("{} chapter with text", lengths.len()),
            "Nothing to balance: the text has one chapter.",
        );
    }
    let cv = coefficient_of_variation(&lengths);
    let value = 100.0 - (cv - 0.3) * 110.0;
    scored(
        "chapter_balance",
        "Chapter balance",
        value,
        format!(
            "lengths vary by {:.0}% across {} chapters",
            cv * 100.0,
            lengths.len()
        ),
        [
            "Chapters are of similar length, which gives the book an even pace.",
            "Chapter lengths vary noticeably; check that very short or long chapters are deliberate.",
            "Chapter lengths vary widely; consider splitting the longest chapters or merging the shortest.",
        ],
    )
}

/// Standard deviation over mean (0 for fewer than two values or a zero mean).
pub(crate) fn coefficient_of_variation(values: &[f64]) -> f64 {
    if values.len() < 2 {
        return 0.0;
    }
    let mean = values.iter().sum::<f64>() / values.len() as f64;
    if mean <= 0.0 {
        return 0.0;
    }
    let var = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / values.len() as f64;
    var.sqrt() / mean
}

/// A score clamped to 0-100 and rounded.
pub(crate) fn score(value: f64) -> u8 {
    if value.is_nan() {
        return 0;
    }
    value.clamp(0.0, 100.0).round() as u8
}

pub(crate) fn part(
    key: &'static str,
    label: &'static str,
    value: f64,
    measure: String,
    advice: &str,
) -> QualityPart {
    QualityPart {
        key,
        label,
        score: score(value),
        measure,
        advice: advice.to_owned(),
    }
}

/// A part whose advice follows its score: `advice[0]` from 80, `advice[1]` from 50,
/// `advice[2]` below.
pub(crate) fn scored(
    key: &'static str,
    label: &'static str,
    value: f64,
    measure: String,
    advice: [&str; 3],
) -> QualityPart {
    let band = if value >= 80.0 {
        0
    } else if value >= 50.0 {
        1
    } else {
        2
    };
    part(key, label, value, measure, advice[band])
}

/// The part for a text with no words to measure.
pub(crate) fn unmeasured(key: &'static str, label: &'static str) -> QualityPart {
    part(
        key,
        label,
        0.0,
        "no words to measure".to_owned(),
        "Add text to get this score.",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_part_has_a_weight() {
        let doc = Doc::single("The cat sat on the mat. It was warm.");
        let q = assess(&doc);
        assert_eq!(q.parts.len(), WEIGHTS.len());
        for part in &q.parts {
            assert!(WEIGHTS.iter().any(|(k, _)| *k == part.key), "{}", part.key);
            assert!(!part.advice.is_empty() && !part.measure.is_empty());
        }
    }

    #[test]
    fn empty_text_scores_zero_without_panicking() {
        let q = assess(&Doc::single(""));
        assert_eq!(q.parts.len(), WEIGHTS.len());
        assert!(q.overall_score <= 10, "{}", q.overall_score);
    }

    #[test]
    fn scores_clamp() {
        assert_eq!(score(-5.0), 0);
        assert_eq!(score(250.0), 100);
        assert_eq!(score(f64::NAN), 0);
        assert_eq!(score(49.6), 50);
    }

    #[test]
    fn uneven_chapters_score_lower() {
        let even = "word ".repeat(100);
        let text = format!("{even}\n\n{even}\n\n{}", "word ".repeat(2000));
        let a = text.find("\n\n").unwrap();
        let b = a + 2 + text[a + 2..].find("\n\n").unwrap();
        let uneven = Doc::new(
            &text,
            &[("1", 0..a), ("2", a + 2..b), ("3", b + 2..text.len())],
        );
        let balanced = Doc::new(&text, &[("1", 0..a), ("2", a + 2..b)]);
        assert!(chapter_balance(&uneven).score < chapter_balance(&balanced).score);
        assert_eq!(chapter_balance(&balanced).score, 100);
    }
}
