//! Writing-quality scores in the manner of ProWritingAid and Hemingway, calibrated on
//! published writing: each part is a measurement, a 0-100 score and one line of advice,
//! and `overall_score` is their weighted mean.
//!
//! A text is judged within its kind ([`Kind`]: prose, verse or a play), as its kind is
//! read ([`reading`]): a verse line is not a sentence, a play's speakers' names and stage
//! directions are not text and its speeches are its dialogue. Each measurement is placed
//! among the published books of the same kind (the development set's `tune` books; see
//! `data/quality_calibration.tsv` and [`calibration`]), and scored by how far it lies
//! from them on the side that reads worse ([`judge`]): the published median scores 80,
//! the edge of the published range 65, and only far outside it is poor. Parts that say
//! nothing about a kind's craft (dialogue and chapter balance in verse) are left out,
//! with a note.
//!
//! The weights, in [`WEIGHTS`], favour what readers notice first: readability 2, sentence
//! length 1.5, spelling 1.5, then 1 each for sentence variety, lexical richness, adverbs,
//! passive voice and repeated words, and 0.5 each for dialogue share and chapter balance
//! (both depend on the kind of book as much as on its craft).

pub mod calibration;
mod dialogue;
mod judge;
mod parts;
mod reading;
mod sentences;
mod style;
mod vocabulary;

use serde::Serialize;

use crate::ChapterText;
use crate::doc::Doc;
use reading::Reading;

/// All quality parts and their weighted mean.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Quality {
    /// Weighted mean of the parts, 0-100.
    pub overall_score: u8,
    /// The kind the text was judged as.
    pub kind: Kind,
    /// One entry per measured aspect.
    pub parts: Vec<QualityPart>,
    /// The parts left out for this kind of text, and why.
    pub notes: Vec<String>,
}

/// One measured aspect of the writing.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct QualityPart {
    /// Stable machine key ("readability", "adverbs", ...).
    pub key: &'static str,
    /// Human label.
    pub label: &'static str,
    /// 0 (poor) to 100 (good); 80 is the published median.
    pub score: u8,
    /// What was measured and where it falls among published writing of its kind, e.g.
    /// "grade 7.4, reading ease 74; typical of published prose (48th percentile)".
    pub measure: String,
    /// One line of advice.
    pub advice: String,
}

/// The kind of text, which decides how it is read and what it is compared with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// Prose: novels, stories, non-fiction.
    Prose,
    /// Verse: most lines short and running on (the genre's "verse lines" reading).
    Verse,
    /// A play: speeches after their speakers' names, stage directions between them.
    Play,
}

impl Kind {
    /// Every kind, in a fixed order.
    pub const ALL: [Kind; 3] = [Kind::Prose, Kind::Verse, Kind::Play];

    /// The kind of `text`, given whether the genre's reading found it a play.
    pub fn detect(text: &str, play: bool) -> Kind {
        if play {
            Kind::Play
        } else if crate::genre::is_verse(text) {
            Kind::Verse
        } else {
            Kind::Prose
        }
    }

    /// Its name in the calibration table ("prose", "verse", "play").
    pub fn name(self) -> &'static str {
        match self {
            Kind::Prose => "prose",
            Kind::Verse => "verse",
            Kind::Play => "play",
        }
    }

    /// How a sentence names published writing of the kind ("published prose").
    pub fn published(self) -> &'static str {
        match self {
            Kind::Prose => "published prose",
            Kind::Verse => "published verse",
            Kind::Play => "published plays",
        }
    }

    /// The kind named `name`.
    pub fn from_name(name: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.name() == name)
    }
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

/// The raw measurements of a text, before they are judged: what the calibration is
/// made of.
#[derive(Debug, Clone, PartialEq)]
pub struct Measures {
    /// The kind the text is read as.
    pub kind: Kind,
    /// (part key, raw value) for every part measured, in the order of [`WEIGHTS`].
    pub values: Vec<(&'static str, f64)>,
}

/// The raw measurements of a manuscript, read as [`crate::analyse`] reads it.
pub fn measure(chapters: &[ChapterText]) -> Measures {
    let (full, spans) = crate::join_chapters(chapters);
    let play = crate::genre::judge(&full, None).evidence.play;
    let kind = Kind::detect(&full, play);
    let doc = Doc::new(&full, &spans);
    let reading = Reading::of(&doc, kind);
    let values = parts::SPECS
        .iter()
        .filter(|spec| spec.left_out(kind).is_none())
        .filter_map(|spec| match (spec.measure)(&doc, &reading, kind) {
            Measured::Value(raw) => Some((spec.key, raw.value)),
            Measured::Neutral { .. } | Measured::Nothing => None,
        })
        .collect();
    Measures { kind, values }
}

/// Scores the writing of `doc`, a text of `kind`.
pub(crate) fn assess(doc: &Doc, kind: Kind) -> Quality {
    let reading = Reading::of(doc, kind);
    let mut parts = Vec::with_capacity(parts::SPECS.len());
    let mut notes = Vec::new();
    for spec in parts::SPECS {
        match spec.left_out(kind) {
            Some(note) => notes.push(note.to_owned()),
            None => parts.push(judge::part(spec, kind, (spec.measure)(doc, &reading, kind))),
        }
    }
    let (sum, weights) = parts.iter().fold((0.0, 0.0), |(sum, weights), part| {
        let w = weight(part.key);
        (sum + w * f64::from(part.score), weights + w)
    });
    Quality {
        overall_score: score(sum / weights),
        kind,
        parts,
        notes,
    }
}

/// The weight of a part in the overall score (1 for a key [`WEIGHTS`] lacks).
fn weight(key: &str) -> f64 {
    WEIGHTS
        .iter()
        .find(|(k, _)| *k == key)
        .map_or(1.0, |(_, w)| *w)
}

/// What a measure found.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Measured {
    /// A value to place among published writing.
    Value(Raw),
    /// Nothing to judge, and nothing wrong (no dialogue, one chapter): scores the
    /// published median, with this measure and advice.
    Neutral { shown: String, advice: &'static str },
    /// No words to measure.
    Nothing,
}

#[cfg(test)]
impl Measured {
    /// The raw value, for tests that expect one.
    pub(crate) fn value(self) -> f64 {
        match self {
            Measured::Value(raw) => raw.value,
            other => panic!("{other:?}"),
        }
    }
}

/// A raw measurement.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Raw {
    /// The value calibrated and judged.
    pub value: f64,
    /// How it reads ("grade 7.4, reading ease 74").
    pub shown: String,
    /// Words the advice may quote (for `{}` in its text), or empty.
    pub examples: String,
}

