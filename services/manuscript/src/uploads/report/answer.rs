//! The stored report as the service answers it: the proto `ManuscriptReport`.

use quire_proto::manuscript::v1 as pb;

use super::{AiCheck, Report};

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
                genre_evidence: Some(r.genre_evidence.into()),
                summary_sources: r.summary_sources.into_iter().map(Into::into).collect(),
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
                kind: r.quality_kind,
                notes: r.quality_notes,
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
}
