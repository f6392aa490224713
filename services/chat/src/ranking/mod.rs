//! Ranking: the books that answer a reader's request, best first, each with a match
//! percentage and a one-line reason. Pure and deterministic: it reads no clock (the
//! caller passes `today`), no file and no network; the service owns the state (the
//! [`Index`] it keeps from `book.*` events, sales from `trade.completed`, the reader's
//! purchases) and the model (it passes the query's vector).
//!
//! CONTRACT (fixed between the service and this module): [`Index`] and its methods,
//! [`BookDoc`], [`SearchHit`], [`Reader`], [`Ask`], [`Pick`], [`embedding_text`],
//! [`query_text`], [`recommend`] and [`knows_title`].
//!
//! [`recommend`] works in five steps, one file each:
//! 1. [`constraints`]: books that break a hard constraint (price, pages, audience,
//!    excluded genres, topics and books, shown before, bought) are never candidates;
//! 2. candidates are catalog's search hits and the books whose words match the request
//!    (`query`, `tokens`: keywords, genres, moods' words, author, title, the book a "like"
//!    names) or whose vector is near the query's (`semantic`); a request with only
//!    constraints ("free books", "for kids") makes every book that meets them one;
//! 3. `fit` scores each: what share of the request it meets (the match percentage),
//!    plus small priors (sales, log-scaled; the reader's genres; the assessment score;
//!    catalog's search rank); `moods` and `similar` say how a book fits a mood and how
//!    alike two books are;
//! 4. `diversity`: best first, at most two by one author and three of one genre unless
//!    asked for; ties by book id;
//! 5. `reason`: one plain line naming what matched.
//!
//! Cost: the words of each book are folded and numbered once, in [`Index::upsert`]; a
//! request costs a few binary searches per book and one dot product per book with a
//! vector. For 10,000 books a release build took 2.7 ms lexical and 4.7 ms with vectors
//! on a 2-core machine busy with other builds (see the test `ten_thousand_books_rank_fast`).

use std::collections::{HashMap, HashSet};

use quire_genres::canonical_genre;

use crate::understanding::Request;

pub mod constraints;
pub mod diversity;
mod fit;
mod index;
mod moods;
mod query;
mod reason;
mod semantic;
mod similar;
#[cfg(test)]
mod tests;
mod tokens;

pub use index::Index;
pub use semantic::query_text;

use fit::Fit;
use index::Entry;
use query::Query;

/// A listed book as the index keeps it (from a `quire.events.v1.BookSnapshot`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct BookDoc {
    pub book_id: String,
    pub title: String,
    /// Display line of the authors.
    pub author: String,
    pub authors: Vec<String>,
    pub short_summary: String,
    pub long_summary: String,
    pub tags: Vec<String>,
    pub genre: String,
    pub price_cents: i64,
    /// 0 while unknown.
    pub pages: u32,
    /// YYYY-MM-DD or empty.
    pub publish_date: String,
    /// RFC 3339 or empty.
    pub published_at: String,
    pub created_time: String,
    pub assessment_score: f64,
    pub cover_image: String,
    pub format: String,
    pub language: String,
    pub upload_writer_id: String,
    pub publisher_id: String,
    /// Grows with every change; an older snapshot never replaces a newer one.
    pub version: i64,
}

/// A hit of catalog's search for the request's words.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchHit {
    pub book_id: String,
    pub score: f32,
}

/// What is known of the reader.
#[derive(Debug, Clone, Copy)]
pub struct Reader<'a> {
    /// Books they bought: never recommended.
    pub bought: &'a HashSet<String>,
    /// Genres of the books they bought or read, with how many.
    pub genres_read: &'a HashMap<String, u32>,
}

/// One recommendation request.
#[derive(Debug, Clone, Copy)]
pub struct Ask<'a> {
    pub request: &'a Request,
    /// The vector of [`query_text`]`(request)`, when the model is loaded.
    pub query_vector: Option<&'a [f32]>,
    /// Catalog's hits for the request's words, best first.
    pub search_hits: &'a [SearchHit],
    pub reader: Reader<'a>,
    /// Books this conversation showed already.
    pub exclude: &'a HashSet<String>,
    pub limit: usize,
    /// Today (YYYY-MM-DD), for "new" books.
    pub today: &'a str,
}

/// One recommended book.
#[derive(Debug, Clone, PartialEq)]
pub struct Pick {
    pub book_id: String,
    /// 0-100.
    pub match_percentage: u32,
    pub reason: String,
}

