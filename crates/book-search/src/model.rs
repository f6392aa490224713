//! The documents going in and the results coming out.

use std::collections::BTreeMap;

use uuid::Uuid;

/// One book as the index sees it. The catalog builds it from its tables or its events.
#[derive(Debug, Clone, PartialEq)]
pub struct BookDoc {
    pub book_id: Uuid,
    pub title: String,
    pub author: String,
    pub short_summary: String,
    pub long_summary: String,
    pub tags: Vec<String>,
    pub genre: String,
    pub price_cents: i64,
    /// Unix seconds; `None` sorts last when browsing.
    pub published_at: Option<i64>,
    pub assessment_score: f64,
    /// false keeps a tombstone: held (with its version) but never found.
    pub listed: bool,
    /// Monotonic per book; an apply with a lower version than the held one is ignored.
    pub version: i64,
}

/// A search or browse request. Empty `text` browses (newest published first).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SearchQuery {
    pub text: String,
    /// Exact genre, case-insensitive.
    pub genre: Option<String>,
    /// Every tag must be present (exact, case-insensitive).
    pub tags: Vec<String>,
    /// Matched as text against the author field (every word must match).
    pub author: Option<String>,
    pub price_min_cents: Option<i64>,
    pub price_max_cents: Option<i64>,
    pub offset: usize,
    pub limit: usize,
}

/// One found book.
#[derive(Debug, Clone, PartialEq)]
pub struct Hit {
    pub book_id: Uuid,
    /// The engine's relevance score (0 when browsing).
    pub score: f32,
    /// 0..=100: share of the query's words this book matches (exact 1, fuzzy or prefix 0.7),
    /// rounded; 100 when browsing.
    pub match_percentage: u32,
}

/// A page of hits plus the totals over every match.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SearchResults {
    /// Every matching listed book, not just this page.
    pub total: u64,
    pub hits: Vec<Hit>,
    /// Genre (as the catalog spelled it) -> matches, over every match.
    pub genre_counts: BTreeMap<String, u64>,
}
