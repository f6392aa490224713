//! Style measures: dialogue share, adverbs and passive voice.

use super::{QualityPart, part, scored, unmeasured};
use crate::doc::Doc;
use crate::words;
use quire_english::WordList;

/// Dialogue share: the share of words inside quotation marks. Fiction usually has 10-60%;
/// none at all is normal outside fiction, so it scores a neutral 70.
pub(crate) fn dialogue(doc: &Doc) -> QualityPart {
    if doc.tokens.is_empty() {
        return unmeasured("dialogue", "Dialogue");
    }
    let share = dialogue_share(doc);
    let (value, advice) = if share == 0.0 {
        (
            70.0,
            "No dialogue; fine for non-fiction, but scenes in fiction come alive when people speak.",
        )
    } else if share < 0.1 {
        (
            70.0 + share * 300.0,
            "Little dialogue; letting characters speak can show rather than tell.",
        )
    } else if share <= 0.6 {
        (100.0, "A good balance of dialogue and narration.")
    } else {
        (
            100.0 - (share - 0.6) * 200.0,
            "Mostly dialogue; some narration would ground the scenes.",
        )
    };
    part(
        "dialogue",
        "Dialogue",
        value,
        format!("{:.0}% of words in dialogue", share * 100.0),
        advice,
    )
}

/// The share of words of `doc` inside quotation marks ("..." or “...”); an unclosed
/// quotation ends with its paragraph.
pub(crate) fn dialogue_share(doc: &Doc) -> f64 {
    if doc.tokens.is_empty() {
        return 0.0;
    }
    let mut quoted: Vec<(usize, usize)> = Vec::new();
    let mut open: Option<usize> = None;
    let mut previous = '\n';
    for (at, c) in doc.text.char_indices() {
        match c {
            '\u{201C}' => open = Some(at),
            '\u{201D}' => {
                if let Some(start) = open.take() {
                    quoted.push((start, at));
                }
            }
            '"' => match open.take() {
                Some(start) => quoted.push((start, at)),
                None => open = Some(at),
            },
            '\n' if previous == '\n' => open = None,
            _ => {}
        }
        if c != '\r' && c != ' ' {
            previous = c;
        }
    }
    let mut inside = 0usize;
    let mut q = 0;
    for token in &doc.tokens {
        while q < quoted.len() && quoted[q].1 < token.start() {
            q += 1;
        }
        if q < quoted.len() && quoted[q].0 < token.start() {
            inside += 1;
        }
    }
    inside as f64 / doc.tokens.len() as f64
}

/// Adverbs: -ly adverbs per 100 words; one or fewer scores 100, four or more 0.
pub(crate) fn adverbs(doc: &Doc) -> QualityPart {
    if doc.tokens.is_empty() {
        return unmeasured("adverbs", "Adverbs");
    }
    let mut count = 0usize;
    let mut adverb = vec![None::<bool>; doc.vocab.len()];
    for t in &doc.tokens {
        let known = &mut adverb[t.word as usize];
        if known.is_none() {
            *known = Some(is_ly_adverb(doc.vocab.form(t.word)));
        }
        if *known == Some(true) {
            count += 1;
        }
    }
    let rate = count as f64 * 100.0 / doc.tokens.len() as f64;
    let value = 100.0 - (rate - 1.0).max(0.0) * (100.0 / 3.0);
    scored(
        "adverbs",
        "Adverbs",
        value,
        format!("{rate:.1} -ly adverbs per 100 words"),
        [
            "Adverbs are used sparingly.",
            "Some adverbs could go; a stronger verb often says it better (\"sprinted\", not \"ran quickly\").",
            "Many -ly adverbs; replace most with stronger verbs and concrete detail.",
        ],
    )
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
/// by a past participle; up to 5% scores 100, 25% or more 0.
pub(crate) fn passive_voice(doc: &Doc) -> QualityPart {
    if doc.sentences.is_empty() {
        return unmeasured("passive_voice", "Passive voice");
    }
    let passive = doc
        .sentences
        .iter()
        .filter(|s| has_passive(doc, doc.sentence_tokens(s)))
        .count();
    let share = passive as f64 / doc.sentences.len() as f64;
    let value = 100.0 - (share - 0.05).max(0.0) * 500.0;
    scored(
        "passive_voice",
        "Passive voice",
        value,
        format!("{:.0}% of sentences", share * 100.0),
        [
            "Mostly active voice; clear and direct.",
            "Some passive constructions; say who does what where it matters.",
            "Frequent passive voice; rewrite sentences so the actor comes first.",
        ],
    )
}

fn has_passive(doc: &Doc, tokens: &[crate::doc::Token]) -> bool {
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

    #[test]
    fn adverbs_and_passives_lower_their_scores() {
        let clean = Doc::single("Ann wrote the letter. Tom baked a cake. They ate it at noon.");
        let heavy = Doc::single(
            "The letter was quickly written. The cake was slowly baked. It was eagerly eaten.",
        );
        assert!(adverbs(&heavy).score < adverbs(&clean).score);
        assert!(passive_voice(&heavy).score < passive_voice(&clean).score);
    }

    #[test]
    fn dialogue_is_measured_between_quotes() {
        let doc = Doc::single("\u{201C}Come here,\u{201D} she said. \"Now,\" he said. They went.");
        let share = dialogue_share(&doc);
        assert!((share - 3.0 / 9.0).abs() < 1e-9, "{share}");
        let unclosed = Doc::single("\"Never closed\n\nNarration goes on here.");
        assert!(dialogue_share(&unclosed) < 0.5);
    }
}
