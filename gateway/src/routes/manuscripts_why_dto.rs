//! The JSON shapes of why the analysis said what it said: the genre's evidence (what
//! became of the writer's genre, the passages and words that decided it) and the passages
//! of the book the summaries are made of.

use quire_proto::manuscript::v1 as pb;
use serde::Serialize;
use utoipa::ToSchema;

/// A passage the genre rests on.
#[derive(Debug, Serialize, ToSchema)]
pub struct GenrePassageOut {
    /// The chapter it is in, from 0 (a chapter's `index`).
    pub chapter: u32,
    /// Where it starts in that chapter's text, in bytes.
    pub offset: u64,
    /// Its first words.
    pub excerpt: String,
    /// 0..1: the genre's probability from this passage alone.
    pub probability: f64,
}

/// A word, a pair of words or a style trait (`style: ` and the trait), and how much it
/// pushed the genre.
#[derive(Debug, Serialize, ToSchema)]
pub struct GenreFeatureOut {
    pub feature: String,
    /// Its share of the genre's score, in nats.
    pub weight: f64,
}

/// Why the genre is what it is.
#[derive(Debug, Serialize, ToSchema)]
pub struct GenreEvidenceOut {
    /// The writer's genre, when they gave one of the taxonomy.
    pub hint: Option<String>,
    /// Whether the text overruled the writer's genre (it reads clearly as another one).
    pub hint_overruled: bool,
    /// One sentence for the writer: the genre, and what became of their own.
    pub reason: String,
    /// How many passages were read, spread evenly over the whole text.
    pub passages_read: u32,
    /// Whether the text was read as a play.
    pub play: bool,
    /// The passages that spoke most for the genre, strongest first (at most three).
    pub passages: Vec<GenrePassageOut>,
    /// The words and style traits that pushed most towards the genre, strongest first.
    pub features: Vec<GenreFeatureOut>,
}

/// A passage of the book a summary is made of.
#[derive(Debug, Serialize, ToSchema)]
pub struct SummarySourceOut {
    /// The chapter it is in, from 0 (a chapter's `index`).
    pub chapter: u32,
    /// Where it starts in that chapter's text, in bytes.
    pub offset: u64,
    /// The passage as the book writes it.
    pub excerpt: String,
    /// Whether the short summary uses it (else only the long one does).
    pub in_short: bool,
}

impl From<pb::GenreEvidence> for GenreEvidenceOut {
    fn from(e: pb::GenreEvidence) -> Self {
        Self {
            hint: Some(e.hint).filter(|h| !h.is_empty()),
            hint_overruled: e.hint_overruled,
            reason: e.reason,
            passages_read: e.passages_read,
            play: e.play,
            passages: e
                .passages
                .into_iter()
                .map(|p| GenrePassageOut {
                    chapter: p.chapter,
                    offset: p.offset,
                    excerpt: p.excerpt,
                    probability: p.probability,
                })
                .collect(),
            features: e
                .features
                .into_iter()
                .map(|f| GenreFeatureOut {
                    feature: f.feature,
                    weight: f.weight,
                })
                .collect(),
        }
    }
}

impl From<pb::SummarySource> for SummarySourceOut {
    fn from(s: pb::SummarySource) -> Self {
        Self {
            chapter: s.chapter,
            offset: s.offset,
            excerpt: s.excerpt,
            in_short: s.in_short,
        }
    }
}
