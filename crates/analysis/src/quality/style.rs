//! Style measures: adverbs, passive voice and chapter balance.

use rustc_hash::FxHashMap;

use super::reading::Reading;
use super::vocabulary::top_words;
use super::{Kind, Measured, Raw, coefficient_of_variation};
use crate::doc::{Doc, Token};
use crate::words;
use quire_english::WordList;

/// Adverbs: -ly adverbs per 100 words.
pub(crate) fn adverbs(doc: &Doc, reading: &Reading, _: Kind) -> Measured {
    if reading.tokens.is_empty() {
        return Measured::Nothing;
    }
    let mut count = 0usize;
    let mut adverb = vec![None::<bool>; doc.vocab.len()];
    let mut seen: FxHashMap<u32, u32> = FxHashMap::default();
    for t in &reading.tokens {
        let known = &mut adverb[t.word as usize];
        if known.is_none() {
            *known = Some(is_ly_adverb(doc.vocab.form(t.word)));
        }
        if *known == Some(true) {
            count += 1;
            *seen.entry(t.word).or_default() += 1;
        }
    }
    let rate = count as f64 * 100.0 / reading.tokens.len() as f64;
    Measured::Value(Raw {
        value: rate,
        shown: format!("{rate:.1} -ly adverbs per 100 words"),
        examples: top_words(doc, &seen, 3),
    })
}

/// Whether a lowercase word is an -ly adverb: it ends in "ly", is not a known -ly word of
/// another kind ([`NOT_ADVERBS`]), and drops to a word when "ly" goes ("quickly" to
/// "quick", "happily" to "happy", "gently" to "gentle", "truly" to "true").
pub(crate) fn is_ly_adverb(lower: &str) -> bool {
    let Some(stem) = lower.strip_suffix("ly") else {
        return false;
    };
    if stem.len() < 2 || NOT_ADVERBS.contains(lower) {
        return false;
    }
    if words::contains(stem) {
        return true;
    }
    if let Some(base) = stem.strip_suffix('i')
        && words::contains(&format!("{base}y"))
    {
        return true;
    }
    words::contains(&format!("{stem}le")) || words::contains(&format!("{stem}e"))
}

/// Passive voice: the share of sentences with a form of "be" followed (within two words)
/// by a past participle.
pub(crate) fn passive_voice(doc: &Doc, reading: &Reading, _: Kind) -> Measured {
    if reading.sentences.is_empty() {
        return Measured::Nothing;
    }
    let passive = reading
        .sentences
        .iter()
        .filter(|s| has_passive(doc, reading.sentence(s)))
        .count();
    let share = passive as f64 / reading.sentences.len() as f64;
    Raw::measured(share, format!("{:.0}% of sentences", share * 100.0))
}

/// Chapter balance: the coefficient of variation of the chapters' word counts.
pub(crate) fn chapter_balance(_: &Doc, reading: &Reading, _: Kind) -> Measured {
    let lengths: Vec<f64> = reading
        .chapter_words
        .iter()
        .filter(|&&n| n > 0)
        .map(|&n| n as f64)
        .collect();
    match lengths.len() {
        0 => Measured::Nothing,
        1 => Measured::Neutral {
            shown: "1 chapter with text".to_owned(),
            advice: "Nothing to balance: the text has one chapter.",
        },
        n => {
            let cv = coefficient_of_variation(&lengths);
            Raw::measured(
                cv,
                format!("lengths vary by {:.0}% across {n} chapters", cv * 100.0),
            )
        }
    }
}

fn has_passive(doc: &Doc, tokens: &[Token]) -> bool {
    tokens.iter().enumerate().any(|(i, t)| {
        if !BE_FORMS.contains(&doc.vocab.form(t.word)) {
            return false;
        }
        for next in tokens.iter().skip(i + 1).take(3) {
            let form = doc.vocab.form(next.word);
            if is_participle(form) {
                return true;
            }
            // Only an adverb or "not" may stand between "be" and the participle.
            if !(form == "not" || form == "never" || form.ends_with("ly")) {
                return false;
            }
        }
        false
    })
}

