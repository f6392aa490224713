//! The index handle: open, apply, commit. Searching lives in `search.rs`.

use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use tantivy::directory::MmapDirectory;
use tantivy::indexer::LogMergePolicy;
use tantivy::{Index, IndexBuilder, IndexReader, IndexWriter, ReloadPolicy, Searcher};
use uuid::Uuid;

use crate::automata::Automata;
use crate::collect::ColumnCache;
use crate::parallel::Spread;
use crate::schema::{self, BOOK_ID, Fields, VERSION};
use crate::{BookDoc, SearchError};

/// Indexing memory, split between the writer's threads (tantivy needs 15 MB a thread at least).
const WRITER_HEAP_BYTES: usize = 50_000_000;
/// Segments of one size class merged together (tantivy's default waits for 8).
const MERGE_AT_SEGMENTS: usize = 2;

/// The shared handle to the index. Cheap to clone; every clone sees the same index.
#[derive(Clone)]
pub struct SearchIndex {
    pub(crate) inner: Arc<Inner>,
}

pub(crate) struct Inner {
    pub(crate) reader: IndexReader,
    pub(crate) fields: Fields,
    writer: Mutex<WriterState>,
    /// Books held (listed or not, committed or not), readable without the writer lock.
    held: AtomicU64,
    /// Each live segment's genre per document (for the genre counts) and id columns.
    pub(crate) columns: ColumnCache,
    /// The typo and prefix automata of recent query words.
    pub(crate) automata: Automata,
    /// The searches running, and the pool a lone one spreads over.
    pub(crate) spread: Spread,
}

/// Everything an upsert must see and change atomically: the writer and the versions it holds.
struct WriterState {
    writer: IndexWriter,
    versions: HashMap<Uuid, i64>,
    /// Applied since the last commit.
    dirty: bool,
}

impl SearchIndex {
    /// Opens (creating when missing) the index in `dir`, or a fresh one in RAM for `None`.
    pub fn open(dir: Option<&Path>) -> Result<Self, SearchError> {
        let (schema, fields) = schema::build();
        let builder = IndexBuilder::new()
            .schema(schema)
            .tokenizers(schema::tokenizers());
        let index: Index = match dir {
            None => builder.create_in_ram()?,
            Some(dir) => {
                std::fs::create_dir_all(dir).map_err(|e| {
                    SearchError::Directory(format!("create {}: {e}", dir.display()))
                })?;
                match builder.open_or_create(mmap(dir)?) {
                    // Written by a build with another schema: the index holds nothing the
                    // catalog cannot rebuild, so start it afresh (the catalog refills an
                    // empty index from its tables at start).
                    Err(tantivy::TantivyError::SchemaError(reason)) => {
                        tracing::warn!(dir = %dir.display(), %reason, "search index schema changed, starting it afresh");
                        std::fs::remove_dir_all(dir)
                            .and_then(|()| std::fs::create_dir_all(dir))
                            .map_err(|e| {
                                SearchError::Directory(format!("reset {}: {e}", dir.display()))
                            })?;
                        let (schema, _) = schema::build();
                        IndexBuilder::new()
                            .schema(schema)
                            .tokenizers(schema::tokenizers())
                            .create_in_dir(dir)?
                    }
                    other => other?,
                }
            }
        };
        let reader = index
            .reader_builder()
            // `commit` reloads itself, so a change is searchable as soon as it returns; the
            // watcher also picks up the background merges, which keep searches fast.
            .reload_policy(ReloadPolicy::OnCommitWithDelay)
            .try_into()?;
        let writer: IndexWriter = index.writer(WRITER_HEAP_BYTES)?;
        // Every segment costs each search a term-dictionary walk per fuzzy word and a scorer
        // per clause. A rebuild leaves a segment per writer thread and flush, and each indexer
        // commit (a batch of book events) adds a small one: merging them in the background as
        // soon as two of a size are there keeps a search to one or a few segments.
        let mut merges = LogMergePolicy::default();
        merges.set_min_num_segments(MERGE_AT_SEGMENTS);
        writer.set_merge_policy(Box::new(merges));
        let versions = load_versions(&reader.searcher())?;
        let held = AtomicU64::new(versions.len() as u64);
        Ok(Self {
            inner: Arc::new(Inner {
                reader,
                fields,
                writer: Mutex::new(WriterState {
                    writer,
                    versions,
                    dirty: false,
                }),
                held,
                columns: ColumnCache::default(),
                automata: Automata::default(),
                spread: Spread::new(),
            }),
        })
    }

    /// Marks a request (a search and the work around it: loading its hits, answering) until
    /// the guard drops. A search spreads over the cores only when no other marked request is
    /// under way (see `parallel.rs`).
    pub fn request(&self) -> Request {
        self.inner.spread.request_started();
        Request(self.clone())
    }

