//! Why the analysis said what it said, as stored and answered: the genre's evidence (what
//! became of the writer's genre, the passages and the words that decided it) and the
//! passages of the book the summaries are made of.

use quire_proto::manuscript::v1 as pb;
use serde::{Deserialize, Serialize};

use super::{count, index, wide};

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct GenreEvidence {
    /// The writer's genre (its taxonomy name), when they gave one the taxonomy knows.
    pub hint: Option<String>,
    pub hint_overruled: bool,
    pub reason: String,
    pub passages_read: u32,
    pub play: bool,
    pub passages: Vec<GenrePassage>,
    pub features: Vec<GenreFeature>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GenrePassage {
    /// From 0, as a chapter's index.
    pub chapter: u32,
    /// Bytes into the chapter's text.
    pub offset: u64,
    pub excerpt: String,
    pub probability: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GenreFeature {
    pub feature: String,
    pub weight: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SummarySource {
    /// From 0, as a chapter's index.
    pub chapter: u32,
    /// Bytes into the chapter's text.
    pub offset: u64,
    pub excerpt: String,
    pub in_short: bool,
}

impl From<quire_analysis::GenreEvidence> for GenreEvidence {
    fn from(e: quire_analysis::GenreEvidence) -> Self {
        Self {
            hint: e.hint,
            hint_overruled: e.hint_overruled,
            reason: e.reason,
            passages_read: index(e.passages_read),
            play: e.play,
            passages: e
                .passages
                .into_iter()
                .map(|p| GenrePassage {
                    chapter: index(p.chapter),
                    offset: count(p.offset),
                    excerpt: p.excerpt,
                    probability: wide(p.probability),
                })
                .collect(),
            features: e
                .features
                .into_iter()
                .map(|f| GenreFeature {
                    feature: f.feature,
                    weight: wide(f.weight),
                })
                .collect(),
        }
    }
}

impl From<quire_analysis::SummarySource> for SummarySource {
    fn from(s: quire_analysis::SummarySource) -> Self {
        Self {
            chapter: index(s.chapter),
            offset: count(s.offset),
            excerpt: s.excerpt,
            in_short: s.in_short,
        }
    }
}

impl From<GenreEvidence> for pb::GenreEvidence {
    fn from(e: GenreEvidence) -> Self {
        Self {
            hint: e.hint.unwrap_or_default(),
            hint_overruled: e.hint_overruled,
            reason: e.reason,
            passages_read: e.passages_read,
            play: e.play,
            passages: e
                .passages
                .into_iter()
                .map(|p| pb::GenrePassage {
                    chapter: p.chapter,
                    offset: p.offset,
                    excerpt: p.excerpt,
                    probability: p.probability,
                })
                .collect(),
            features: e
                .features
                .into_iter()
                .map(|f| pb::GenreFeature {
                    feature: f.feature,
                    weight: f.weight,
                })
                .collect(),
        }
    }
}

impl From<SummarySource> for pb::SummarySource {
    fn from(s: SummarySource) -> Self {
        Self {
            chapter: s.chapter,
            offset: s.offset,
            excerpt: s.excerpt,
            in_short: s.in_short,
        }
    }
}
