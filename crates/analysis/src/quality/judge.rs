//! From a raw measurement to its score, its place among published writing and its advice.
//!
//! A value's distance from the published centre of its kind, in spreads, counts against
//! it only on the side that reads worse (more adverbs, less variety; either way for the
//! dialogue share). The published centre scores [`MEDIAN_SCORE`], each spread worse costs
//! 7.5 points up to two spreads (65: the edge of the published range), then 15 points a
//! spread; each spread better gains 7.5 points, up to 100. The advice follows the score:
//! good from [`GOOD`], fair from [`FAIR`], poor below.

use super::calibration::{self, Reference};
use super::parts::{Spec, Worse};
use super::{Kind, Measured, QualityPart, score};

/// The score of a value at the published centre.
pub(crate) const MEDIAN_SCORE: f64 = 80.0;
/// The lowest good score: about 1.3 spreads worse than the centre.
pub(crate) const GOOD: f64 = 70.0;
/// The lowest fair score: about 3.3 spreads worse than the centre, well outside the
/// published range.
pub(crate) const FAIR: f64 = 45.0;

/// The part `spec` of a text of `kind` whose measure found `measured`.
pub(crate) fn part(spec: &Spec, kind: Kind, measured: Measured) -> QualityPart {
    let (value, measure, advice) = match measured {
        Measured::Nothing => (
            0.0,
            "no words to measure".to_owned(),
            "Add text to get this score.".to_owned(),
        ),
        Measured::Neutral { shown, advice } => (MEDIAN_SCORE, shown, advice.to_owned()),
        Measured::Value(raw) => {
            let reference = calibration::reference(kind, spec.key)
                .or_else(|| calibration::reference(Kind::Prose, spec.key));
            let z = reference.map_or(0.0, |r: Reference| r.z(spec.scale.to(raw.value)));
            let value = score_for(match spec.worse {
                Worse::Higher => z,
                Worse::Lower => -z,
                Worse::EitherWay => z.abs(),
            });
            let advice = if value >= GOOD {
                spec.advice[0]
            } else {
                let band = usize::from(value < FAIR);
                if spec.worse == Worse::EitherWay && z < 0.0 {
                    spec.low_advice[band]
                } else {
                    spec.advice[band + 1]
                }
            };
            let standing = match reference {
                Some(_) => standing(z, kind),
                None => "no published reference".to_owned(),
            };
            (
                value,
                format!("{}; {standing}", raw.shown),
                advice.replace("{}", &raw.examples),
            )
        }
    };
    QualityPart {
        key: spec.key,
        label: spec.label,
        score: score(value),
        measure,
        advice,
    }
}

/// The score of a value `badness` spreads on the worse side of the published centre
/// (negative: on the better side), before clamping.
pub(crate) fn score_for(badness: f64) -> f64 {
    if badness <= 2.0 {
        MEDIAN_SCORE - 7.5 * badness
    } else {
        MEDIAN_SCORE - 15.0 - 15.0 * (badness - 2.0)
    }
}

/// Where a value `z` spreads above the centre stands among published writing of `kind`.
fn standing(z: f64, kind: Kind) -> String {
    let p = 100.0 * calibration::normal_cdf(z);
    let published = kind.published();
    if p < 2.0 {
        return format!("lower than nearly all {published}");
    }
    if p > 98.0 {
        return format!("higher than nearly all {published}");
    }
    let place = if p < 25.0 {
        "lower than most"
    } else if p > 75.0 {
        "higher than most"
    } else {
        "typical of"
    };
    format!(
        "{place} {published} ({} percentile)",
        ordinal(p.round() as u32)
    )
}

/// "1st", "2nd", "3rd", "11th", "42nd".
fn ordinal(n: u32) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::quality::Raw;
    use crate::quality::parts::SPECS;

    fn spec(key: &str) -> &'static Spec {
        SPECS.iter().find(|s| s.key == key).unwrap()
    }

    fn judged(key: &str, kind: Kind, value: f64) -> QualityPart {
        part(spec(key), kind, Raw::measured(value, format!("{value}")))
    }

    #[test]
    fn the_published_centre_scores_80_and_only_far_outside_is_poor() {
        assert_eq!(score(score_for(0.0)), 80);
        assert_eq!(score(score_for(2.0)), 65);
        assert_eq!(score(score_for(4.0)), 35);
        assert_eq!(score(score_for(-3.0)), 100);
        assert!(score_for(1.0) > score_for(1.5));
        let centre = calibration::reference(Kind::Prose, "readability").unwrap();
        let median = judged("readability", Kind::Prose, centre.center);
        assert_eq!(median.score, 80, "{median:?}");
        assert!(
            median
                .measure
                .contains("typical of published prose (50th percentile)")
        );
    }

    #[test]
    fn only_the_worse_side_costs() {
        let r = calibration::reference(Kind::Prose, "adverbs").unwrap();
        let scale = spec("adverbs").scale;
        let few = judged(
            "adverbs",
            Kind::Prose,
            scale.from(r.center - 2.0 * r.spread),
        );
        let many = judged(
            "adverbs",
            Kind::Prose,
            scale.from(r.center + 4.0 * r.spread),
        );
        assert!(few.score >= 95 && many.score <= 40, "{few:?} {many:?}");
        assert!(
            few.measure.contains("lower than most published prose"),
            "{few:?}"
        );
        assert!(many.measure.contains("higher than nearly all"), "{many:?}");
        assert!(many.advice.starts_with("Far more"), "{many:?}");
    }

    #[test]
    fn dialogue_is_judged_both_ways_with_advice_for_each_side() {
        let r = calibration::reference(Kind::Prose, "dialogue").unwrap();
        let little = judged(
            "dialogue",
            Kind::Prose,
            (r.center - 2.5 * r.spread).max(0.02),
        );
        let much = judged(
            "dialogue",
            Kind::Prose,
            (r.center + 3.5 * r.spread).min(1.0),
        );
        assert!(little.score < 70 && much.score < 70, "{little:?} {much:?}");
        assert!(little.advice.contains("Less dialogue") || little.advice.contains("little"));
        assert!(much.advice.contains("More") || much.advice.contains("Almost all"));
    }

    #[test]
    fn ordinals() {
        let got: Vec<String> = [1, 2, 3, 4, 11, 12, 13, 21, 42, 99]
            .into_iter()
            .map(ordinal)
            .collect();
        assert_eq!(
            got,
            [
                "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "42nd", "99th"
            ]
        );
    }
}
