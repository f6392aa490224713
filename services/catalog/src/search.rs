//! Full-text search. Each replica holds its own index (quire-book-search), fed by its own
//! consumer group on `quire.book.v1` with a short fetch wait, so a book switched on is
//! found within a second; the index is rebuilt from the books table when it starts empty.
//! Hits are loaded from Postgres, so a reply never shows a stale title or price.

use std::future::Future;
use std::pin::Pin;
use std::time::Instant;

use chrono::DateTime;
use diesel::prelude::*;
use diesel_async::RunQueryDsl;
use prost::Message;
use quire_book_search::{BookDoc, SearchIndex, SearchQuery};
use quire_kit::caller::Caller;
use quire_kit::consumer::{BatchConsumer, BatchHandler};
use quire_kit::events::{Event, topics, types};
use quire_proto::catalog::v1 as pb;
use quire_proto::events::v1 as ev;
use uuid::Uuid;

use crate::books::view;
use crate::db::book::BookRow;
use crate::db::schema::books;
use crate::db::texts;
use crate::error::{CatalogError, CommonErrors, Result};
use crate::{AppState, input};

/// How long the broker may hold a fetch open waiting for data.
const FETCH_WAIT_MS: u32 = 50;

pub fn doc_from_row(row: &BookRow) -> BookDoc {
    BookDoc {
        book_id: row.id,
        title: row.title.clone(),
        author: row.author.clone(),
        short_summary: row.short_summary.clone(),
        long_summary: row.long_summary.clone(),
        tags: texts(row.tags.clone()),
        genre: row.genre.clone(),
        price_cents: row.price_cents,
        published_at: row.published_at.map(|t| t.timestamp()),
        assessment_score: row.assessment_score,
        listed: row.listed(),
        version: row.version,
    }
}

pub fn doc_from_snapshot(s: &ev::BookSnapshot) -> Option<BookDoc> {
    Some(BookDoc {
        book_id: Uuid::parse_str(&s.book_id).ok()?,
        title: s.title.clone(),
        author: s.author.clone(),
        short_summary: s.short_summary.clone(),
        long_summary: s.long_summary.clone(),
        tags: s.tags.clone(),
        genre: s.genre.clone(),
        price_cents: s.price_cents,
        published_at: DateTime::parse_from_rfc3339(&s.published_at)
            .ok()
            .map(|t| t.timestamp()),
        assessment_score: s.assessment_score,
        listed: s.listed,
        version: s.version,
    })
}

fn snapshot_of(event: &Event) -> Option<ev::BookSnapshot> {
    let data = event.data.as_slice();
    match event.event_type.as_str() {
        types::BOOK_PUBLISHED => ev::BookPublished::decode(data).ok()?.book,
        types::BOOK_UPDATED => ev::BookUpdated::decode(data).ok()?.book,
        types::BOOK_UNPUBLISHED => ev::BookUnpublished::decode(data).ok()?.book,
        _ => None,
    }
}

/// Fills an empty index from the books table.
pub async fn rebuild(state: &AppState) -> Result<usize> {
    let mut conn = quire_kit::db::conn(&state.pool).await?;
    let rows: Vec<BookRow> = books::table
        .select(BookRow::as_select())
        .load(&mut conn)
        .await?;
    let docs: Vec<BookDoc> = rows.iter().map(doc_from_row).collect();
    let index = state.index.clone();
    let n = tokio::task::spawn_blocking(move || {
        let n = index.apply_many(docs)?;
        index.commit()?;
        Ok::<_, quire_book_search::SearchError>(n)
    })
    .await??;
    Ok(n)
}

struct IndexBooks {
    index: SearchIndex,
}

impl BatchHandler for IndexBooks {
    fn handle_batch<'a>(
        &'a self,
        events: &'a [Event],
    ) -> Pin<Box<dyn Future<Output = anyhow::Result<usize>> + Send + 'a>> {
        let docs: Vec<BookDoc> = events
            .iter()
            .filter_map(snapshot_of)
            .filter_map(|s| doc_from_snapshot(&s))
            .collect();
        let index = self.index.clone();
        Box::pin(async move {
            if docs.is_empty() {
                return Ok(0);
            }
            let n = docs.len();
            tokio::task::spawn_blocking(move || {
                for doc in docs {
                    index.apply(doc)?;
                }
                index.commit()
            })
            .await??;
            Ok(n)
        })
    }
}

