//! The measurements the AI check rests on, taken over a stretch of sentences.
//!
//! Machine-written prose tends to be even: sentences of similar length, every word about
//! as predictable as the last, a narrow range of punctuation, sentences opening the same
//! way, and a recognisable stock of favourite words. Human prose is burstier. Each
//! feature below measures one of these; the logistic model in [`super::weights`] says how
//! much each counts.

use crate::doc::{Doc, Token};
use crate::lm;
use quire_english::WordList;

/// Number of features.
pub(crate) const COUNT: usize = 10;

/// Key, label and what a high value means, per feature (in feature order).
pub(crate) const DESCRIPTIONS: [(&str, &str, &str); COUNT] = [
    (
        "sentence_burstiness",
        "Sentence-length burstiness",
        "how much sentence lengths vary (coefficient of variation)",
    ),
    (
        "surprisal_burstiness",
        "Predictability burstiness",
        "how much the predictability of sentences varies (standard deviation of bits per word)",
    ),
    (
        "perplexity",
        "Perplexity",
        "how surprising the words are to a language model of human prose (bits per word)",
    ),
    (
        "type_token",
        "Vocabulary variety",
        "distinct words per 50-word window",
    ),
    (
        "function_words",
        "Function words",
        "share of words that are function words",
    ),
    (
        "repeated_openings",
        "Repeated openings",
        "share of sentences opening with the same word as an earlier one",
    ),
    (
        "punctuation_variety",
        "Punctuation variety",
        "spread of punctuation marks used (entropy in bits)",
    ),
    (
        "stock_phrases",
        "Stock vocabulary",
        "words machine text favours, per 100 words",
    ),
    (
        "contractions",
        "Contractions",
        "contractions (\"don't\", \"we're\") per 100 words",
    ),
    (
        "rare_words",
        "Rare words",
        "share of words the language model saw fewer than 3 times",
    ),
];

/// What the language model says about every token of a document.
pub(crate) struct Predictability {
    /// Surprisal in bits of every token given the one before (sentence starts are
    /// conditioned on the start of a sentence).
    pub surprisal: Vec<f32>,
    /// Per word id, whether the model's training text used it fewer than 3 times.
    pub rare: Vec<bool>,
}

/// The [`Predictability`] of every token of `doc`.
pub(crate) fn predictability(doc: &Doc) -> Predictability {
    let model = lm::model();
    let words: Vec<lm::Word> = (0..doc.vocab.len())
        .map(|id| model.word(doc.vocab.form(id as u32)))
        .collect();
    let rare = words.iter().map(|w| w.count < 3).collect();
    let mut out = vec![0f32; doc.tokens.len()];
    for sentence in &doc.sentences {
        let mut previous = model.sentence_start();
        for i in sentence.tokens.clone() {
            let word = words[doc.tokens[i].word as usize];
            out[i] = model.surprisal(&previous, &word) as f32;
            previous = word;
        }
    }
    Predictability {
        surprisal: out,
        rare,
    }
}

/// The features of the sentences `range` of `doc`, given its [`predictability`].
pub(crate) fn measure(
    doc: &Doc,
    range: std::ops::Range<usize>,
    lm: &Predictability,
) -> [f64; COUNT] {
    let surprisal = &lm.surprisal;
    let sentences = &doc.sentences[range];
    let lengths: Vec<f64> = sentences
        .iter()
        .map(|s| s.tokens.len() as f64)
        .filter(|&n| n > 0.0)
        .collect();
    let tokens: Vec<&Token> = sentences
        .iter()
        .flat_map(|s| doc.sentence_tokens(s))
        .collect();
    let words = tokens.len().max(1) as f64;
    let sentence_bits: Vec<f64> = sentences
        .iter()
        .filter(|s| !s.tokens.is_empty())
        .map(|s| {
            let bits = &surprisal[s.tokens.clone()];
            bits.iter().map(|&b| f64::from(b)).sum::<f64>() / bits.len() as f64
        })
        .collect();
    let total_bits: f64 = sentences
        .iter()
        .flat_map(|s| &surprisal[s.tokens.clone()])
        .map(|&b| f64::from(b))
        .sum();
    let function = tokens.iter().filter(|t| doc.vocab.is_stop(t.word)).count() as f64;
    let stock = tokens
        .iter()
        .filter(|t| is_stock(doc.vocab.form(t.word)))
        .count() as f64;
    let contractions = tokens
        .iter()
        .filter(|t| is_contraction(doc.vocab.form(t.word)))
        .count() as f64;
    let rare = tokens
        .iter()
        .filter(|t| lm.rare.get(t.word as usize).copied().unwrap_or(true))
        .count() as f64;
    [
        crate::quality::coefficient_of_variation(&lengths),
        standard_deviation(&sentence_bits),
        total_bits / words,
        moving_type_token(&tokens),
        function / words,
        repeated_openings(doc, sentences),
        punctuation_entropy(doc, sentences),
        stock * 100.0 / words,
        contractions * 100.0 / words,
        rare / words,
    ]
}

