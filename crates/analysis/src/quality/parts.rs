//! The parts of the quality score: what each measures, on which scale its values spread
//! among published books, which way reads worse, and the advice for each band.

use super::reading::Reading;
use super::{Kind, Measured, dialogue, sentences, style, vocabulary};
use crate::doc::Doc;

/// How a part's raw values spread among published books: the calibration fits a normal
/// distribution to the values on this scale.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Scale {
    /// The value itself (a grade, a share that is never near 0).
    Linear,
    /// ln(value + offset): rates that are skewed, with a floor for zeros.
    Log(f64),
    /// ln((value + e) / (1 + e - value)): shares, which cannot pass 0 or 1, with a floor
    /// `e` for shares of none or all.
    Logit(f64),
}

impl Scale {
    /// The value on this scale.
    pub fn to(self, value: f64) -> f64 {
        match self {
            Scale::Linear => value,
            Scale::Log(offset) => (value.max(0.0) + offset).ln(),
            Scale::Logit(e) => {
                let v = value.clamp(0.0, 1.0);
                ((v + e) / (1.0 + e - v)).ln()
            }
        }
    }

    /// The raw value of a point on this scale.
    pub fn from(self, point: f64) -> f64 {
        match self {
            Scale::Linear => point,
            Scale::Log(offset) => (point.exp() - offset).max(0.0),
            Scale::Logit(e) => {
                let odds = point.exp();
                ((odds * (1.0 + e) - e) / (1.0 + odds)).clamp(0.0, 1.0)
            }
        }
    }

    /// Its name in the calibration table.
    pub fn name(self) -> String {
        match self {
            Scale::Linear => "linear".to_owned(),
            Scale::Log(offset) => format!("log(x+{offset})"),
            Scale::Logit(e) => format!("logit(x,{e})"),
        }
    }
}

/// Which side of the published distribution reads worse.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Worse {
    /// More is worse (adverbs, misspellings): fewer than published books is fine.
    Higher,
    /// Less is worse (vocabulary, variety): more than published books is fine.
    Lower,
    /// Either way is unusual (dialogue share).
    EitherWay,
}

