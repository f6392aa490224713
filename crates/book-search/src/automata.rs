//! The Levenshtein automata of query words (typo tolerance and as-you-type prefixes), built
//! once per word and kept for the next search that has it.
//!
//! Building one is no small part of a search: for a word of eight letters or more (distance
//! 2) the builder allocates and fills a 256-entry transition table per state, hundreds of
//! kilobytes, which cost a search about as much as its term-dictionary walk. An automaton
//! depends only on the word, the distance and whether it matches prefixes, never on the
//! index, so searches share them; the cache is bounded by the automata's size and evicts the
//! least used.

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex, OnceLock};

use levenshtein_automata::{DFA, Distance, LevenshteinAutomatonBuilder, SINK_STATE};
use quick_cache::sync::Cache;
use quick_cache::{Equivalent, Weighter};
use tantivy::index::SegmentId;
use tantivy::query::{
    BitSetDocSet, ConstScorer, EnableScoring, Explanation, Query, Scorer, Weight,
};
use tantivy::schema::{Field, IndexRecordOption};
use tantivy::{DocId, DocSet, Score, SegmentReader, TantivyError};
use tantivy_common::BitSet;
use tantivy_fst::Automaton;

/// The largest edit distance a word is matched with (see `query::terms`).
const MAX_DISTANCE: usize = 2;
/// Memory the kept automata may take: a distance-2 automaton of a ten-letter word is about
/// 100 KB, a distance-1 one a tenth of that.
const CACHE_BYTES: u64 = 32 * 1024 * 1024;
/// Bytes per automaton state: one transition per byte value.
const STATE_BYTES: u64 = 256 * 4;

/// The automaton of one word: which terms are within its distance (or start within it).
pub(crate) struct WordAutomaton(DFA);

impl Automaton for WordAutomaton {
    type State = u32;

    fn start(&self) -> u32 {
        self.0.initial_state()
    }

    fn is_match(&self, state: &u32) -> bool {
        matches!(self.0.distance(*state), Distance::Exact(_))
    }

    fn can_match(&self, state: &u32) -> bool {
        *state != SINK_STATE
    }

    fn accept(&self, state: &u32, byte: u8) -> u32 {
        self.0.transition(*state, byte)
    }
}

/// What a word's automaton is built from.
#[derive(Clone, PartialEq, Eq, Hash)]
struct Key {
    word: String,
    distance: u8,
    prefix: bool,
}

/// A [`Key`] looked up without copying the word: a search asks for every word's automata,
/// and nearly always finds them kept. Hashes as the `Key` it stands for (same fields, a
/// `&str` hashing as a `String`).
#[derive(Hash)]
struct KeyRef<'a> {
    word: &'a str,
    distance: u8,
    prefix: bool,
}

impl Equivalent<Key> for KeyRef<'_> {
    fn equivalent(&self, key: &Key) -> bool {
        self.word == key.word && self.distance == key.distance && self.prefix == key.prefix
    }
}

#[derive(Clone)]
struct BySize;

impl Weighter<Key, Arc<WordAutomaton>> for BySize {
    fn weight(&self, key: &Key, automaton: &Arc<WordAutomaton>) -> u64 {
        (automaton.0.num_states() as u64) * STATE_BYTES + key.word.len() as u64
    }
}

/// The automata of recent query words.
pub(crate) struct Automata {
    kept: Cache<Key, Arc<WordAutomaton>, BySize>,
}

impl Default for Automata {
    fn default() -> Self {
        Self {
            kept: Cache::with_weighter(1_000, CACHE_BYTES, BySize),
        }
    }
}

impl Automata {
    /// The automaton accepting the terms within `distance` edits of `word` (with a swap of two
    /// letters one edit), or, for `prefix`, the terms that start within it.
    pub(crate) fn get(&self, word: &str, distance: u8, prefix: bool) -> Arc<WordAutomaton> {
        let distance = distance.min(MAX_DISTANCE as u8);
        let wanted = KeyRef {
            word,
            distance,
            prefix,
        };
        if let Some(kept) = self.kept.get(&wanted) {
            return kept;
        }
        let builder = builder(distance);
        let dfa = if prefix {
            builder.build_prefix_dfa(word)
        } else {
            builder.build_dfa(word)
        };
        let automaton = Arc::new(WordAutomaton(dfa));
        let key = Key {
            word: word.to_owned(),
            distance,
            prefix,
        };
        self.kept.insert(key, automaton.clone());
        automaton
    }
}