fn standard_deviation(values: &[f64]) -> f64 {
    if values.len() < 2 {
        return 0.0;
    }
    let mean = values.iter().sum::<f64>() / values.len() as f64;
    (values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / values.len() as f64).sqrt()
}

/// Mean distinct words per 50-word window (fewer words: distinct words scaled to 50).
fn moving_type_token(tokens: &[&Token]) -> f64 {
    const WINDOW: usize = 50;
    if tokens.is_empty() {
        return 0.0;
    }
    let distinct = |window: &[&Token]| {
        let mut ids: Vec<u32> = window.iter().map(|t| t.word).collect();
        ids.sort_unstable();
        ids.dedup();
        ids.len() as f64
    };
    if tokens.len() <= WINDOW {
        return distinct(tokens) * WINDOW as f64 / tokens.len() as f64;
    }
    // Non-overlapping windows keep this linear; the remainder is left out.
    let windows: Vec<f64> = tokens.chunks_exact(WINDOW).map(distinct).collect();
    windows.iter().sum::<f64>() / windows.len() as f64
}

fn repeated_openings(doc: &Doc, sentences: &[crate::doc::Sentence]) -> f64 {
    let openings: Vec<u32> = sentences
        .iter()
        .filter_map(|s| doc.sentence_tokens(s).first().map(|t| t.word))
        .collect();
    if openings.len() < 2 {
        return 0.0;
    }
    let repeated = openings
        .iter()
        .enumerate()
        .filter(|(i, w)| openings[..*i].contains(w))
        .count();
    repeated as f64 / openings.len() as f64
}

/// Shannon entropy (bits) of the punctuation marks used, dashes folded into one class.
/// Quotation marks are left out: they say how much dialogue there is, not how the
/// sentences are built.
fn punctuation_entropy(doc: &Doc, sentences: &[crate::doc::Sentence]) -> f64 {
    let mut counts = [0u32; 10];
    for s in sentences {
        for c in doc.sentence_text(s).chars() {
            let class = match c {
                ',' => 0,
                '.' => 1,
                ';' => 2,
                ':' => 3,
                '!' => 4,
                '?' => 5,
                '\u{2014}' | '\u{2013}' => 6,
                '-' => 7,
                '(' | ')' | '[' | ']' => 8,
                '\u{2026}' => 9,
                _ => continue,
            };
            counts[class] += 1;
        }
    }
    let total: u32 = counts.iter().sum();
    if total == 0 {
        return 0.0;
    }
    counts
        .iter()
        .filter(|&&n| n > 0)
        .map(|&n| {
            let p = f64::from(n) / f64::from(total);
            -p * p.log2()
        })
        .sum()
}

/// "don't", "we're", "I'd", but not possessives ("Ahab's" is not a contraction, "it's" is).
fn is_contraction(lower: &str) -> bool {
    let plain = crate::text::strip_possessive(lower);
    plain.contains('\'')
        || matches!(
            lower,
            "it's"
                | "that's"
                | "there's"
                | "here's"
                | "what's"
                | "he's"
                | "she's"
                | "let's"
                | "who's"
                | "where's"
        )
}

fn is_stock(lower: &str) -> bool {
    STOCK.contains(lower)
}

/// Words that machine-written English uses far more often than people do (data/lists).
static STOCK: WordList = WordList::new(include_str!("../../data/lists/stock_words.txt"));

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stock_words_are_sorted() {
        assert!(STOCK.is_sorted());
    }

    fn features(text: &str) -> [f64; COUNT] {
        let doc = Doc::single(text);
        let p = predictability(&doc);
        measure(&doc, 0..doc.sentences.len(), &p)
    }

    #[test]
    fn even_text_is_less_bursty_than_uneven_text() {
        let even =
            features("The cat sat on the mat. The dog lay on the rug. The bird sang in the tree.");
        let uneven = features(
            "Stop. The dog, old and grey and tired of the long winter, lay on the rug by the fire; nobody moved. Why?",
        );
        assert!(even[0] < uneven[0]);
        assert!(even[6] < uneven[6], "{} {}", even[6], uneven[6]);
        assert!(even[5] > uneven[5]);
    }

    #[test]
    fn stock_words_are_counted() {
        let f = features("Moreover, this vibrant tapestry is a testament to our journey.");
        assert!((f[7] - 50.0).abs() < 1e-6, "{}", f[7]);
    }

    #[test]
    fn contractions_are_told_from_possessives() {
        assert!(is_contraction("don't") && is_contraction("it's") && is_contraction("we're"));
        assert!(!is_contraction("ahab's") && !is_contraction("whale"));
        let f = features("We don't know. Ahab's leg is gone.");
        assert!((f[8] - 100.0 / 7.0).abs() < 1e-6, "{}", f[8]);
    }

    #[test]
    fn nothing_measures_zero_and_finite() {
        for f in [features(""), features("word"), features("...")] {
            assert!(f.iter().all(|v| v.is_finite()), "{f:?}");
        }
    }
}