/// The text of a book that its vector embeds (title, genre, tags, short summary).
pub fn embedding_text(doc: &BookDoc) -> String {
    format!(
        "{}. {}. {}. {}",
        doc.title,
        doc.genre,
        doc.tags.join(", "),
        doc.short_summary
    )
}

/// Whether `name` names a book of `index` (as "books like ..." finds it).
pub fn knows_title(index: &Index, name: &str) -> bool {
    similar::resolve(index, name).is_some()
}

/// The books that answer `ask`, best first, at most `ask.limit`.
pub fn recommend(index: &Index, ask: &Ask<'_>) -> Vec<Pick> {
    if ask.limit == 0 || index.is_empty() {
        return Vec::new();
    }
    let request = ask.request;
    let query = Query::compile(index, request, ask.today);
    let like = query.like_entry(index);
    let hits: HashMap<&str, f32> = ask
        .search_hits
        .iter()
        .enumerate()
        .map(|(i, h)| {
            let rank = 1.0 - i as f32 / ask.search_hits.len() as f32;
            (h.book_id.as_str(), rank)
        })
        .collect();
    let excluded_genres: Vec<String> = request
        .exclude_genres
        .iter()
        .map(|g| canonical_genre(g).unwrap_or(g).to_lowercase())
        .collect();

    let mut ranked: Vec<(f32, &Entry, Fit)> = Vec::new();
    for entry in index.books.values() {
        let id = entry.doc.book_id.as_str();
        // The cheap tests first: most books fall at the price or the genre.
        if !constraints::price_fits(request, entry.doc.price_cents)
            || !constraints::audience_fits(request.audience, entry)
            || constraints::genre_excluded(&excluded_genres, entry)
            || (!ask.exclude.is_empty() && ask.exclude.contains(id))
            || (!ask.reader.bought.is_empty() && ask.reader.bought.contains(id))
            || request.exclude_books.iter().any(|b| b == id)
            || like.is_some_and(|l| l.doc.book_id == id)
            || constraints::about_excluded(&query.excluded_keywords, entry)
        {
            continue;
        }
        let pages = if query.pages.any() {
            match query.pages.fit(entry) {
                Some(fit) => Some(fit),
                None => continue,
            }
        } else {
            None
        };
        let cosine = ask
            .query_vector
            .zip(entry.vector.as_deref())
            .map(|(q, v)| semantic::dot(q, v));
        let fit = fit::fit(&query, entry, like, pages, cosine);
        let search = if hits.is_empty() {
            None
        } else {
            hits.get(id).copied()
        };
        if query.has_text && !fit.matched && search.is_none() {
            continue;
        }
        if !fit.relevant() || (query.like_unknown_alone && !query.named_in(entry)) {
            continue;
        }
        let score = fit::score(
            &query,
            index,
            entry,
            &fit,
            &ask.reader,
            search.unwrap_or(0.0),
        );
        ranked.push((score, entry, fit));
    }

    let order = |a: &(f32, &Entry, Fit), b: &(f32, &Entry, Fit)| {
        b.0.total_cmp(&a.0)
            .then_with(|| a.1.doc.book_id.cmp(&b.1.doc.book_id))
    };
    // Only the best few can be shown, even after the caps of variety.
    let keep = ask.limit.saturating_mul(8).max(32);
    if ranked.len() > keep {
        ranked.select_nth_unstable_by(keep, order);
        ranked.truncate(keep);
    }
    ranked.sort_unstable_by(order);

    let asked_genre = |genre: &str| {
        query.genres.iter().any(|(g, _)| g == genre)
            || request
                .audience
                .is_some_and(|a| a.genre().eq_ignore_ascii_case(genre))
            || like.is_some_and(|l| l.features.genre == genre)
    };
    let slots: Vec<diversity::Slot<'_>> = ranked
        .iter()
        .map(|(_, e, _)| diversity::Slot {
            author: &e.features.author,
            genre: &e.features.genre,
            genre_asked: asked_genre(&e.features.genre),
        })
        .collect();
    diversity::pick(&slots, ask.limit, request.author.is_some())
        .into_iter()
        .map(|i| {
            let (_, entry, fit) = &ranked[i];
            Pick {
                book_id: entry.doc.book_id.clone(),
                match_percentage: fit.percentage(),
                reason: reason::line(&query, index, entry, fit, like, &ask.reader),
            }
        })
        .collect()
}
