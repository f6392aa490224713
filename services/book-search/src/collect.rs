//! A collector of genre counts over every match, read from the genre fast column.

use std::collections::BTreeMap;

use tantivy::collector::{Collector, SegmentCollector};
use tantivy::columnar::StrColumn;
use tantivy::{DocId, Score, SegmentOrdinal, SegmentReader, TantivyError};

use crate::schema::{GENRE, NO_GENRE};

/// Counts matches per genre. Books without a genre are counted in no genre.
pub(crate) struct GenreCounts;

pub(crate) struct GenreSegmentCounts {
    column: Option<StrColumn>,
    /// Indexed by the segment's genre ordinal: a segment holds few genres, so a dense vector
    /// beats hashing on the per-document path.
    counts: Vec<u64>,
}

impl Collector for GenreCounts {
    type Fruit = BTreeMap<String, u64>;
    type Child = GenreSegmentCounts;

    fn for_segment(
        &self,
        _segment_local_id: SegmentOrdinal,
        segment: &SegmentReader,
    ) -> tantivy::Result<GenreSegmentCounts> {
        let column = segment.fast_fields().str(GENRE)?;
        let terms = column.as_ref().map_or(0, |c| c.num_terms());
        Ok(GenreSegmentCounts {
            column,
            counts: vec![0; terms],
        })
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
        if let Some(column) = &self.column
            && let Some(ord) = column.ords().first(doc)
            && let Some(slot) = usize::try_from(ord)
                .ok()
                .and_then(|o| self.counts.get_mut(o))
        {
            *slot += 1;
        }
    }

    fn harvest(self) -> Self::Fruit {
        let mut out = BTreeMap::new();
        let Some(column) = self.column else {
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
