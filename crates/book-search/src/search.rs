//! Running a search: one pass collecting the page, the total and the genre counts (over
//! every core when the search is alone, see `parallel.rs`), then the match percentage of
//! the page's hits only.

use std::sync::Arc;

use tantivy::collector::{Count, TopDocs};
use tantivy::query::{BooleanQuery, EnableScoring, Occur, Query};
use tantivy::{DocAddress, DocSet, Order, Searcher, TERMINATED};

use crate::automata::Matches;
use crate::query::{self, QueryTerm};
use crate::schema::PUBLISHED_AT;
use crate::{Hit, SearchError, SearchIndex, SearchQuery, SearchResults};

/// Largest page served: bounds what one request can make the collector hold.
const MAX_LIMIT: usize = 1_000;
/// What a word matched only fuzzily or as a prefix adds to the match percentage (exact adds 1).
const LOOSE_MATCH: f32 = 0.7;

impl SearchIndex {
    /// Searches listed books; an empty (or separator-only) text browses, newest published first.
    pub fn search(&self, q: &SearchQuery) -> Result<SearchResults, SearchError> {
        let searcher = self.searcher();
        let running = self.inner.spread.enter();
        let genres = self.inner.columns.for_searcher(&searcher)?;
        let columns = genres.columns();
        let fields = &self.inner.fields;
        let terms = query::terms(&q.text);
        let matches = Arc::new(Matches::default());
        let mut clauses = query::filters(fields, q, !terms.is_empty());
        if !terms.is_empty() {
            clauses.push((
                Occur::Must,
                query::text_query(fields, &self.inner.automata, &matches, &terms),
            ));
        }
        let full = BooleanQuery::new(clauses);
        let limit = q.limit.min(MAX_LIMIT);
        // Past the last document nothing can match: clamping keeps a huge offset from sizing
        // the collector's heap.
        let offset = q
            .offset
            .min(usize::try_from(searcher.num_docs()).unwrap_or(usize::MAX));

        if limit == 0 {
            let (total, genre_counts) = running.search(&searcher, &full, &(Count, genres))?;
            return Ok(SearchResults {
                total: total as u64,
                hits: Vec::new(),
                genre_counts,
            });
        }
        let top = TopDocs::with_limit(limit).and_offset(offset);
        let (page, total, genre_counts) = if terms.is_empty() {
            let newest = top.order_by_fast_field::<i64>(PUBLISHED_AT, Order::Desc);
            let (docs, total, counts) =
                running.search(&searcher, &full, &(newest, Count, genres))?;
            let page: Vec<(f32, DocAddress)> = docs.into_iter().map(|(_, a)| (0.0, a)).collect();
            (page, total, counts)
        } else {
            running.search(&searcher, &full, &(top, Count, genres))?
        };
        let percentages = match_percentages(self, &searcher, &matches, &terms, &page)?;
        let hits = page
            .iter()
            .zip(percentages)
            .map(|(&(score, address), match_percentage)| {
                let book_id = columns
                    .get(address.segment_ord as usize)
                    .and_then(|c| c.book_id(address.doc_id))
                    .ok_or_else(|| SearchError::Corrupt("document without book id".into()))?;
                Ok(Hit {
                    book_id,
                    score,
                    match_percentage,
                })
            })
            .collect::<Result<Vec<_>, SearchError>>()?;
        Ok(SearchResults {
            total: total as u64,
            hits,
            genre_counts,
        })
    }
}

/// Per hit: the share of the query's words it holds, an exact word counting 1 and a fuzzy or
/// prefix one [`LOOSE_MATCH`]. Checked on the page's documents only, by seeking unscored
/// per-word queries, so the cost does not grow with the number of matches.
fn match_percentages(
    index: &SearchIndex,
    searcher: &Searcher,
    matches: &Arc<Matches>,
    terms: &[QueryTerm],
    page: &[(f32, DocAddress)],
) -> Result<Vec<u32>, SearchError> {
    if terms.is_empty() {
        return Ok(vec![100; page.len()]);
    }
    let mut credit = vec![0.0f32; page.len()];
    // The page's documents grouped by segment, ascending, as scorers only move forward.
    let mut order: Vec<usize> = (0..page.len()).collect();
    order.sort_by_key(|&i| (page[i].1.segment_ord, page[i].1.doc_id));
    let scoring = EnableScoring::disabled_from_searcher(searcher);
    for term in terms {
        let (exact, loose) =
            query::word_checks(&index.inner.fields, &index.inner.automata, matches, term);
        let exact = exact.weight(scoring)?;
        let loose = loose.map(|q| q.weight(scoring)).transpose()?;
        let mut start = 0;
        while start < order.len() {
            let segment = page[order[start]].1.segment_ord;
            let end = order[start..]
                .iter()
                .position(|&i| page[i].1.segment_ord != segment)
                .map_or(order.len(), |n| start + n);
            let reader = searcher.segment_reader(segment);
            let mut exact_scorer = exact.scorer(reader, 1.0)?;
            let mut loose_scorer = None;
            for &i in &order[start..end] {
                let doc = page[i].1.doc_id;
                if holds(exact_scorer.as_mut(), doc) {
                    credit[i] += 1.0;
                    continue;
                }
                let Some(weight) = &loose else { continue };
                if loose_scorer.is_none() {
                    loose_scorer = Some(weight.scorer(reader, 1.0)?);
                }
                if let Some(scorer) = loose_scorer.as_mut()
                    && holds(scorer.as_mut(), doc)
                {
                    credit[i] += LOOSE_MATCH;
                }
            }
            start = end;
        }
    }
    let words = terms.len() as f32;
    Ok(credit
        .into_iter()
        .map(|c| ((c / words) * 100.0).round().clamp(0.0, 100.0) as u32)
        .collect())
}

/// Whether the forward-only doc set holds `doc`; calls must come with ascending `doc`.
fn holds(docs: &mut dyn DocSet, doc: u32) -> bool {
    let current = docs.doc();
    if current == TERMINATED || current > doc {
        return false;
    }
    current == doc || docs.seek(doc) == doc
}
