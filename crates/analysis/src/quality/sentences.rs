//! Sentence-level measures: readability (Flesch-Kincaid grade and Flesch reading ease),
//! sentence length and sentence variety.

use super::{QualityPart, coefficient_of_variation, scored, unmeasured};
use crate::doc::Doc;
use crate::text;

/// Sentences longer than this are hard to follow (Hemingway's rule of thumb).
pub(crate) const LONG_SENTENCE: usize = 30;

/// The Flesch-Kincaid grade and Flesch reading ease of `doc`, if it has words.
pub(crate) fn flesch(doc: &Doc, lengths: &[usize]) -> Option<(f64, f64)> {
    let words = doc.tokens.len();
    if words == 0 || lengths.is_empty() {
        return None;
    }
    let syllables: usize = doc.tokens.iter().map(|t| text::syllables(doc.raw(t))).sum();
    let per_sentence = words as f64 / lengths.len() as f64;
    let per_word = syllables as f64 / words as f64;
    let grade = 0.39 * per_sentence + 11.8 * per_word - 15.59;
    let ease = 206.835 - 1.015 * per_sentence - 84.6 * per_word;
    Some((grade, ease))
}

/// Readability: grade 8 or below scores 100, each grade above costs 10 points.
pub(crate) fn readability(doc: &Doc, lengths: &[usize]) -> QualityPart {
    let Some((grade, ease)) = flesch(doc, lengths) else {
        return unmeasured("readability", "Readability");
    };
    let value = 100.0 - (grade - 8.0).max(0.0) * 10.0;
    scored(
        "readability",
        "Readability",
        value,
        format!("grade {grade:.1}, reading ease {ease:.0}"),
        [
            "Easy to read for most adults; keep it up.",
            "Fairly demanding; shorter sentences and plainer words would widen your readership.",
            "Hard to read; split long sentences and prefer short, common words.",
        ],
    )
}

/// Sentence length: the share of sentences over [`LONG_SENTENCE`] words; up to 5% scores
/// 100, 40% or more scores 0.
pub(crate) fn length(lengths: &[usize]) -> QualityPart {
    if lengths.is_empty() {
        return unmeasured("sentence_length", "Sentence length");
    }
    let long = lengths.iter().filter(|&&n| n > LONG_SENTENCE).count();
    let share = long as f64 / lengths.len() as f64;
    let mean = lengths.iter().sum::<usize>() as f64 / lengths.len() as f64;
    let value = 100.0 - (share - 0.05).max(0.0) * (100.0 / 0.35);
    scored(
        "sentence_length",
        "Sentence length",
        value,
        format!(
            "{:.0}% of sentences over {LONG_SENTENCE} words, {mean:.1} words on average",
            share * 100.0
        ),
        [
            "Sentence lengths are comfortable.",
            "Quite a few long sentences; break up those over 30 words where the meaning allows.",
            "Many sentences run over 30 words; readers lose the thread, so split them.",
        ],
    )
}

/// Sentence variety: the coefficient of variation of sentence lengths; 0.6 or more
/// scores 100, a monotone 0 scores 0.
pub(crate) fn variety(lengths: &[usize]) -> QualityPart {
    if lengths.len() < 2 {
        return unmeasured("sentence_variety", "Sentence variety");
    }
    let values: Vec<f64> = lengths.iter().map(|&n| n as f64).collect();
    let cv = coefficient_of_variation(&values);
    let value = cv / 0.6 * 100.0;
    scored(
        "sentence_variety",
        "Sentence variety",
        value,
        format!("lengths vary by {:.0}%", cv * 100.0),
        [
            "Sentence lengths vary well, which keeps the rhythm lively.",
            "Sentence lengths are somewhat uniform; mix in short and long sentences.",
            "Sentences are nearly all the same length; vary them to avoid a monotonous rhythm.",
        ],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lengths(doc: &Doc) -> Vec<usize> {
        doc.sentences.iter().map(|s| s.tokens.len()).collect()
    }

    #[test]
    fn plain_text_reads_easier_than_dense_text() {
        let plain = Doc::single("The cat sat. The dog ran. We had fun in the sun.");
        let dense = Doc::single(
            "Notwithstanding considerable institutional resistance, the administration \
             systematically reorganised interdepartmental communication infrastructure.",
        );
        let (plain_grade, plain_ease) = flesch(&plain, &lengths(&plain)).unwrap();
        let (dense_grade, dense_ease) = flesch(&dense, &lengths(&dense)).unwrap();
        assert!(plain_grade < dense_grade && plain_ease > dense_ease);
        assert!(
            readability(&plain, &lengths(&plain)).score
                > readability(&dense, &lengths(&dense)).score
        );
        assert!(flesch(&Doc::single(""), &[]).is_none());
    }

    #[test]
    fn long_sentences_and_monotony_score_lower() {
        assert_eq!(length(&[10, 12, 8]).score, 100);
        assert!(length(&[40, 45, 12]).score < 20);
        assert!(variety(&[10, 10, 10, 10]).score == 0);
        assert!(variety(&[3, 25, 8, 40, 12]).score > 80);
        assert_eq!(variety(&[7]).measure, "no words to measure");
    }
}
