//! A search alone on the machine uses every core: each segment's documents are cut into as
//! many ranges as there are cores and collected side by side, each range by its own scorer
//! that seeks to the range's first document. Tantivy parallelises by segment only, and
//! the index is kept to one or a few segments (see `index.rs`), so that alone would leave
//! the other cores idle while a lone user waits.
//!
//! Only when alone: with other searches running, the cores are busy anyway, and every
//! range repeats the scorer's set-up (the fuzzy words' dictionary walks), which would cost
//! the others throughput. "Alone" counts whole requests where the caller marks them
//! ([`crate::SearchIndex::request`]): under load, another request is nearly always between
//! its index search and its answer (loading its hits, encoding them), and a search that
//! spread then took the cores from it. Counting index searches only, a quarter of the
//! searches of eight busy clients spread.

use std::sync::atomic::{AtomicUsize, Ordering};

use tantivy::collector::{Collector, SegmentCollector};
use tantivy::query::{EnableScoring, Query};
use tantivy::{DocId, Executor, Searcher, TERMINATED};

/// The searches running now, and the pool a lone one spreads over.
pub(crate) struct Spread {
    running: AtomicUsize,
    /// Requests marked by [`crate::SearchIndex::request`] and not yet answered.
    requests: AtomicUsize,
    /// `None` on a single core, or when the pool could not be made (searches then run on
    /// the caller's thread, as they would under load).
    pool: Option<(Executor, u32)>,
}

impl Spread {
    pub(crate) fn new() -> Self {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let pool = (cores > 1)
            .then(|| Executor::multi_thread(cores, "search-"))
            .and_then(|made| {
                made.map_err(
                    |e| tracing::warn!(error = %e, "no search pool: searches use one core"),
                )
                .ok()
            })
            .map(|executor| (executor, u32::try_from(cores).unwrap_or(2)));
        Self {
            running: AtomicUsize::new(0),
            requests: AtomicUsize::new(0),
            pool,
        }
    }

    /// Marks a search running until the guard drops; with the pool to use when it is alone:
    /// no other search running, and no request marked but this one.
    pub(crate) fn enter(&self) -> Running<'_> {
        let before = self.running.fetch_add(1, Ordering::AcqRel);
        let alone = before == 0 && self.requests.load(Ordering::Acquire) <= 1;
        Running {
            spread: self,
            pool: self.pool.as_ref().filter(|_| alone),
        }
    }

    pub(crate) fn request_started(&self) {
        self.requests.fetch_add(1, Ordering::AcqRel);
    }

    pub(crate) fn request_ended(&self) {
        self.requests.fetch_sub(1, Ordering::AcqRel);
    }
}

/// One running search (see [`Spread::enter`]).
pub(crate) struct Running<'a> {
    spread: &'a Spread,
    pool: Option<&'a (Executor, u32)>,
}

impl Drop for Running<'_> {
    fn drop(&mut self) {
        self.spread.running.fetch_sub(1, Ordering::AcqRel);
    }
}

impl Running<'_> {
    /// `searcher.search(query, collector)`, spread over the cores when this search is alone.
    pub(crate) fn search<C: Collector>(
        &self,
        searcher: &Searcher,
        query: &dyn Query,
        collector: &C,
    ) -> tantivy::Result<C::Fruit> {
        let Some((executor, parts)) = self.pool else {
            return searcher.search(query, collector);
        };
        let scoring = collector.requires_scoring();
        let weight = query.weight(if scoring {
            EnableScoring::enabled_from_searcher(searcher)
        } else {
            EnableScoring::disabled_from_searcher(searcher)
        })?;
        let ranges = searcher
            .segment_readers()
            .iter()
            .enumerate()
            .flat_map(|(ord, reader)| {
                let max = reader.max_doc();
                let step = max.div_ceil(*parts).max(1);
                (0..*parts)
                    .map(move |i| (ord as u32, i * step, ((i + 1) * step).min(max)))
                    .filter(|(_, start, end)| start < end)
            });
        let fruits = executor.map(
            |(ord, start, end)| {
                let reader = searcher.segment_reader(ord);
                let mut child = collector.for_segment(ord, reader)?;
                let mut scorer = weight.scorer(reader, 1.0)?;
                let alive = reader.alive_bitset();
                let mut doc: DocId = scorer.doc();
                if doc < start {
                    doc = scorer.seek(start);
                }
                while doc < end && doc != TERMINATED {
                    if alive.is_none_or(|a| a.is_alive(doc)) {
                        child.collect(doc, if scoring { scorer.score() } else { 0.0 });
                    }
                    doc = scorer.advance();
                }
                Ok(child.harvest())
            },
            ranges,
        )?;
        collector.merge_fruits(fruits)
    }
}

