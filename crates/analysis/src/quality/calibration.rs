//! The published reference every quality part is judged against: for each kind of text
//! and each part, the centre and spread of the part's raw values among published books of
//! that kind, on the part's scale (see [`Scale`]).
//!
//! The table is `data/quality_calibration.tsv`, compiled in. [`table`] writes it from the
//! raw measurements of published books; the test `real_books` runs it on the development
//! set's `tune` books (never the `holdout` ones, which measure the result) and fails when
//! the committed table differs from what it gives, so the two never drift apart.
//!
//! There are few books of each kind, so the spread is smoothed: each kind's variance
//! borrows [`PSEUDO_BOOKS`] books' worth of the within-kind variance pooled over every
//! kind (the kinds differ in level more than in spread), and never falls below the part's
//! least spread. A kind without books takes the mean of all books.

use std::fmt::Write as _;
use std::sync::OnceLock;

use super::parts::SPECS;
use super::{Kind, Measures};

/// How many books' worth of pooled within-kind variance each kind's variance borrows.
pub const PSEUDO_BOOKS: f64 = 3.0;

/// The committed table.
const TABLE: &str = include_str!("../../data/quality_calibration.tsv");

/// The columns of the table.
const HEADER: &str = "kind\tpart\tbooks\tscale\tcenter\tspread\tmedian\tlow\thigh";

/// Where a kind's published books stand on one part.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Reference {
    /// Books of the kind the figures come from.
    pub books: usize,
    /// Mean, on the part's scale.
    pub center: f64,
    /// Standard deviation (smoothed), on the part's scale.
    pub spread: f64,
}

impl Reference {
    /// How many spreads `point` (on the part's scale) lies above the centre.
    pub fn z(&self, point: f64) -> f64 {
        (point - self.center) / self.spread
    }
}

#[derive(Debug)]
struct Row {
    kind: Kind,
    key: String,
    reference: Reference,
}

/// The reference for `key` among published books of `kind`, if the table has it.
pub(crate) fn reference(kind: Kind, key: &str) -> Option<Reference> {
    rows()
        .iter()
        .find(|r| r.kind == kind && r.key == key)
        .map(|r| r.reference)
}

fn rows() -> &'static [Row] {
    static ROWS: OnceLock<Vec<Row>> = OnceLock::new();
    ROWS.get_or_init(|| parse(TABLE))
}

/// The rows of a table; lines that do not read as a row are skipped.
fn parse(text: &str) -> Vec<Row> {
    text.lines()
        .filter(|l| !l.starts_with('#') && *l != HEADER)
        .filter_map(|line| {
            let c: Vec<&str> = line.split('\t').collect();
            let number = |i: usize| c.get(i).and_then(|v| v.parse::<f64>().ok());
            let reference = Reference {
                books: c.get(2)?.parse().ok()?,
                center: number(4)?,
                spread: number(5).filter(|s| *s > 0.0)?,
            };
            Some(Row {
                kind: Kind::from_name(c.first()?)?,
                key: (*c.get(1)?).to_owned(),
                reference,
            })
        })
        .collect()
}

/// The calibration table of the published books whose raw measurements are `books`.
pub fn table(books: &[Measures]) -> String {
    let count = |kind: Kind| books.iter().filter(|b| b.kind == kind).count();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# Quality calibration: where each part's raw value lies among published books of \
         each kind.\n# Written by quality::calibration::table from the development set's tune \
         books only ({} books: prose {}, verse {}, play {});\n# regenerate with \
         QUIRE_WRITE_QUALITY_CALIBRATION=1 cargo test --release -p quire-analysis --test \
         real_books calibration.\n# center and spread: mean and standard deviation on the \
         part's scale, the spread smoothed with {PSEUDO_BOOKS} books' worth\n# of the \
         within-kind variance pooled over the kinds; median, low, high: raw values (median \
         from the centre).",
        books.len(),
        count(Kind::Prose),
        count(Kind::Verse),
        count(Kind::Play),
    );
    out.push_str(HEADER);
    out.push('\n');
    for spec in SPECS {
        let points = |kind: Kind| -> Vec<(f64, f64)> {
            books
                .iter()
                .filter(|b| b.kind == kind)
                .flat_map(|b| &b.values)
                .filter(|(k, _)| *k == spec.key)
                .map(|&(_, v)| (v, spec.scale.to(v)))
                .filter(|(_, p)| p.is_finite())
                .collect()
        };
        let by_kind: Vec<(Kind, Vec<(f64, f64)>)> =
            Kind::ALL.iter().map(|&k| (k, points(k))).collect();
        let all: Vec<f64> = by_kind
            .iter()
            .flat_map(|(_, p)| p.iter().map(|(_, t)| *t))
            .collect();
        let overall_mean = mean(&all);
        let (squares, freedom) =
            by_kind
                .iter()
                .filter(|(_, p)| p.len() >= 2)
                .fold((0.0, 0.0), |(s, f), (_, p)| {
                    let t: Vec<f64> = p.iter().map(|(_, t)| *t).collect();
                    (s + sum_of_squares(&t), f + (t.len() - 1) as f64)
                });
        let pooled = if freedom > 0.0 {
            squares / freedom
        } else {
            0.0
        };
        for (kind, p) in &by_kind {
            if spec.left_out(*kind).is_some() {
                continue;
            }
            let t: Vec<f64> = p.iter().map(|(_, t)| *t).collect();
            let center = if t.is_empty() { overall_mean } else { mean(&t) };
            let freedom = t.len().saturating_sub(1) as f64;
            let variance = (sum_of_squares(&t) + PSEUDO_BOOKS * pooled) / (freedom + PSEUDO_BOOKS);
            let spread = variance.sqrt().max(spec.min_spread);
            let raw = p.iter().map(|(v, _)| *v);
            let low = raw.clone().fold(f64::INFINITY, f64::min);
            let high = raw.fold(f64::NEG_INFINITY, f64::max);
            let range = |v: f64| {
                if v.is_finite() {
                    format!("{v:.4}")
                } else {
                    "-".to_owned()
                }
            };
            let _ = writeln!(
                out,
                "{}\t{}\t{}\t{}\t{center:.4}\t{spread:.4}\t{:.4}\t{}\t{}",
                kind.name(),
                spec.key,
                t.len(),
                spec.scale.name(),
                spec.scale.from(center),
                range(low),
                range(high),
            );
        }
    }
    out
}