fn is_participle(lower: &str) -> bool {
    (lower.len() > 4 && lower.ends_with("ed") && !NOT_PARTICIPLES.contains(lower))
        || IRREGULAR_PARTICIPLES.contains(lower)
}

const BE_FORMS: &[&str] = &["am", "are", "be", "been", "being", "is", "was", "were"];

/// -ed words that are usually adjectives or nouns after "be", not passives (data/lists).
static NOT_PARTICIPLES: WordList =
    WordList::new(include_str!("../../data/lists/not_participles.txt"));

/// Irregular past participles (data/lists).
static IRREGULAR_PARTICIPLES: WordList =
    WordList::new(include_str!("../../data/lists/irregular_participles.txt"));

/// Words ending in "ly" that are not -ly adverbs (adjectives, nouns, verbs, and "only"
/// and "early", which readers do not count against a writer) (data/lists).
static NOT_ADVERBS: WordList = WordList::new(include_str!("../../data/lists/not_adverbs.txt"));

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn word_lists_are_sorted() {
        assert!(
            IRREGULAR_PARTICIPLES.is_sorted()
                && NOT_ADVERBS.is_sorted()
                && NOT_PARTICIPLES.is_sorted()
        );
    }

    #[test]
    fn ly_adverbs_are_told_from_other_ly_words() {
        for yes in [
            "quickly", "happily", "gently", "truly", "slowly", "suddenly",
        ] {
            assert!(is_ly_adverb(yes), "{yes}");
        }
        for no in [
            "family", "only", "early", "friendly", "reply", "fly", "holy", "ly", "quick",
        ] {
            assert!(!is_ly_adverb(no), "{no}");
        }
    }

    #[test]
    fn passives_are_found() {
        let doc = Doc::single(
            "The letter was written by Ann. The cake is not eaten. Ann wrote. She is tall.",
        );
        let flags: Vec<bool> = doc
            .sentences
            .iter()
            .map(|s| has_passive(&doc, doc.sentence_tokens(s)))
            .collect();
        assert_eq!(flags, vec![true, true, false, false]);
    }

    fn measured(text: &str, f: fn(&Doc, &Reading, Kind) -> Measured, kind: Kind) -> Measured {
        let doc = Doc::single(text);
        let reading = Reading::of(&doc, kind);
        f(&doc, &reading, kind)
    }

    #[test]
    fn adverbs_and_passives_are_counted() {
        let clean = "Ann wrote the letter. Tom baked a cake. They ate it at noon.";
        let heavy =
            "The letter was quickly written. The cake was slowly baked. It was eagerly eaten.";
        assert_eq!(Measured::value(measured(clean, adverbs, Kind::Prose)), 0.0);
        assert!(
            (Measured::value(measured(heavy, adverbs, Kind::Prose)) - 300.0 / 14.0).abs() < 1e-9
        );
        assert_eq!(
            Measured::value(measured(heavy, passive_voice, Kind::Prose)),
            1.0
        );
        assert_eq!(
            Measured::value(measured(clean, passive_voice, Kind::Prose)),
            0.0
        );
        let Measured::Value(raw) = measured(heavy, adverbs, Kind::Prose) else {
            panic!()
        };
        assert_eq!(raw.examples, "\"eagerly\", \"quickly\", \"slowly\"");
    }

    #[test]
    fn chapters_are_balanced_or_not() {
        let text = format!("{}\n\n{}", "word ".repeat(100), "word ".repeat(300));
        let split = text.find("\n\n").unwrap();
        let doc = Doc::new(&text, &[("1", 0..split), ("2", split + 2..text.len())]);
        let reading = Reading::of(&doc, Kind::Prose);
        assert!((Measured::value(chapter_balance(&doc, &reading, Kind::Prose)) - 0.5).abs() < 1e-9);
        assert!(matches!(
            measured("One chapter.", chapter_balance, Kind::Prose),
            Measured::Neutral { .. }
        ));
        assert_eq!(
            measured("", chapter_balance, Kind::Prose),
            Measured::Nothing
        );
    }
}