    /// Documents held, listed or not (applied ones included before their commit).
    pub fn doc_count(&self) -> u64 {
        self.inner.held.load(Ordering::Relaxed)
    }

    /// Upserts one book; false (and nothing changes) when the index holds a newer version.
    /// Searchable after the next [`SearchIndex::commit`].
    pub fn apply(&self, doc: BookDoc) -> Result<bool, SearchError> {
        let mut state = self.lock()?;
        let applied = self.upsert(&mut state, &doc)?;
        self.inner
            .held
            .store(state.versions.len() as u64, Ordering::Relaxed);
        Ok(applied)
    }

    /// Upserts many books (a rebuild) and commits them; returns how many were applied (stale
    /// ones are skipped as in [`SearchIndex::apply`]).
    pub fn apply_many(&self, docs: Vec<BookDoc>) -> Result<usize, SearchError> {
        let mut state = self.lock()?;
        let mut applied = 0;
        for doc in &docs {
            if self.upsert(&mut state, doc)? {
                applied += 1;
            }
        }
        self.inner
            .held
            .store(state.versions.len() as u64, Ordering::Relaxed);
        self.commit_locked(&mut state)?;
        Ok(applied)
    }

    /// Makes every applied change searchable now (a no-op commit when nothing changed).
    pub fn commit(&self) -> Result<(), SearchError> {
        let mut state = self.lock()?;
        self.commit_locked(&mut state)
    }

    /// Segments a search walks now (the background merges lower it): each one costs every
    /// search a dictionary walk per fuzzy word.
    pub fn segments(&self) -> usize {
        self.searcher().segment_readers().len()
    }

    pub(crate) fn searcher(&self) -> Searcher {
        self.inner.reader.searcher()
    }

    fn lock(&self) -> Result<MutexGuard<'_, WriterState>, SearchError> {
        self.inner.writer.lock().map_err(|_| SearchError::Poisoned)
    }

    fn upsert(&self, state: &mut WriterState, doc: &BookDoc) -> Result<bool, SearchError> {
        if state
            .versions
            .get(&doc.book_id)
            .is_some_and(|&held| doc.version < held)
        {
            return Ok(false);
        }
        let fields = &self.inner.fields;
        state
            .writer
            .delete_term(schema::id_term(fields, doc.book_id));
        state
            .writer
            .add_document(schema::to_document(fields, doc))?;
        state.versions.insert(doc.book_id, doc.version);
        state.dirty = true;
        Ok(true)
    }

    fn commit_locked(&self, state: &mut WriterState) -> Result<(), SearchError> {
        if state.dirty {
            state.writer.commit()?;
            state.dirty = false;
        }
        self.inner.reader.reload()?;
        Ok(())
    }
}

/// A request under way (see [`SearchIndex::request`]).
pub struct Request(SearchIndex);

impl Drop for Request {
    fn drop(&mut self) {
        self.0.inner.spread.request_ended();
    }
}

fn mmap(dir: &Path) -> Result<MmapDirectory, SearchError> {
    MmapDirectory::open(dir)
        .map_err(|e| SearchError::Directory(format!("open {}: {e}", dir.display())))
}

/// The version of every book the committed index holds, read from the fast columns.
fn load_versions(searcher: &Searcher) -> Result<HashMap<Uuid, i64>, SearchError> {
    let mut versions = HashMap::new();
    for segment in searcher.segment_readers() {
        let fast = segment.fast_fields();
        let Some(ids) = fast.str(BOOK_ID)? else {
            continue;
        };
        let version_column = fast.i64(VERSION)?;
        // Ordinals follow the dictionary order, so one pass over it decodes every id.
        let mut by_ord = Vec::with_capacity(ids.num_terms());
        let mut stream = ids.dictionary().stream()?;
        while stream.advance() {
            let id = std::str::from_utf8(stream.key())
                .ok()
                .and_then(|s| Uuid::parse_str(s).ok())
                .ok_or_else(|| SearchError::Corrupt("book_id is not a uuid".into()))?;
            by_ord.push(id);
        }
        for doc in segment.doc_ids_alive() {
            let (Some(ord), Some(version)) = (ids.ords().first(doc), version_column.first(doc))
            else {
                return Err(SearchError::Corrupt(format!(
                    "document {doc} lacks id or version"
                )));
            };
            let id = usize::try_from(ord)
                .ok()
                .and_then(|o| by_ord.get(o))
                .ok_or_else(|| SearchError::Corrupt("book_id ordinal out of range".into()))?;
            let held = versions.entry(*id).or_insert(version);
            *held = (*held).max(version);
        }
    }
    Ok(versions)
}
