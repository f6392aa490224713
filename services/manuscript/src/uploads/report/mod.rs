//! What the analysis found in a manuscript, as it is stored (`manuscripts.report`, JSON)
//! and answered (the proto `ManuscriptReport`). The stored form is this crate's own, not
//! quire-analysis's types, so that the analysis may change its shapes without making old
//! rows unreadable: a field added later reads as empty in a report stored before it
//! (`#[serde(default)]`). Why the genre and the summaries are what they are (`evidence`),
//! and the report as the service answers it (`answer`), are concerns of their own.

mod answer;
mod evidence;

pub use answer::Heading;
pub use evidence::{GenreEvidence, GenreFeature, GenrePassage, SummarySource};

use quire_analysis::Analysis;
use quire_kit::error::CommonErrors;
use serde::{Deserialize, Serialize};

use crate::error::ManuscriptError;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Report {
    pub short_summary: String,
    pub long_summary: String,
    pub authors: Vec<String>,
    pub tags: Vec<String>,
    pub genre: String,
    pub genre_scores: Vec<GenreScore>,
    /// Why the genre is what it is.
    #[serde(default)]
    pub genre_evidence: GenreEvidence,
    /// The passages the summaries are made of, in reading order.
    #[serde(default)]
    pub summary_sources: Vec<SummarySource>,
    pub characters: Vec<String>,
    pub overall_score: f64,
    pub quality: Vec<QualityPart>,
    /// The kind the quality was judged as ("prose", "verse", "play"); empty before kinds.
    #[serde(default)]
    pub quality_kind: String,
    /// The quality parts left out for the kind, and why.
    #[serde(default)]
    pub quality_notes: Vec<String>,
    pub ai_check: AiCheck,
    pub chapters: Vec<Chapter>,
    pub words: u64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GenreScore {
    pub genre: String,
    pub probability: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct QualityPart {
    pub key: String,
    pub label: String,
    pub score: f64,
    pub measure: String,
    pub advice: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AiCheck {
    pub probability: f64,
    pub verdict: String,
    pub signals: Vec<AiSignal>,
    pub chapters: Vec<ChapterAi>,
    pub notice: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AiSignal {
    pub key: String,
    pub label: String,
    pub value: f64,
    pub leaning: f64,
    pub note: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChapterAi {
    pub index: u32,
    pub title: String,
    pub probability: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Chapter {
    pub index: u32,
    pub title: String,
    pub words: u64,
    pub summary: String,
    pub ai_probability: f64,
}

pub(crate) fn index(i: usize) -> u32 {
    u32::try_from(i).unwrap_or(u32::MAX)
}

pub(crate) fn count(n: usize) -> u64 {
    u64::try_from(n).unwrap_or(u64::MAX)
}

/// An `f32` of the analysis as the wire's `f64`, rounded to what an `f32` holds (0.7
/// stays 0.7, not 0.699999988079071).
pub(crate) fn wide(v: f32) -> f64 {
    let v = f64::from(v);
    (v * 1e6).round() / 1e6
}

impl From<quire_analysis::AiCheck> for AiCheck {
    fn from(a: quire_analysis::AiCheck) -> Self {
        Self {
            probability: wide(a.probability),
            verdict: a.verdict.to_owned(),
            signals: a
                .signals
                .into_iter()
                .map(|s| AiSignal {
                    key: s.key.to_owned(),
                    label: s.label.to_owned(),
                    value: s.value,
                    leaning: wide(s.leaning),
                    note: s.note,
                })
                .collect(),
            chapters: a
                .chapters
                .into_iter()
                .map(|c| ChapterAi {
                    index: index(c.index),
                    title: c.title,
                    probability: wide(c.probability),
                })
                .collect(),
            notice: a.notice.to_owned(),
        }
    }
}

impl From<Analysis> for Report {
    fn from(a: Analysis) -> Self {
        Self {
            short_summary: a.short_summary,
            long_summary: a.long_summary,
            authors: a.authors,
            tags: a.tags,
            genre: a.genre,
            genre_scores: a
                .genre_scores
                .into_iter()
                .map(|g| GenreScore {
                    genre: g.genre,
                    probability: wide(g.probability),
                })
                .collect(),
            genre_evidence: a.genre_evidence.into(),
            summary_sources: a.summary_sources.into_iter().map(Into::into).collect(),
            characters: a.characters,
            overall_score: f64::from(a.quality.overall_score),
            quality_kind: a.quality.kind.name().to_owned(),
            quality_notes: a.quality.notes,
            quality: a
                .quality
                .parts
                .into_iter()
                .map(|p| QualityPart {
                    key: p.key.to_owned(),
                    label: p.label.to_owned(),
                    score: f64::from(p.score),
                    measure: p.measure,
                    advice: p.advice,
                })
                .collect(),
            ai_check: a.ai_check.into(),
            chapters: a
                .chapters
                .into_iter()
                .map(|c| Chapter {
                    index: index(c.index),
                    title: c.title,
                    words: count(c.words),
                    summary: c.summary,
                    ai_probability: wide(c.ai_probability),
                })
                .collect(),
            words: count(a.words),
        }
    }
}

impl Report {
    /// The report as stored.
    pub fn to_json(&self) -> crate::error::Result<serde_json::Value> {
        serde_json::to_value(self)
            .map_err(|e| ManuscriptError::internal(format!("report to json: {e}")))
    }

    /// A stored report back.
    pub fn from_json(value: serde_json::Value) -> crate::error::Result<Self> {
        serde_json::from_value(value)
            .map_err(|e| ManuscriptError::internal(format!("stored report: {e}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A report stored before the genre's evidence, the summaries' sources and the kind
    /// of the quality were kept.
    fn stored_before_the_evidence() -> serde_json::Value {
        serde_json::json!({
            "short_summary": "A keeper meets a sailor.",
            "long_summary": "A keeper meets a sailor by a lamp.",
            "authors": ["Ann Lee"],
            "tags": ["lamps"],
            "genre": "Adventure",
            "genre_scores": [{"genre": "Adventure", "probability": 0.8}],
            "characters": ["Keeper"],
            "overall_score": 71.0,
            "quality": [],
            "ai_check": {"probability": 0.1, "verdict": "human", "signals": [], "chapters": [], "notice": ""},
            "chapters": [],
            "words": 12
        })
    }

    #[test]
    fn a_report_stored_before_the_evidence_still_reads_with_it_empty() {
        let report = Report::from_json(stored_before_the_evidence()).unwrap();
        assert_eq!(report.genre, "Adventure");
        assert_eq!(report.genre_evidence, GenreEvidence::default());
        assert!(report.summary_sources.is_empty());
        assert_eq!(report.quality_kind, "");
        assert!(report.quality_notes.is_empty());
        let again = Report::from_json(report.to_json().unwrap()).unwrap();
        assert_eq!(again, report, "and it is stored back whole");
    }

    #[test]
    fn an_f32_probability_keeps_its_short_decimal() {
        assert_eq!(wide(0.7), 0.7);
        assert_eq!(wide(1.0), 1.0);
    }
}
