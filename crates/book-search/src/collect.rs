//! A collector of genre counts over every match, with each segment's genre per document read
//! once from the genre column and kept while the segment lives, as are its book id columns.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};

use tantivy::collector::{Collector, SegmentCollector};
use tantivy::columnar::{Column, StrColumn};
use tantivy::index::SegmentId;
use tantivy::{DocId, Score, Searcher, SegmentOrdinal, SegmentReader, TantivyError};

use uuid::Uuid;

use crate::schema::{GENRE, ID_HIGH, ID_LOW, NO_GENRE};

/// A document without a genre value.
const NONE: u32 = u32::MAX;

/// One segment's genre column and each document's genre ordinal in it. Decoding the column
/// took a tenth of a search's time once per counted match; a segment never changes its
/// documents, so the ordinals are read once, in one pass, and counting is an array lookup.
/// Also the segment's two book id columns: opening them took each search tens of
/// microseconds.
pub(crate) struct SegmentColumns {
    column: Option<StrColumn>,
    ords: Vec<u32>,
    terms: usize,
    id_high: Column<u64>,
    id_low: Column<u64>,
}

impl SegmentColumns {
    fn read(segment: &SegmentReader) -> tantivy::Result<Self> {
        let column = segment.fast_fields().str(GENRE)?;
        let (ords, terms) = match &column {
            None => (Vec::new(), 0),
            Some(c) => {
                let ords = c.ords();
                let per_doc = (0..segment.max_doc())
                    .map(|doc| {
                        ords.first(doc)
                            .and_then(|o| u32::try_from(o).ok())
                            .unwrap_or(NONE)
                    })
                    .collect();
                (per_doc, c.num_terms())
            }
        };
        let fast = segment.fast_fields();
        Ok(Self {
            column,
            ords,
            terms,
            id_high: fast.u64(ID_HIGH)?,
            id_low: fast.u64(ID_LOW)?,
        })
    }

    /// The book id of document `doc`.
    pub(crate) fn book_id(&self, doc: DocId) -> Option<Uuid> {
        Some(Uuid::from_u64_pair(
            self.id_high.first(doc)?,
            self.id_low.first(doc)?,
        ))
    }
}

/// The [`SegmentColumns`] of the segments searched lately, by segment.
#[derive(Default)]
pub(crate) struct ColumnCache {
    state: Mutex<CacheState>,
}

#[derive(Default)]
struct CacheState {
    segments: HashMap<SegmentId, Arc<SegmentColumns>>,
    /// The newest searcher generation seen: only a searcher at least that new drops the
    /// segments it no longer holds, so a search still on an older searcher cannot make the
    /// next one read a live segment again.
    newest: u64,
}

impl ColumnCache {
    /// The genres of each of `searcher`'s segments, in segment order (reading those not seen
    /// before); forgets the segments merged away.
    pub(crate) fn for_searcher(&self, searcher: &Searcher) -> tantivy::Result<GenreCounts> {
        let generation = searcher.generation().generation_id();
        let mut state = self
            .state
            .lock()
            .map_err(|_| TantivyError::InternalError("genre cache poisoned".into()))?;
        let mut segments = Vec::with_capacity(searcher.segment_readers().len());
        for reader in searcher.segment_readers() {
            let id = reader.segment_id();
            let genres = match state.segments.get(&id) {
                Some(genres) => genres.clone(),
                None => {
                    let genres = Arc::new(SegmentColumns::read(reader)?);
                    state.segments.insert(id, genres.clone());
                    genres
                }
            };
            segments.push(genres);
        }
        if generation >= state.newest {
            state.newest = generation;
            let live: Vec<SegmentId> = searcher
                .segment_readers()
                .iter()
                .map(SegmentReader::segment_id)
                .collect();
            state.segments.retain(|id, _| live.contains(id));
        }
        Ok(GenreCounts { segments })
    }
}

/// Counts matches per genre over the segments of one searcher (from [`ColumnCache`]). Books
/// without a genre are counted in no genre.
pub(crate) struct GenreCounts {
    segments: Vec<Arc<SegmentColumns>>,
}

impl GenreCounts {
    /// The columns of each segment, in segment order (for reading the hits' book ids).
    pub(crate) fn columns(&self) -> Vec<Arc<SegmentColumns>> {
        self.segments.clone()
    }
}

pub(crate) struct GenreSegmentCounts {
    genres: Arc<SegmentColumns>,
    /// Indexed by the segment's genre ordinal: a segment holds few genres, so a dense vector
    /// beats hashing on the per-document path.
    counts: Vec<u64>,
}

impl Collector for GenreCounts {
    type Fruit = BTreeMap<String, u64>;
    type Child = GenreSegmentCounts;

    fn for_segment(
        &self,
        segment_local_id: SegmentOrdinal,
        _segment: &SegmentReader,
    ) -> tantivy::Result<GenreSegmentCounts> {
        let genres = self
            .segments
            .get(segment_local_id as usize)
            .cloned()
            .ok_or_else(|| {
                TantivyError::InternalError(format!("no genres for segment {segment_local_id}"))
            })?;
        let counts = vec![0; genres.terms];
        Ok(GenreSegmentCounts { genres, counts })
    }

    fn requires_scoring(&self) -> bool {
        false
    }

    fn merge_fruits(
        &self,
        segment_fruits: Vec<tantivy::Result<BTreeMap<String, u64>>>,
    ) -> tantivy::Result<BTreeMap<String, u64>> {
        let mut merged = BTreeMap::new();
        for fruit in segment_fruits {
            for (genre, n) in fruit? {
                *merged.entry(genre).or_insert(0) += n;
            }
        }
        Ok(merged)
    }
}

impl SegmentCollector for GenreSegmentCounts {
    type Fruit = tantivy::Result<BTreeMap<String, u64>>;

    fn collect(&mut self, doc: DocId, _score: Score) {
        if let Some(&ord) = self.genres.ords.get(doc as usize)
            && let Some(slot) = self.counts.get_mut(ord as usize)
        {
            *slot += 1;
        }
    }

    fn harvest(self) -> Self::Fruit {
        let mut out = BTreeMap::new();
        let Some(column) = &self.genres.column else {
            return Ok(out);
        };
        let counted: Vec<(u64, u64)> = self
            .counts
            .into_iter()
            .enumerate()
            .filter(|&(_, n)| n > 0)
            .map(|(ord, n)| (ord as u64, n))
            .collect();
        // One pass over the dictionary for all of them: each separate lookup would
        // decompress a block again.
        let mut counts = counted.iter().map(|&(_, n)| n);
        column
            .dictionary()
            .sorted_ords_to_term_cb(counted.iter().map(|&(ord, _)| ord), |term| {
                let n = counts.next().unwrap_or(0);
                let genre = String::from_utf8_lossy(term);
                if genre != NO_GENRE {
                    out.insert(genre.into_owned(), n);
                }
                Ok(())
            })
            .map_err(|e| TantivyError::InternalError(format!("genre column: {e}")))?;
        Ok(out)
    }
}