fn mean(values: &[f64]) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    values.iter().sum::<f64>() / values.len() as f64
}

fn sum_of_squares(values: &[f64]) -> f64 {
    let m = mean(values);
    values.iter().map(|v| (v - m).powi(2)).sum()
}

/// The standard normal distribution function (Abramowitz and Stegun 7.1.26, within
/// 1.5e-7).
pub(crate) fn normal_cdf(z: f64) -> f64 {
    let x = z.abs() / std::f64::consts::SQRT_2;
    let t = 1.0 / (1.0 + 0.327_591_1 * x);
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    let erf = 1.0 - poly * (-x * x).exp();
    if z >= 0.0 {
        0.5 * (1.0 + erf)
    } else {
        0.5 * (1.0 - erf)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_committed_table_has_every_part_of_every_kind() {
        for kind in Kind::ALL {
            for spec in SPECS {
                let found = reference(kind, spec.key);
                match spec.left_out(kind) {
                    Some(_) => assert!(found.is_none(), "{kind:?} {}", spec.key),
                    None => {
                        let r = found.unwrap_or_else(|| panic!("{kind:?} {}", spec.key));
                        assert!(r.spread >= spec.min_spread - 1e-4, "{kind:?} {}", spec.key);
                        assert!(r.center.is_finite());
                    }
                }
            }
        }
    }

    #[test]
    fn a_table_reads_back_as_it_was_written() {
        let books = vec![
            Measures {
                kind: Kind::Prose,
                values: vec![("readability", 6.0), ("adverbs", 1.0)],
            },
            Measures {
                kind: Kind::Prose,
                values: vec![("readability", 10.0), ("adverbs", 2.0)],
            },
            Measures {
                kind: Kind::Play,
                values: vec![("readability", 4.0)],
            },
        ];
        let text = table(&books);
        let rows = parse(&text);
        let find = |kind: Kind, key: &str| {
            rows.iter()
                .find(|r| r.kind == kind && r.key == key)
                .map(|r| r.reference)
                .unwrap()
        };
        let prose = find(Kind::Prose, "readability");
        assert_eq!(prose.books, 2);
        assert!((prose.center - 8.0).abs() < 1e-9);
        // Its own variance (8 over 1 degree of freedom) and 3 books' worth of the pooled
        // (8): 32 / 4.
        assert!((prose.spread - 8f64.sqrt()).abs() < 1e-4, "{prose:?}");
        // One play: its own level, the pooled spread.
        let play = find(Kind::Play, "readability");
        assert_eq!((play.books, play.center), (1, 4.0));
        assert!(
            (play.spread - (24f64 / 3.0).sqrt()).abs() < 1e-4,
            "{play:?}"
        );
        // No verse: the mean of all books; no values at all: the least spread.
        let verse = find(Kind::Verse, "readability");
        assert!((verse.center - 20.0 / 3.0).abs() < 1e-4 && verse.books == 0);
        assert!(
            rows.iter()
                .all(|r| r.kind != Kind::Verse || r.key != "dialogue")
        );
        let spelling = find(Kind::Prose, "spelling");
        assert!((spelling.spread - 0.25).abs() < 1e-9);
    }

    #[test]
    fn the_normal_distribution_function_is_close() {
        assert!((normal_cdf(0.0) - 0.5).abs() < 1e-7);
        assert!((normal_cdf(1.0) - 0.841_344_7).abs() < 1e-6);
        assert!((normal_cdf(-1.96) - 0.024_997_9).abs() < 1e-6);
        assert!(normal_cdf(-40.0) >= 0.0 && normal_cdf(40.0) <= 1.0);
    }
}