/// This replica's indexer.
pub struct Indexer {
    consumer: BatchConsumer,
    index: SearchIndex,
}

impl Indexer {
    /// Rebuilds the index when it is empty and joins this replica's consumer group.
    pub async fn start(state: AppState, brokers: &str, group: &str) -> anyhow::Result<Self> {
        if state.index.doc_count() == 0 {
            let n = rebuild(&state)
                .await
                .map_err(|e| anyhow::anyhow!("search index rebuild: {e}"))?;
            tracing::info!(books = n, "search index rebuilt");
        }
        let consumer = BatchConsumer::new(brokers, group, &[topics::BOOK], FETCH_WAIT_MS)?;
        Ok(Self {
            consumer,
            index: state.index,
        })
    }

    pub async fn run(self, stop: impl Future<Output = ()>) {
        self.consumer
            .run(IndexBooks { index: self.index }, stop)
            .await;
    }
}

fn bound(field: &'static str, cents: i64) -> Result<Option<i64>> {
    match cents {
        -1 => Ok(None),
        c if c < 0 => Err(CatalogError::invalid(
            field,
            format!("{field} must not be negative"),
        )),
        c => input::price(c).map(Some).map_err(|_| {
            CatalogError::invalid(field, format!("{field} must be at most 1000000.00"))
        }),
    }
}

/// Runs a search's CPU work (about a millisecond) without stalling the tasks of this worker.
/// On a multi-threaded runtime it runs right here while tokio hands this worker's other tasks
/// to another thread: the blocking pool would add two thread wake-ups to every search, which
/// on a small machine cost as much as a tenth of the search. A current-thread runtime (tests)
/// has no other worker to hand them to, so there it goes to the blocking pool.
async fn off_the_reactor<T: Send + 'static>(
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T> {
    use tokio::runtime::{Handle, RuntimeFlavor};
    if Handle::current().runtime_flavor() == RuntimeFlavor::MultiThread {
        Ok(tokio::task::block_in_place(work))
    } else {
        Ok(tokio::task::spawn_blocking(work).await?)
    }
}

pub async fn search(
    state: &AppState,
    caller: Option<&Caller>,
    req: &pb::SearchRequest,
) -> Result<pb::SearchResponse> {
    let started = Instant::now();
    // Until the answer is built: a lone search may spread over the cores, not one that
    // would take them from another request's hits being loaded or encoded.
    let _request = state.index.request();
    let (page, size, offset) = input::page(req.page, req.page_size)?;
    let text = input::text("query", &req.query, 500)?;
    let nonempty = |s: String| Some(s).filter(|s| !s.is_empty());
    let q = SearchQuery {
        text,
        genre: nonempty(input::text("genre", &req.genre, 100)?),
        tags: input::labels("tags", &req.tags)?,
        author: nonempty(input::text("author", &req.author, 200)?),
        price_min_cents: bound("price_min", req.price_min_cents)?.filter(|m| *m > 0),
        price_max_cents: bound("price_max", req.price_max_cents)?,
        offset: usize::try_from(offset).unwrap_or(0),
        limit: size as usize,
    };
    let index = state.index.clone();
    let results = off_the_reactor(move || index.search(&q)).await??;
    let ids: Vec<Uuid> = results.hits.iter().map(|h| h.book_id).collect();
    let mut conn = quire_kit::db::conn(&state.pool).await?;
    // The index may lag a moment behind a takedown: Postgres has the last word.
    let books = view::listed_books(&mut conn, caller, &ids).await?;
    Ok(pb::SearchResponse {
        total: results.total,
        page,
        page_size: size,
        hits: books
            .into_iter()
            .zip(&results.hits)
            .filter_map(|(book, hit)| {
                let mut book = book?;
                // A hit is a book as lists show it (the spec's search Book has no long
                // summary): it was most of a page's bytes, which every hop encodes again.
                book.long_summary.clear();
                Some(pb::SearchHit {
                    book: Some(book),
                    score: hit.score,
                    match_percentage: hit.match_percentage,
                })
            })
            .collect(),
        genre_counts: results.genre_counts.into_iter().collect(),
        took_ms: u32::try_from(started.elapsed().as_millis()).unwrap_or(u32::MAX),
    })
}