#[cfg(test)]
mod tests {
    use uuid::Uuid;

    use crate::{BookDoc, SearchIndex, SearchQuery};

    const WORDS: &[&str] = &[
        "river", "shadow", "garden", "empire", "winter", "secret", "ocean", "silver", "forest",
        "crown", "letters", "journey", "midnight", "harbor", "library", "storm",
    ];
    const GENRES: &[&str] = &["Fiction", "Science", "History", "Fantasy", "Poetry"];

    fn book(i: usize, version: i64) -> BookDoc {
        let word = |k: usize| WORDS[k % WORDS.len()];
        BookDoc {
            book_id: Uuid::from_u128(i as u128 + 1),
            title: format!("The {} of the {} {i}", word(i), word(i / 7)),
            author: format!("Author {}", i % 97),
            short_summary: format!("A tale of {} and {}", word(i / 3), word(i / 5)),
            long_summary: format!(
                "{} {} {}",
                word(i / 11),
                word(i / 13),
                word(i + version as usize)
            ),
            tags: vec![word(i % 3).to_owned()],
            genre: GENRES[i % GENRES.len()].to_owned(),
            price_cents: i as i64,
            published_at: Some(i as i64),
            assessment_score: 3.0,
            listed: !i.is_multiple_of(10),
            version,
        }
    }

    /// (book, score) of each hit, the total and the genre counts.
    type Answer = (Vec<(Uuid, u32)>, u64, Vec<(String, u64)>);

    fn answer(index: &SearchIndex, q: &SearchQuery) -> Answer {
        let r = index.search(q).unwrap();
        (
            r.hits
                .iter()
                .map(|h| (h.book_id, h.score.to_bits()))
                .collect(),
            r.total,
            r.genre_counts.into_iter().collect(),
        )
    }

    #[test]
    fn only_a_search_with_no_other_request_marked_spreads() {
        let index = SearchIndex::open(None).unwrap();
        let alone = |index: &SearchIndex| index.inner.spread.enter().pool.is_some();
        let pooled = index.inner.spread.pool.is_some();
        assert_eq!(alone(&index), pooled);
        let mine = index.request();
        assert_eq!(alone(&index), pooled, "its own request");
        let other = index.clone().request();
        assert!(
            !alone(&index),
            "another request between its search and its answer"
        );
        drop(other);
        assert_eq!(alone(&index), pooled);
        {
            let _searching = index.inner.spread.enter();
            assert!(!alone(&index), "another search running");
        }
        drop(mine);
        assert_eq!(alone(&index), pooled);
    }

    #[test]
    fn a_lone_search_spread_over_the_cores_answers_as_a_search_on_one() {
        let index = SearchIndex::open(None).unwrap();
        index
            .apply_many((0..6_000).map(|i| book(i, 1)).collect())
            .unwrap();
        // Newer versions of some books: their old documents stay behind, deleted.
        for i in (0..6_000).step_by(17) {
            index.apply(book(i, 2)).unwrap();
        }
        index.commit().unwrap();
        // The two commits made two segments, which a background merge joins; it drops the
        // deleted documents and so changes the term statistics every score is made of (in
        // the last bits). Compare once the index has settled, so all searches see one state.
        let settling = std::time::Instant::now();
        while index.segments() > 1 {
            assert!(
                settling.elapsed() < std::time::Duration::from_secs(60),
                "the segments were never merged"
            );
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        assert_eq!(index.inner.spread.pool.is_some(), cores > 1);

        let queries = [
            ("midnight harbor", None, 10, 0),
            ("midnigth", None, 20, 0),
            ("sil", Some("Poetry"), 10, 5),
            ("", None, 10, 0),
            ("", Some("History"), 15, 30),
            ("storm letters river", None, 1_000, 0),
        ];
        for (text, genre, limit, offset) in queries {
            let q = SearchQuery {
                text: text.into(),
                genre: genre.map(Into::into),
                limit,
                offset,
                ..SearchQuery::default()
            };
            // Another search running: this one stays on its caller's thread.
            let one = {
                let _other = index.inner.spread.enter();
                answer(&index, &q)
            };
            let spread = answer(&index, &q);
            assert!(!one.0.is_empty(), "{text:?} finds nothing");
            assert_eq!(one, spread, "{text:?} in {genre:?}, {limit} from {offset}");
            // Its own request marked: still alone.
            let marked = {
                let _request = index.request();
                answer(&index, &q)
            };
            assert_eq!(one, marked, "{text:?} in its request");
        }
    }
}