/// One part of the score.
pub(crate) struct Spec {
    pub key: &'static str,
    pub label: &'static str,
    pub measure: fn(&Doc, &Reading, Kind) -> Measured,
    pub scale: Scale,
    pub worse: Worse,
    /// The least spread (on `scale`) the calibration gives a kind, so that a few books
    /// that happen to agree do not make every other text an outlier.
    pub min_spread: f64,
    /// Advice when the score is good, fair and poor; `{}` stands for the measure's
    /// examples. For [`Worse::EitherWay`] the fair and poor advice are for the high side.
    pub advice: [&'static str; 3],
    /// For [`Worse::EitherWay`], the fair and poor advice on the low side.
    pub low_advice: [&'static str; 2],
}

impl Spec {
    /// Why this part is left out for `kind`, if it is.
    pub fn left_out(&self, kind: Kind) -> Option<&'static str> {
        match (kind, self.key) {
            (Kind::Verse, "dialogue") => Some(
                "Dialogue is not scored for verse: a poem may speak in many voices or in one, \
                 and neither is a fault.",
            ),
            (Kind::Verse, "chapter_balance") => Some(
                "Chapter balance is not scored for verse: a poem, canto or book of verse is \
                 as long as it needs to be.",
            ),
            _ => None,
        }
    }
}

/// The parts, in the order of [`super::WEIGHTS`].
pub(crate) const SPECS: &[Spec] = &[
    Spec {
        key: "readability",
        label: "Readability",
        measure: sentences::readability,
        scale: Scale::Linear,
        worse: Worse::Higher,
        min_spread: 1.0,
        advice: [
            "Reads as easily as published writing of its kind; keep it up.",
            "Harder going than most published writing of its kind; shorter sentences and \
             plainer words would widen your readership.",
            "Far harder to read than published writing of its kind; split long sentences and \
             prefer short, common words.",
        ],
        low_advice: ["", ""],
    },
    Spec {
        key: "sentence_length",
        label: "Sentence length",
        measure: sentences::length,
        scale: Scale::Logit(0.02),
        worse: Worse::Higher,
        min_spread: 0.25,
        advice: [
            "Sentence lengths are comfortable for a text of its kind.",
            "More long sentences than most published writing of its kind; break up those \
             over 30 words where the meaning allows.",
            "Far more sentences run over 30 words than in published writing of its kind; \
             readers lose the thread, so split them.",
        ],
        low_advice: ["", ""],
    },
    Spec {
        key: "sentence_variety",
        label: "Sentence variety",
        measure: sentences::variety,
        scale: Scale::Log(0.01),
        worse: Worse::Lower,
        min_spread: 0.1,
        advice: [
            "Sentence lengths vary as in published writing, which keeps the rhythm lively.",
            "Sentence lengths are more uniform than in most published writing; mix in short \
             and long sentences.",
            "Sentences are nearly all the same length; vary them to avoid a monotonous rhythm.",
        ],
        low_advice: ["", ""],
    },
    Spec {
        key: "lexical_richness",
        label: "Lexical richness",
        measure: vocabulary::richness,
        scale: Scale::Log(0.0),
        worse: Worse::Lower,
        min_spread: 0.1,
        advice: [
            "A vocabulary as varied as published writing of its kind.",
            "The vocabulary is narrower than in most published writing; look for places \
             where a more precise word fits.",
            "The same words recur far more than in published writing; vary your word choice.",
        ],
        low_advice: ["", ""],
    },
    Spec {
        key: "dialogue",
        label: "Dialogue",
        measure: dialogue::dialogue,
        scale: Scale::Linear,
        worse: Worse::EitherWay,
        min_spread: 0.05,
        advice: [
            "A balance of dialogue and narration within the range of published writing of its kind.",
            "More of the text is dialogue than in most published writing of its kind; some \
             narration would ground the scenes.",
            "Almost all dialogue; a little narration (or, in a play, stage direction) would \
             ground the scenes.",
        ],
        low_advice: [
            "Less dialogue than in most published writing of its kind; letting characters \
             speak can show rather than tell.",
            "Very little of the text is spoken, far less than in published writing of its \
             kind; give the characters their own voices.",
        ],
    },
    Spec {
        key: "adverbs",
        label: "Adverbs",
        measure: style::adverbs,
        scale: Scale::Log(0.2),
        worse: Worse::Higher,
        min_spread: 0.15,
        advice: [
            "Adverbs are used as sparingly as in published writing.",
            "More -ly adverbs than in most published writing (most often {}); a stronger verb \
             often says it better (\"sprinted\", not \"ran quickly\").",
            "Far more -ly adverbs than in published writing (most often {}); replace most with \
             stronger verbs and concrete detail.",
        ],
        low_advice: ["", ""],
    },
    Spec {
        key: "passive_voice",
        label: "Passive voice",
        measure: style::passive_voice,
        scale: Scale::Logit(0.02),
        worse: Worse::Higher,
        min_spread: 0.25,
        advice: [
            "Mostly active voice, as published writing of its kind is.",
            "More passive constructions than most published writing; say who does what where \
             it matters.",
            "Far more passive voice than in published writing; rewrite sentences so the actor \
             comes first.",
        ],
        low_advice: ["", ""],
    },
    Spec {
        key: "repeated_words",
        label: "Repeated words",
        measure: vocabulary::repeated_words,
        scale: Scale::Log(0.2),
        worse: Worse::Higher,
        min_spread: 0.15,
        advice: [
            "Few close repetitions, as in published writing.",
            "Words recur close together more than in most published writing (most often {}); \
             use a synonym or rephrase.",
            "Words recur close together far more than in published writing (most often {}); \
             use a synonym, a pronoun, or rephrase.",
        ],
        low_advice: ["", ""],
    },
    Spec {
        key: "spelling",
        label: "Spelling",
        measure: vocabulary::spelling,
        scale: Scale::Log(1.0),
        worse: Worse::Higher,
        min_spread: 0.25,
        advice: [
            "Spelling within the range of published writing of its kind.",
            "More unknown spellings than most published writing; check words such as {}.",
            "Many likely misspellings, far more than in published writing; check words such \
             as {}.",
        ],
        low_advice: ["", ""],
    },
    Spec {
        key: "chapter_balance",
        label: "Chapter balance",
        measure: style::chapter_balance,
        scale: Scale::Log(0.1),
        worse: Worse::Higher,
        min_spread: 0.2,
        advice: [
            "Chapter lengths vary no more than in published books, which gives an even pace.",
            "Chapter lengths vary more than in most published books; check that very short or \
             long chapters are deliberate.",
            "Chapter lengths vary far more than in published books; consider splitting the \
             longest chapters or merging the shortest.",
        ],
        low_advice: ["", ""],
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_parts_are_those_weighed() {
        let keys: Vec<&str> = SPECS.iter().map(|s| s.key).collect();
        let weighed: Vec<&str> = super::super::WEIGHTS.iter().map(|(k, _)| *k).collect();
        assert_eq!(keys, weighed);
        for s in SPECS {
            assert!(s.min_spread > 0.0, "{}", s.key);
            let needs_examples = matches!(s.key, "adverbs" | "repeated_words" | "spelling");
            assert_eq!(s.advice[1].contains("{}"), needs_examples, "{}", s.key);
            assert_eq!(
                s.low_advice.iter().all(|a| !a.is_empty()),
                s.worse == Worse::EitherWay,
                "{}",
                s.key
            );
        }
    }

    #[test]
    fn scales_go_there_and_back() {
        for scale in [Scale::Linear, Scale::Log(0.2), Scale::Logit(0.02)] {
            let values: &[f64] = match scale {
                Scale::Logit(_) => &[0.0, 0.3, 0.5, 1.0],
                _ => &[0.0, 0.5, 3.0, 40.0],
            };
            for &v in values {
                assert!((scale.from(scale.to(v)) - v).abs() < 1e-9, "{scale:?} {v}");
            }
        }
    }
}
