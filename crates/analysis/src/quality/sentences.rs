//! Sentence-level measures: readability (Flesch-Kincaid grade and Flesch reading ease),
//! sentence length and sentence variety, over the sentences of the text's kind.

use super::reading::Reading;
use super::{Kind, Measured, Raw, coefficient_of_variation};
use crate::doc::Doc;
use crate::text;

/// Sentences longer than this are hard to follow (Hemingway's rule of thumb).
pub(crate) const LONG_SENTENCE: usize = 30;

/// The Flesch-Kincaid grade and Flesch reading ease of what `reading` reads of `doc`, if
/// it has words.
pub(crate) fn flesch(doc: &Doc, reading: &Reading) -> Option<(f64, f64)> {
    let words = reading.tokens.len();
    if words == 0 || reading.sentences.is_empty() {
        return None;
    }
    let syllables: usize = reading
        .tokens
        .iter()
        .map(|t| text::syllables(doc.raw(t)))
        .sum();
    let per_sentence = words as f64 / reading.sentences.len() as f64;
    let per_word = syllables as f64 / words as f64;
    let grade = 0.39 * per_sentence + 11.8 * per_word - 15.59;
    let ease = 206.835 - 1.015 * per_sentence - 84.6 * per_word;
    Some((grade, ease))
}

/// Readability: the Flesch-Kincaid grade (the reading ease is shown beside it).
pub(crate) fn readability(doc: &Doc, reading: &Reading, _: Kind) -> Measured {
    match flesch(doc, reading) {
        Some((grade, ease)) => {
            Raw::measured(grade, format!("grade {grade:.1}, reading ease {ease:.0}"))
        }
        None => Measured::Nothing,
    }
}

/// Sentence length: the share of sentences over [`LONG_SENTENCE`] words.
pub(crate) fn length(_: &Doc, reading: &Reading, _: Kind) -> Measured {
    let lengths = reading.lengths();
    if lengths.is_empty() {
        return Measured::Nothing;
    }
    let long = lengths.iter().filter(|&&n| n > LONG_SENTENCE).count();
    let share = long as f64 / lengths.len() as f64;
    let mean = lengths.iter().sum::<usize>() as f64 / lengths.len() as f64;
    Raw::measured(
        share,
        format!(
            "{:.0}% of sentences over {LONG_SENTENCE} words, {mean:.1} words on average",
            share * 100.0
        ),
    )
}

/// Sentence variety: the coefficient of variation of sentence lengths.
pub(crate) fn variety(_: &Doc, reading: &Reading, _: Kind) -> Measured {
    if reading.sentences.len() < 2 {
        return Measured::Nothing;
    }
    let values: Vec<f64> = reading.lengths().into_iter().map(|n| n as f64).collect();
    let cv = coefficient_of_variation(&values);
    Raw::measured(cv, format!("lengths vary by {:.0}%", cv * 100.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(text: &str) -> (Doc<'_>, Kind) {
        (Doc::single(text), Kind::Prose)
    }

    #[test]
    fn plain_text_reads_easier_than_dense_text() {
        let (plain, kind) = of("The cat sat. The dog ran. We had fun in the sun.");
        let (dense, _) = of(
            "Notwithstanding considerable institutional resistance, the administration \
             systematically reorganised interdepartmental communication infrastructure.",
        );
        let (p, d) = (Reading::of(&plain, kind), Reading::of(&dense, kind));
        let (plain_grade, plain_ease) = flesch(&plain, &p).unwrap();
        let (dense_grade, dense_ease) = flesch(&dense, &d).unwrap();
        assert!(plain_grade < dense_grade && plain_ease > dense_ease);
        assert!((Measured::value(readability(&plain, &p, kind)) - plain_grade).abs() < 1e-12);
        let (empty, _) = of("");
        assert!(flesch(&empty, &Reading::of(&empty, kind)).is_none());
    }

    #[test]
    fn long_sentences_and_variety_are_measured() {
        let long = format!(
            "{}. Short one here. Then {}.",
            "word ".repeat(40),
            "word ".repeat(34)
        );
        let (doc, kind) = of(&long);
        let reading = Reading::of(&doc, kind);
        assert_eq!(reading.lengths(), vec![40, 3, 35]);
        assert!((Measured::value(length(&doc, &reading, kind)) - 2.0 / 3.0).abs() < 1e-9);
        let (even, _) = of("One two three. Four five six. Seven eight nine.");
        let reading = Reading::of(&even, kind);
        assert_eq!(Measured::value(variety(&even, &reading, kind)), 0.0);
        let (one, _) = of("Just one sentence here.");
        assert_eq!(
            variety(&one, &Reading::of(&one, kind), kind),
            Measured::Nothing
        );
    }
}
