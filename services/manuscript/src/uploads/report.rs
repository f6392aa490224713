//! What the analysis found in a manuscript, as it is stored (`manuscripts.report`, JSON)
//! and answered (the proto `ManuscriptReport`). The stored form is this crate's own, not
//! quire-analysis's types, so that the analysis may change its shapes without making old
//! rows unreadable.

use quire_analysis::Analysis;
use quire_kit::error::CommonErrors;
use quire_proto::manuscript::v1 as pb;
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
    pub characters: Vec<String>,
    pub overall_score: f64,
    pub quality: Vec<QualityPart>,
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

fn index(i: usize) -> u32 {
    u32::try_from(i).unwrap_or(u32::MAX)
}

fn count(n: usize) -> u64 {
    u64::try_from(n).unwrap_or(u64::MAX)
}

/// An `f32` of the analysis as the wire's `f64`, rounded to what an `f32` holds (0.7
/// stays 0.7, not 0.699999988079071).
fn wide(v: f32) -> f64 {
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
            characters: a.characters,
            overall_score: f64::from(a.quality.overall_score),
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

impl From<AiCheck> for pb::AiCheck {
    fn from(a: AiCheck) -> Self {
        Self {
            probability: a.probability,
            verdict: a.verdict,
            signals: a
                .signals
                .into_iter()
                .map(|s| pb::AiSignal {
                    key: s.key,
                    label: s.label,
                    value: s.value,
                    leaning: s.leaning,
                    note: s.note,
                })
                .collect(),
            chapters: a
                .chapters
                .into_iter()
                .map(|c| pb::ChapterAiCheck {
                    index: c.index,
                    title: c.title,
                    probability: c.probability,
                })
                .collect(),
            notice: a.notice,
        }
    }
}

/// Where a report belongs: its manuscript, its book, its title and when it was made.
pub struct Heading<'a> {
    pub manuscript_id: uuid::Uuid,
    pub book_id: uuid::Uuid,
    pub title: &'a str,
    pub created_at: chrono::DateTime<chrono::Utc>,
}

impl Report {
    pub fn to_pb(&self, heading: &Heading<'_>) -> pb::ManuscriptReport {
        let r = self.clone();
        pb::ManuscriptReport {
            manuscript_id: heading.manuscript_id.to_string(),
            book_id: heading.book_id.to_string(),
            title: heading.title.to_owned(),
            analysis: Some(pb::Analysis {
                short_summary: r.short_summary,
                long_summary: r.long_summary,
                authors: r.authors,
                tags: r.tags,
                genre: r.genre,
                genre_scores: r
                    .genre_scores
                    .into_iter()
                    .map(|g| pb::GenreScore {
                        genre: g.genre,
                        probability: g.probability,
                    })
                    .collect(),
                characters: r.characters,
            }),
            quality: Some(pb::Quality {
                overall_score: r.overall_score,
                parts: r
                    .quality
                    .into_iter()
                    .map(|p| pb::QualityPart {
                        key: p.key,
                        label: p.label,
                        score: p.score,
                        measure: p.measure,
                        advice: p.advice,
                    })
                    .collect(),
            }),
            ai_check: Some(r.ai_check.into()),
            chapters: r
                .chapters
                .into_iter()
                .map(|c| pb::ChapterReport {
                    index: c.index,
                    title: c.title,
                    words: c.words,
                    summary: c.summary,
                    ai_probability: c.ai_probability,
                })
                .collect(),
            words: r.words,
            created_at: crate::db::rfc3339(heading.created_at),
        }
    }

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

    #[test]
    fn an_f32_probability_keeps_its_short_decimal() {
        assert_eq!(wide(0.7), 0.7);
        assert_eq!(wide(1.0), 1.0);
    }
}
