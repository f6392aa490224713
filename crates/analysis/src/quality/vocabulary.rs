//! Vocabulary measures: lexical richness (MTLD), repeated words and spelling.

use rustc_hash::FxHashMap;

use super::reading::Reading;
use super::{Kind, Measured, Raw};
use crate::doc::Doc;
use crate::{text, words};

/// MTLD's type-token ratio threshold (McCarthy and Jarvis, 2010).
const MTLD_THRESHOLD: f64 = 0.72;
/// A content word seen again within this many words is a repeat.
const REPEAT_WINDOW: usize = 30;
/// An unknown word used this often is deliberate (a name, a coinage, dialect).
const DELIBERATE: u32 = 3;

/// Lexical richness: MTLD over the words' lowercase forms.
pub(crate) fn richness(doc: &Doc, reading: &Reading, _: Kind) -> Measured {
    let ids: Vec<u32> = reading
        .tokens
        .iter()
        .filter(|t| text::is_alphabetic_word(doc.raw(t)))
        .map(|t| t.word)
        .collect();
    if ids.len() < 10 {
        return Measured::Nothing;
    }
    let value = mtld(&ids, doc.vocab.len());
    Raw::measured(value, format!("MTLD {value:.0}"))
}

/// The measure of textual lexical diversity: the mean length of stretches whose
/// type-token ratio stays above [`MTLD_THRESHOLD`], read forwards and backwards.
pub(crate) fn mtld(ids: &[u32], vocabulary: usize) -> f64 {
    let forward = mtld_pass(ids.iter().copied(), vocabulary, ids.len());
    let backward = mtld_pass(ids.iter().rev().copied(), vocabulary, ids.len());
    (forward + backward) / 2.0
}

fn mtld_pass(ids: impl Iterator<Item = u32>, vocabulary: usize, len: usize) -> f64 {
    // Generation stamps instead of clearing a set for every stretch.
    let mut seen = vec![0u32; vocabulary];
    let mut stamp = 1u32;
    let (mut types, mut tokens, mut factors) = (0usize, 0usize, 0.0f64);
    for id in ids {
        tokens += 1;
        if let Some(s) = seen.get_mut(id as usize)
            && *s != stamp
        {
            *s = stamp;
            types += 1;
        }
        if (types as f64 / tokens as f64) <= MTLD_THRESHOLD {
            factors += 1.0;
            stamp += 1;
            types = 0;
            tokens = 0;
        }
    }
    if tokens > 0 {
        let ttr = types as f64 / tokens as f64;
        factors += (1.0 - ttr) / (1.0 - MTLD_THRESHOLD);
    }
    if factors == 0.0 {
        len as f64
    } else {
        len as f64 / factors
    }
}

/// Repeated words: content words (four letters or more, not stop words, not names) used
/// again within [`REPEAT_WINDOW`] words, per 100 words.
pub(crate) fn repeated_words(doc: &Doc, reading: &Reading, _: Kind) -> Measured {
    if reading.tokens.is_empty() {
        return Measured::Nothing;
    }
    let mut last_seen: Vec<Option<usize>> = vec![None; doc.vocab.len()];
    let mut repeats = 0usize;
    let mut examples: FxHashMap<u32, u32> = FxHashMap::default();
    for (i, t) in reading.tokens.iter().enumerate() {
        let form = doc.vocab.form(t.word);
        if doc.vocab.is_stop(t.word) || form.len() < 4 || text::is_capitalised(doc.raw(t)) {
            continue;
        }
        if let Some(previous) = last_seen[t.word as usize]
            && i - previous <= REPEAT_WINDOW
        {
            repeats += 1;
            *examples.entry(t.word).or_default() += 1;
        }
        last_seen[t.word as usize] = Some(i);
    }
    let rate = repeats as f64 * 100.0 / reading.tokens.len() as f64;
    Measured::Value(Raw {
        value: rate,
        shown: format!("{rate:.1} close repeats per 100 words"),
        examples: top_words(doc, &examples, 3),
    })
}

/// Spelling: words not in the English word list per 1,000 words, leaving out capitalised
/// words (names), contractions, words with digits and words used [`DELIBERATE`] times or
/// more.
pub(crate) fn spelling(doc: &Doc, reading: &Reading, _: Kind) -> Measured {
    if reading.tokens.is_empty() {
        return Measured::Nothing;
    }
    let mut unknown: FxHashMap<u32, u32> = FxHashMap::default();
    let mut checked: Vec<Option<bool>> = vec![None; doc.vocab.len()];
    for t in &reading.tokens {
        let raw = doc.raw(t);
        if text::is_capitalised(raw) || !text::is_alphabetic_word(raw) {
            continue;
        }
        let known = checked[t.word as usize].get_or_insert_with(|| {
            let form = doc.vocab.form(t.word);
            let contraction = text::strip_possessive(form).contains(['\'', '\u{2019}']);
            contraction || words::is_known(form)
        });
        if !*known {
            *unknown.entry(t.word).or_default() += 1;
        }
    }
    unknown.retain(|_, n| *n < DELIBERATE);
    let misspelt: u32 = unknown.values().sum();
    let rate = f64::from(misspelt) * 1000.0 / reading.tokens.len() as f64;
    Measured::Value(Raw {
        value: rate,
        shown: format!("{rate:.1} possible misspellings per 1,000 words"),
        examples: top_words(doc, &unknown, 5),
    })
}

/// The `n` most counted words, quoted and comma-separated, ties in alphabetical order.
pub(crate) fn top_words(doc: &Doc, counts: &FxHashMap<u32, u32>, n: usize) -> String {
    let mut ranked: Vec<(&str, u32)> = counts
        .iter()
        .map(|(&id, &c)| (doc.vocab.form(id), c))
        .collect();
    ranked.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    ranked
        .iter()
        .take(n)
        .map(|(w, _)| format!("\"{w}\""))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mtld_is_higher_for_varied_text() {
        let repetitive: Vec<u32> = (0..200).map(|i| i % 5).collect();
        let varied: Vec<u32> = (0..200).collect();
        assert!(mtld(&varied, 200) > mtld(&repetitive, 200) * 10.0);
        assert!(mtld(&repetitive, 5) < 10.0);
    }

    fn raw(text: &str, f: fn(&Doc, &Reading, Kind) -> Measured) -> Raw {
        let doc = Doc::single(text);
        let reading = Reading::of(&doc, Kind::Prose);
        match f(&doc, &reading, Kind::Prose) {
            Measured::Value(raw) => raw,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn misspellings_are_counted_but_names_and_repeated_coinages_are_not() {
        let part = raw(
            "Ahab did recieve teh letter. The grobble grobble grobble was there. Nantucket waits.",
            spelling,
        );
        assert_eq!(part.examples, "\"recieve\", \"teh\"");
        assert!(part.value > 100.0, "{part:?}");
        let clean = raw(
            "The whale swam past the ship and the men did not see it.",
            spelling,
        );
        assert_eq!(clean.value, 0.0);
    }

    #[test]
    fn close_repetitions_are_counted() {
        let echo = raw(
            "The garden was green. The garden had a green gate. The garden gate was green.",
            repeated_words,
        );
        let varied = raw(
            "The garden was green. A painted gate stood open. Roses climbed the wall.",
            repeated_words,
        );
        assert!(echo.value > varied.value);
        assert!(echo.examples.starts_with("\"garden\""), "{echo:?}");
    }
}