impl Raw {
    /// A measured value without examples.
    pub fn measured(value: f64, shown: String) -> Measured {
        Measured::Value(Raw {
            value,
            shown,
            examples: String::new(),
        })
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Run-on sentences, words repeated close together, adverbs everywhere and
    /// misspellings: what a first draft in trouble looks like.
    pub(crate) const POOR: &str = "The man walked really slowly and quietly down the \
        long road and the road was very long and the man was really very tired and he \
        walked and walked slowly and sadly and the road went on and on and on and he \
        thought that the road would never ever end and he was definately tired of the \
        road and tired of walking and tired of everything reallly. He suddenly saw a \
        house and the house was a big house and the house was totaly dark and he quickly \
        and nervously walked to the house and knocked loudly and repeatedly on the door \
        of the house and nobody answerred and he knocked again loudly and angrily and \
        nobody answerred again and he was extremely and completely dissapointed. He \
        finally sat down heavily on the step of the house and he sadly and slowly looked \
        at the road and the road was still very long and very dark and he basically \
        just sat there quietly and sadly and wierdly for a really really long time \
        untill the sun slowly and finally came up and he was still tired and still \
        sitting and still sad and still waiting for somebody to finaly open the door.";

    /// Plain, varied, published-like prose.
    const CLEAN: &str = "Maria opened the shop at seven. She swept the floor, stacked the \
        bread and lit the old oven. A boy came in for rolls. He paid with coins from his \
        pocket and ran to school, late again. At noon the baker's brother brought flour \
        from the mill in his cart. They carried the sacks to the back room together, \
        arguing about the price of wheat and the weather and whether the river would \
        flood before the harvest was in. Maria counted the money after lunch. \"Enough,\" \
        she said. The day had gone well, and she locked the door at six.";

    #[test]
    fn every_part_has_a_weight_and_says_where_it_stands() {
        let doc = Doc::single(CLEAN);
        let q = assess(&doc, Kind::Prose);
        assert_eq!(q.parts.len(), WEIGHTS.len());
        assert!(q.notes.is_empty());
        for part in &q.parts {
            assert!(WEIGHTS.iter().any(|(k, _)| *k == part.key), "{}", part.key);
            assert!(!part.advice.is_empty() && !part.measure.is_empty());
        }
        let readability = &q.parts[0];
        assert!(
            readability.measure.contains("published prose"),
            "{readability:?}"
        );
    }

    #[test]
    fn verse_leaves_out_dialogue_and_chapter_balance_with_a_note() {
        let q = assess(&Doc::single(CLEAN), Kind::Verse);
        let keys: Vec<&str> = q.parts.iter().map(|p| p.key).collect();
        assert!(!keys.contains(&"dialogue") && !keys.contains(&"chapter_balance"));
        assert_eq!(q.parts.len() + 2, WEIGHTS.len());
        assert_eq!(q.notes.len(), 2);
        assert!(q.notes.iter().all(|n| n.contains("verse")), "{:?}", q.notes);
    }

    #[test]
    fn empty_text_scores_zero_without_panicking() {
        for kind in Kind::ALL {
            let q = assess(&Doc::single(""), kind);
            assert!(q.overall_score <= 10, "{kind:?} {}", q.overall_score);
        }
    }

    #[test]
    fn a_poor_manuscript_scores_clearly_below_plain_prose() {
        let poor = assess(&Doc::single(POOR), Kind::Prose);
        let clean = assess(&Doc::single(CLEAN), Kind::Prose);
        assert!(
            poor.overall_score + 25 <= clean.overall_score,
            "poor {} clean {}",
            poor.overall_score,
            clean.overall_score
        );
        assert!(poor.overall_score < 55, "{poor:#?}");
        let part = |key: &str| poor.parts.iter().find(|p| p.key == key).unwrap();
        for key in ["sentence_length", "adverbs", "repeated_words", "spelling"] {
            assert!(part(key).score < 45, "{:?}", part(key));
        }
        assert!(part("spelling").advice.contains("\"answerred\""));
    }

    #[test]
    fn kinds_are_named_both_ways() {
        for kind in Kind::ALL {
            assert_eq!(Kind::from_name(kind.name()), Some(kind));
        }
        assert_eq!(Kind::from_name("novel"), None);
        assert_eq!(Kind::detect("word ".repeat(50).as_str(), true), Kind::Play);
        let verse = "The heron stands in the shallows\nlike a question no one asked,\n";
        assert_eq!(Kind::detect(&verse.repeat(10), false), Kind::Verse);
        assert_eq!(Kind::detect(CLEAN, false), Kind::Prose);
    }

    #[test]
    fn scores_clamp() {
        assert_eq!(score(-5.0), 0);
        assert_eq!(score(250.0), 100);
        assert_eq!(score(f64::NAN), 0);
        assert_eq!(score(49.6), 50);
    }
}