/// The builder of automata of one distance: itself costly to make, so made once.
fn builder(distance: u8) -> &'static LevenshteinAutomatonBuilder {
    static BUILDERS: [OnceLock<LevenshteinAutomatonBuilder>; MAX_DISTANCE + 1] =
        [OnceLock::new(), OnceLock::new(), OnceLock::new()];
    BUILDERS[usize::from(distance.min(MAX_DISTANCE as u8))]
        .get_or_init(|| LevenshteinAutomatonBuilder::new(distance, true))
}

/// The documents of a segment whose field holds a term an automaton accepts, found once per
/// search and shared by every scorer of that search that needs them: the ranges of a search
/// spread over the cores, and the match percentage of the page's hits, which asks each hit
/// whether it holds a word fuzzily. Finding them walks the field's term dictionary and reads
/// the postings of every accepted term (tantivy's `AutomatonWeight` does it for every
/// scorer): about 6% of the search bench's process at one client, most of it done twice or
/// three times per set.
#[derive(Default)]
pub(crate) struct Matches {
    found: Mutex<HashMap<MatchKey, Arc<MatchSlot>>>,
}

/// One set of documents, empty until the first scorer that needs it has found it.
type MatchSlot = Mutex<Option<Arc<BitSet>>>;

/// A segment, a field and an automaton (by address: the search holds every automaton it
/// uses, so an address stands for one automaton while the search lasts).
type MatchKey = (SegmentId, Field, usize);

impl Matches {
    fn of(
        &self,
        reader: &SegmentReader,
        field: Field,
        automaton: &Arc<WordAutomaton>,
    ) -> tantivy::Result<Arc<BitSet>> {
        let key = (reader.segment_id(), field, Arc::as_ptr(automaton) as usize);
        let cell = {
            let mut found = self.found.lock().map_err(|_| poisoned())?;
            found.entry(key).or_default().clone()
        };
        // Held while finding them: a second scorer of the same set waits for the first.
        let mut slot = cell.lock().map_err(|_| poisoned())?;
        if let Some(docs) = slot.as_ref() {
            return Ok(docs.clone());
        }
        let docs = Arc::new(find(reader, field, automaton)?);
        *slot = Some(docs.clone());
        Ok(docs)
    }
}

fn poisoned() -> TantivyError {
    TantivyError::InternalError("automaton matches poisoned".into())
}

/// What tantivy's `AutomatonWeight` does for each scorer: every document holding a term the
/// automaton accepts.
fn find(
    reader: &SegmentReader,
    field: Field,
    automaton: &WordAutomaton,
) -> tantivy::Result<BitSet> {
    let mut docs = BitSet::with_max_value(reader.max_doc());
    let inverted = reader.inverted_index(field)?;
    let mut terms = inverted.terms().search(automaton).into_stream()?;
    while terms.advance() {
        let mut postings =
            inverted.read_block_postings_from_terminfo(terms.value(), IndexRecordOption::Basic)?;
        while !postings.docs().is_empty() {
            for &doc in postings.docs() {
                docs.insert(doc);
            }
            postings.advance();
        }
    }
    Ok(docs)
}

/// Matches the documents whose `field` holds a term `automaton` accepts, each with the same
/// score (the boost it is given): tantivy's fuzzy query, on an automaton already built, with
/// the matching documents found once per search (see [`Matches`]).
#[derive(Clone)]
pub(crate) struct AutomatonQuery {
    field: Field,
    automaton: Arc<WordAutomaton>,
    matches: Arc<Matches>,
}

impl AutomatonQuery {
    pub(crate) fn new(field: Field, automaton: Arc<WordAutomaton>, matches: Arc<Matches>) -> Self {
        Self {
            field,
            automaton,
            matches,
        }
    }
}

impl fmt::Debug for AutomatonQuery {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AutomatonQuery")
            .field("field", &self.field)
            .field("states", &self.automaton.0.num_states())
            .finish()
    }
}

impl Query for AutomatonQuery {
    fn weight(&self, _scoring: EnableScoring<'_>) -> tantivy::Result<Box<dyn Weight>> {
        Ok(Box::new(self.clone()))
    }
}

