//! The JSON shapes of the manuscript routes: an upload's form, the analysis the writer's
//! screens show (`analyze_dict`, `qa`, `ai_check_dict`, `chapters`), the AI check, the
//! progress of an upload and the writer's list.

use std::collections::BTreeMap;

use quire_proto::manuscript::v1 as pb;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::books_dto::FileBody;
use super::manuscripts_why_dto::{GenreEvidenceOut, SummarySourceOut};
use crate::openapi::genre::Genre;

/// `publish_entry` and `publish_entry_chapter` (multipart/form-data).
#[derive(Debug, ToSchema)]
#[allow(dead_code)] // describes the form for the OpenAPI document; the route reads the parts
pub struct PublishEntryForm {
    /// One or more files (epub, pdf, txt, docx, md), in order: one manuscript
    /// (`publish_entry`) or one chapter each (`publish_entry_chapter`).
    #[schema(value_type = Vec<FileBody>)]
    pub files: Vec<Vec<u8>>,
    /// `english` (the only language analysed).
    pub language: Option<String>,
    /// The writer: the caller unless the caller is an admin.
    #[schema(format = Uuid)]
    pub uid: Option<String>,
    /// The writer's genre, a taxonomy name; left out or empty lets the analysis choose
    /// (the service also takes the taxonomy's synonyms, "sci-fi" or "humor").
    #[schema(value_type = Option<Genre>)]
    pub genre: Option<String>,
    /// Made by the client: `GET /api/publish_entry/progress` follows the upload under it.
    #[schema(format = Uuid)]
    pub upload_id: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct GenreScoreOut {
    pub genre: String,
    /// 0..1
    pub probability: f64,
}

/// What the analysis found (the spec's `analyze_dict`).
#[derive(Debug, Serialize, ToSchema)]
pub struct AnalyzeDictOut {
    pub short_summary: String,
    pub long_summary: String,
    pub authors: Vec<String>,
    /// 5 to 12 lowercase keyphrases.
    pub tags: Vec<String>,
    pub genre: String,
    /// Every genre's probability, best first.
    pub genre_scores: Vec<GenreScoreOut>,
    /// Why the genre is what it is.
    pub genre_evidence: GenreEvidenceOut,
    /// The passages of the book the summaries are made of, in reading order.
    pub summary_sources: Vec<SummarySourceOut>,
    /// The main characters, most prominent first.
    pub characters: Vec<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct QualityPartOut {
    pub key: String,
    pub label: String,
    /// 0..100
    pub score: f64,
    /// What was measured ("grade 7.4").
    pub measure: String,
    pub advice: String,
}

/// Writing-quality scores (the spec's `qa`).
#[derive(Debug, Serialize, ToSchema)]
pub struct QaOut {
    /// `overall_score` and each part's score by its key, 0..100.
    pub scores: BTreeMap<String, f64>,
    pub parts: Vec<QualityPartOut>,
    /// The kind the text was judged as: `prose`, `verse` or `play` (empty for a manuscript
    /// analysed before kinds were told).
    pub kind: String,
    /// The parts left out for this kind of text, and why.
    pub notes: Vec<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct AiSignalOut {
    pub key: String,
    pub label: String,
    pub value: f64,
    /// -1 (leans human) .. +1 (leans machine)
    pub leaning: f64,
    pub note: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ChapterAiOut {
    pub index: u32,
    pub title: String,
    /// 0..1
    pub probability: f64,
}

/// The advisory AI check (the spec's `ai_check_dict`).
#[derive(Debug, Serialize, ToSchema)]
pub struct AiCheckOut {
    /// 0..1: how likely the text is machine-written.
    pub probability: f64,
    pub verdict: String,
    pub signals: Vec<AiSignalOut>,
    pub chapters: Vec<ChapterAiOut>,
    /// Says the check is advisory and can be wrong.
    pub notice: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ChapterOut {
    pub index: u32,
    pub title: String,
    pub words: u64,
    pub summary: String,
    /// 0..1
    pub ai_probability: f64,
}

/// A manuscript as the analysis screen shows it.
#[derive(Debug, Serialize, ToSchema)]
pub struct ManuscriptOut {
    #[schema(format = Uuid)]
    pub manuscript_id: String,
    /// The unlisted catalog book made of it (the writer prices and publishes it).
    #[schema(format = Uuid)]
    pub book_id: String,
    pub title: String,
    pub analyze_dict: AnalyzeDictOut,
    pub qa: QaOut,
    pub ai_check_dict: AiCheckOut,
    pub chapters: Vec<ChapterOut>,
    pub words: u64,
    pub created_at: String,
}

impl From<pb::AiCheck> for AiCheckOut {
    fn from(a: pb::AiCheck) -> Self {
        Self {
            probability: a.probability,
            verdict: a.verdict,
            signals: a
                .signals
                .into_iter()
                .map(|s| AiSignalOut {
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
                .map(|c| ChapterAiOut {
                    index: c.index,
                    title: c.title,
                    probability: c.probability,
                })
                .collect(),
            notice: a.notice,
        }
    }
}

impl From<pb::ManuscriptReport> for ManuscriptOut {
    fn from(r: pb::ManuscriptReport) -> Self {
        let a = r.analysis.unwrap_or_default();
        let q = r.quality.unwrap_or_default();
        let mut scores = BTreeMap::from([("overall_score".to_owned(), q.overall_score)]);
        scores.extend(q.parts.iter().map(|p| (p.key.clone(), p.score)));
        Self {
            manuscript_id: r.manuscript_id,
            book_id: r.book_id,
            title: r.title,
            analyze_dict: AnalyzeDictOut {
                short_summary: a.short_summary,
                long_summary: a.long_summary,
                authors: a.authors,
                tags: a.tags,
                genre: a.genre,
                genre_scores: a
                    .genre_scores
                    .into_iter()
                    .map(|g| GenreScoreOut {
                        genre: g.genre,
                        probability: g.probability,
                    })
                    .collect(),
                genre_evidence: a.genre_evidence.unwrap_or_default().into(),
                summary_sources: a.summary_sources.into_iter().map(Into::into).collect(),
                characters: a.characters,
            },
            qa: QaOut {
                scores,
                parts: q
                    .parts
                    .into_iter()
                    .map(|p| QualityPartOut {
                        key: p.key,
                        label: p.label,
                        score: p.score,
                        measure: p.measure,
                        advice: p.advice,
                    })
                    .collect(),
                kind: q.kind,
                notes: q.notes,
            },
            ai_check_dict: r.ai_check.unwrap_or_default().into(),
            chapters: r
                .chapters
                .into_iter()
                .map(|c| ChapterOut {
                    index: c.index,
                    title: c.title,
                    words: c.words,
                    summary: c.summary,
                    ai_probability: c.ai_probability,
                })
                .collect(),
            words: r.words,
            created_at: r.created_at,
        }
    }
}

/// `POST /api/v1/ai_checker`
#[derive(Debug, Deserialize, ToSchema)]
pub struct AiCheckerBody {
    /// The text to check: not empty, at most 200,000 characters.
    pub text: String,
}

#[derive(Debug, Deserialize, ToSchema, utoipa::IntoParams)]
pub struct ProgressQuery {
    /// The id the client gave its upload.
    #[param(value_type = String, format = Uuid)]
    #[schema(value_type = String, format = Uuid)]
    pub upload_id: Option<String>,
}

/// How far an upload has come.
#[derive(Debug, Serialize, ToSchema)]
pub struct UploadProgressOut {
    #[schema(format = Uuid)]
    pub upload_id: String,
    /// received, stored, extracting, analysing, checking duplicates, creating the book, done
    pub step: String,
    /// 1-based position of `step`.
    pub step_index: u32,
    pub steps_total: u32,
    pub done: bool,
    pub failed: bool,
    /// Empty, or why the upload failed.
    pub message: String,
}

impl From<pb::UploadProgress> for UploadProgressOut {
    fn from(p: pb::UploadProgress) -> Self {
        Self {
            upload_id: p.upload_id,
            step: p.step,
            step_index: p.step_index,
            steps_total: p.steps_total,
            done: p.done,
            failed: p.failed,
            message: p.message,
        }
    }
}

/// One of the writer's manuscripts.
#[derive(Debug, Serialize, ToSchema)]
pub struct ManuscriptItemOut {
    #[schema(format = Uuid)]
    pub manuscript_id: String,
    #[schema(format = Uuid)]
    pub book_id: String,
    pub title: String,
    pub genre: String,
    /// `analysed`, or `published` once the writer put the book in the shop.
    pub state: String,
    /// 0..100
    pub overall_score: f64,
    /// 0..1
    pub ai_probability: f64,
    pub words: u64,
    pub chapters: u32,
    pub created_at: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ManuscriptPageOut {
    pub items: Vec<ManuscriptItemOut>,
    pub total: u64,
    pub page: u32,
    pub page_size: u32,
}

impl From<pb::ManuscriptPage> for ManuscriptPageOut {
    fn from(p: pb::ManuscriptPage) -> Self {
        Self {
            items: p
                .items
                .into_iter()
                .map(|m| ManuscriptItemOut {
                    manuscript_id: m.manuscript_id,
                    book_id: m.book_id,
                    title: m.title,
                    genre: m.genre,
                    state: m.state,
                    overall_score: m.overall_score,
                    ai_probability: m.ai_probability,
                    words: m.words,
                    chapters: m.chapters,
                    created_at: m.created_at,
                })
                .collect(),
            total: p.total,
            page: p.page,
            page_size: p.page_size,
        }
    }
}

#[cfg(test)]
mod tests {
    use utoipa::PartialSchema;

    use super::*;

    #[test]
    fn the_upload_form_names_its_genre_from_the_taxonomy() {
        let form = serde_json::to_value(PublishEntryForm::schema()).unwrap();
        let genre = form["properties"]["genre"].to_string();
        assert!(genre.contains("#/components/schemas/Genre"), "{genre}");
    }
}