impl Weight for AutomatonQuery {
    fn scorer(&self, reader: &SegmentReader, boost: Score) -> tantivy::Result<Box<dyn Scorer>> {
        let docs = self.matches.of(reader, self.field, &self.automaton)?;
        // A copy is a memcpy of a bit per document; the doc set consumes its bits.
        let docs = BitSetDocSet::from(docs.as_ref().clone());
        Ok(Box::new(ConstScorer::new(docs, boost)))
    }

    fn explain(&self, reader: &SegmentReader, doc: DocId) -> tantivy::Result<Explanation> {
        let mut scorer = self.scorer(reader, 1.0)?;
        if scorer.seek(doc) == doc {
            Ok(Explanation::new("AutomatonScorer", 1.0))
        } else {
            Err(TantivyError::InvalidArgument(format!(
                "document {doc} does not match"
            )))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn accepts(automaton: &WordAutomaton, term: &str) -> bool {
        let mut state = automaton.start();
        for &b in term.as_bytes() {
            state = automaton.accept(&state, b);
        }
        automaton.is_match(&state)
    }

    #[test]
    fn words_match_within_their_distance_and_prefixes_match_what_follows() {
        let automata = Automata::default();
        let fuzzy = automata.get("lighthouse", 2, false);
        assert!(accepts(&fuzzy, "lighthouse"));
        assert!(accepts(&fuzzy, "lightouse"), "one letter missing");
        assert!(accepts(&fuzzy, "ligthhosue"), "two swaps");
        assert!(!accepts(&fuzzy, "lighthouses and"));
        assert!(!accepts(&fuzzy, "light"));
        let prefix = automata.get("moby", 0, true);
        assert!(accepts(&prefix, "mobydick"));
        assert!(!accepts(&prefix, "mob"));
    }

    #[test]
    fn an_automaton_is_built_once_and_shared() {
        let automata = Automata::default();
        let first = automata.get("whale", 1, false);
        let again = automata.get("whale", 1, false);
        assert!(Arc::ptr_eq(&first, &again));
        let prefix = automata.get("whale", 1, true);
        assert!(!Arc::ptr_eq(&first, &prefix));
        assert!(accepts(&prefix, "whalebone") && !accepts(&first, "whalebone"));
    }
}

#[cfg(test)]
mod matches_tests {
    use tantivy::TERMINATED;
    use tantivy::query::AutomatonWeight;
    use uuid::Uuid;

    use super::*;
    use crate::{BookDoc, SearchIndex};

    fn book(i: u128, title: &str) -> BookDoc {
        BookDoc {
            book_id: Uuid::from_u128(i),
            title: title.into(),
            author: "Ann Writer".into(),
            short_summary: "A tale".into(),
            long_summary: String::new(),
            tags: vec![],
            genre: "Fiction".into(),
            price_cents: 100,
            published_at: Some(1),
            assessment_score: 3.0,
            listed: true,
            version: 1,
        }
    }

    fn docs(mut set: Box<dyn Scorer>) -> Vec<DocId> {
        let mut out = Vec::new();
        while set.doc() != TERMINATED {
            out.push(set.doc());
            set.advance();
        }
        out
    }

    #[test]
    fn a_search_finds_an_automatons_documents_once_and_as_tantivy_does() {
        let index = SearchIndex::open(None).unwrap();
        let titles = [
            "The lighthouse",
            "Lightouse keeper",
            "Harbour lights",
            "Ligthhosue",
        ];
        let books = (0..).zip(titles).map(|(i, t)| book(i + 1, t)).collect();
        index.apply_many(books).unwrap();
        let searcher = index.searcher();
        let field = index.inner.fields.names;
        let automaton = index.inner.automata.get("lighthouse", 2, false);
        let matches = Arc::new(Matches::default());
        let ours = AutomatonQuery::new(field, automaton.clone(), matches.clone());
        let theirs = AutomatonWeight::<WordAutomaton>::new(field, automaton.clone());
        let mut found = 0;
        for reader in searcher.segment_readers() {
            let first = matches.of(reader, field, &automaton).unwrap();
            let again = matches.of(reader, field, &automaton).unwrap();
            assert!(Arc::ptr_eq(&first, &again), "found twice in one search");
            let docs_here = docs(ours.scorer(reader, 1.0).unwrap());
            assert_eq!(docs_here, docs(theirs.scorer(reader, 1.0).unwrap()));
            found += docs_here.len();
        }
        assert_eq!(found, 3, "all but the harbour");
    }
}
