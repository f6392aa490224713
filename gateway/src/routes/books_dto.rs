//! The JSON shapes of the book and shop routes (the contract's Book JSON and lists), as
//! the browser sees them and as the OpenAPI document describes them.

use std::collections::BTreeMap;

use quire_proto::catalog::v1 as pb;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use utoipa::ToSchema;

use crate::money::to_decimal;

pub(super) fn non_empty(s: String) -> Option<String> {
    (!s.is_empty()).then_some(s)
}

/// A book as every list of books shows it.
#[derive(Debug, Serialize, ToSchema)]
pub struct BookOut {
    #[schema(format = Uuid)]
    pub id: String,
    /// The same as `id` (the spec's calls name it `book_id`).
    #[schema(format = Uuid)]
    pub book_id: String,
    pub title: String,
    /// The display line of the authors.
    pub author: String,
    pub authors: Vec<String>,
    /// A URL the browser can load (`/api/books/{id}/cover`), empty when none.
    pub cover_image: String,
    /// A decimal with at most two places (4.99).
    pub price: f64,
    pub price_cents: i64,
    /// When the work was first published (YYYY-MM-DD).
    pub publish_date: Option<String>,
    pub created_time: String,
    /// When it entered the shop the first time.
    pub published_at: Option<String>,
    pub short_summary: String,
    /// Left out of search results (a book as lists show it) and when the book has none.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub long_summary: String,
    pub tags: Vec<String>,
    pub genre: String,
    /// The manuscript analysis's quality score (0-100), for the book's writer and admins
    /// only: null for everyone else. What readers see is `rating`.
    pub assessment_score: Option<f64>,
    /// What readers gave the book.
    pub rating: RatingOut,
    /// The caller's own stars (1-5); null when the caller has not rated the book.
    pub my_rating: Option<u32>,
    #[schema(format = Uuid)]
    pub upload_writer_id: String,
    #[schema(format = Uuid)]
    pub publisher_id: Option<String>,
    /// epub, pdf or txt.
    pub format: String,
    pub language: String,
    /// The writer's switch.
    pub on: bool,
    pub taken_down: bool,
    /// In the shop: on and not taken down.
    pub listed: bool,
    pub chapter_count: u32,
    pub file_size: u64,
    /// The caller may read the whole book.
    pub entitled: bool,
    pub bought: bool,
    pub favourite: bool,
    pub comment_count: u32,
    pub updated_at: Option<String>,
}

impl From<pb::Book> for BookOut {
    fn from(b: pb::Book) -> Self {
        Self {
            id: b.book_id.clone(),
            book_id: b.book_id,
            title: b.title,
            author: b.author,
            authors: b.authors,
            cover_image: b.cover_image,
            price: to_decimal(b.price_cents),
            price_cents: b.price_cents,
            publish_date: non_empty(b.publish_date),
            created_time: b.created_time,
            published_at: non_empty(b.published_at),
            short_summary: b.short_summary,
            long_summary: b.long_summary,
            tags: b.tags,
            genre: b.genre,
            assessment_score: b.assessment_score,
            rating: RatingOut {
                average: (b.rating_count > 0).then_some(round_stars(b.rating_average)),
                count: b.rating_count,
            },
            my_rating: (b.my_rating > 0).then_some(b.my_rating),
            upload_writer_id: b.upload_writer_id,
            publisher_id: non_empty(b.publisher_id),
            format: b.format,
            language: b.language,
            on: b.on,
            taken_down: b.taken_down,
            listed: b.listed,
            chapter_count: b.chapter_count,
            file_size: b.file_size,
            entitled: b.entitled,
            bought: b.bought,
            favourite: b.favourite,
            comment_count: b.comment_count,
            updated_at: non_empty(b.updated_at),
        }
    }
}

/// Readers' ratings of a book: 1 to 5 stars each.
#[derive(Debug, Serialize, ToSchema)]
pub struct RatingOut {
    /// The average stars, to two places (4.25); null while nobody rated the book.
    pub average: Option<f64>,
    /// How many readers rated it.
    pub count: u32,
}

fn round_stars(average: f64) -> f64 {
    (average * 100.0).round() / 100.0
}

/// The caller's rating of a book (`PUT /api/books/{book_id}/rating`).
#[derive(Debug, Deserialize, ToSchema)]
pub struct RatingBody {
    /// 1 to 5.
    #[schema(minimum = 1, maximum = 5)]
    pub stars: i64,
}

/// A book's readers' rating after the caller rated it.
#[derive(Debug, Serialize, ToSchema)]
pub struct BookRatingOut {
    #[schema(format = Uuid)]
    pub book_id: String,
    pub rating: RatingOut,
    pub my_rating: u32,
}

impl From<pb::BookRating> for BookRatingOut {
    fn from(r: pb::BookRating) -> Self {
        Self {
            book_id: r.book_id,
            rating: RatingOut {
                average: (r.count > 0).then_some(round_stars(r.average)),
                count: r.count,
            },
            my_rating: r.my_stars,
        }
    }
}

pub fn books(list: Vec<pb::Book>) -> Vec<BookOut> {
    list.into_iter().map(Into::into).collect()
}

/// A page of books.
#[derive(Debug, Serialize, ToSchema)]
pub struct BookPageOut {
    /// Every match when `total_exact`; else at least this many (a list filtered by more
    /// than its genre counts only up to the pages just ahead of this one).
    pub total: u64,
    /// False when `total` is a lower bound: more books match.
    pub total_exact: bool,
    pub page: u32,
    pub page_size: u32,
    pub result: Vec<BookOut>,
    /// The shop: pass as `after` for the page after this one (keyset paging, as cheap
    /// deep in the list as at its start); absent when this page is not full.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_after: Option<String>,
}

impl From<pb::BookPage> for BookPageOut {
    fn from(p: pb::BookPage) -> Self {
        Self {
            total: p.total,
            total_exact: !p.total_at_least,
            page: p.page,
            page_size: p.page_size,
            result: books(p.books),
            next_after: Some(p.next_after).filter(|a| !a.is_empty()),
        }
    }
}

#[derive(Debug, Default, Deserialize, ToSchema, utoipa::IntoParams)]
pub struct GetBooksQuery {
    /// One book.
    #[param(format = Uuid)]
    pub book_id: Option<String>,
    /// A writer's books (same as `upload_writer_id`).
    #[param(format = Uuid)]
    pub uid: Option<String>,
    /// A writer's books: all of them for the writer and admins, listed ones for others.
    #[param(format = Uuid)]
    pub upload_writer_id: Option<String>,
}

/// The form of `get_all_books/` (application/x-www-form-urlencoded); every field optional.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct ShopForm {
    pub genre: Option<String>,
    /// Comma-joined.
    pub tags: Option<String>,
    pub author: Option<String>,
    /// A decimal amount (4.99).
    #[schema(value_type = Option<f64>)]
    pub price_min: Option<String>,
    #[schema(value_type = Option<f64>)]
    pub price_max: Option<String>,
    /// newest (default), oldest, price_asc, price_desc, title, rating (readers' stars)
    pub sort: Option<String>,
    /// From 1.
    #[schema(value_type = Option<u32>)]
    pub page: Option<String>,
    /// 1-100, default 10.
    #[schema(value_type = Option<u32>)]
    pub page_size: Option<String>,
    /// Only this writer's books.
    #[schema(format = Uuid)]
    pub upload_writer_id: Option<String>,
    /// A page's `next_after`: the page after it, in the same sort (`page` then only
    /// numbers it).
    pub after: Option<String>,
}

#[derive(Debug, Default, Deserialize, ToSchema, utoipa::IntoParams)]
pub struct BoughtQuery {
    /// The buyer: the caller (admins: anyone); the caller when absent.
    #[param(format = Uuid)]
    pub uid: Option<String>,
}

/// The form of `update_book/` (multipart/form-data): `uid` and `book_id`, then any field
/// to change.
#[derive(Debug, ToSchema)]
#[allow(dead_code)] // documents the form; the handler reads the parts itself
pub struct UpdateBookForm {
    /// The writer: the caller unless admin; the caller when absent.
    #[schema(format = Uuid)]
    pub uid: Option<String>,
    #[schema(format = Uuid)]
    pub book_id: String,
    pub title: Option<String>,
    pub short_summary: Option<String>,
    pub long_summary: Option<String>,
    /// Comma-joined.
    pub authors: Option<String>,
    /// Comma-joined.
    pub tags: Option<String>,
    pub genre: Option<String>,
    pub assessment_score: Option<f64>,
    /// A decimal amount (4.99).
    #[schema(value_type = Option<f64>)]
    pub price: Option<String>,
    /// YYYY-MM-DD
    pub publish_date: Option<String>,
    /// png, jpeg, webp or svg.
    #[schema(value_type = Option<String>, format = Binary)]
    pub cover: Option<Vec<u8>>,
}

#[derive(Debug, Default, Deserialize, ToSchema, utoipa::IntoParams)]
pub struct PublishQuery {
    /// The writer (or publisher) whose switch this is: the caller unless admin.
    #[param(format = Uuid)]
    pub user_id: Option<String>,
    #[param(format = Uuid, required = true)]
    pub book_id: Option<String>,
    /// on/off, true/false, 1/0
    #[param(required = true, pattern = "^(on|off|true|false|1|0)$")]
    pub on_or_off: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct PublishStatusOut {
    #[schema(format = Uuid)]
    pub user_id: String,
    #[schema(format = Uuid)]
    pub book_id: String,
    pub on: bool,
    /// In the shop after this call.
    pub listed: bool,
    pub updated_at: String,
}

/// `tags` of a search: a list or a comma-joined string.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(untagged)]
pub enum TagsIn {
    List(Vec<String>),
    Joined(String),
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct SearchBody {
    #[serde(default)]
    pub query: String,
    pub genre: Option<String>,
    pub tags: Option<TagsIn>,
    pub author: Option<String>,
    /// A decimal amount (4.99), number or string.
    #[schema(value_type = Option<f64>)]
    pub price_min: Option<Box<RawValue>>,
    #[schema(value_type = Option<f64>)]
    pub price_max: Option<Box<RawValue>>,
    pub page: Option<u32>,
    pub page_size: Option<u32>,
}

/// A search hit: the book, its relevance score and how much of the query it matches.
#[derive(Debug, Serialize, ToSchema)]
pub struct SearchHitOut {
    #[serde(flatten)]
    pub book: BookOut,
    #[serde(rename = "_score")]
    pub score: f32,
    /// 0-100
    pub match_percentage: u32,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct FacetsOut {
    /// genre -> number of matching books (over every match, not only this page).
    pub genre: BTreeMap<String, u64>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct SearchOut {
    pub total: u64,
    pub page: u32,
    pub page_size: u32,
    pub result: Vec<SearchHitOut>,
    pub facets: FacetsOut,
    pub took_ms: u32,
}

impl From<pb::SearchResponse> for SearchOut {
    fn from(r: pb::SearchResponse) -> Self {
        Self {
            total: r.total,
            page: r.page,
            page_size: r.page_size,
            result: r
                .hits
                .into_iter()
                .filter_map(|h| {
                    Some(SearchHitOut {
                        book: h.book?.into(),
                        score: h.score,
                        match_percentage: h.match_percentage,
                    })
                })
                .collect(),
            facets: FacetsOut {
                genre: r.genre_counts.into_iter().collect(),
            },
            took_ms: r.took_ms,
        }
    }
}

#[derive(Debug, Default, Deserialize, ToSchema, utoipa::IntoParams)]
pub struct ContentQuery {
    /// Which file of the book (0, the default: the first).
    #[param(value_type = Option<u32>, maximum = 1000)]
    #[schema(value_type = Option<u32>, maximum = 1000)]
    pub file: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct TocEntryOut {
    pub index: u32,
    pub title: String,
    /// Inside the free sample, whole or in part.
    pub trial: bool,
    /// Where the chapter starts: an epub href, "page=N" (pdf) or "offset=N" (txt).
    pub href: String,
    /// Front matter (cover, title page, licence, contents...): in the free sample, but not
    /// one of the chapters it is said to cover.
    pub front_matter: bool,
    /// Only the opening of this chapter is in the free sample.
    pub trial_partial: bool,
}

impl From<pb::TocEntry> for TocEntryOut {
    fn from(e: pb::TocEntry) -> Self {
        Self {
            index: e.index,
            title: e.title,
            trial: e.trial,
            href: e.href,
            front_matter: e.front_matter,
            trial_partial: e.trial_partial,
        }
    }
}

/// Raw bytes of a file (a book, an image): the one kind of success that is no envelope.
#[derive(Debug, ToSchema)]
#[schema(value_type = String, format = Binary)]
#[allow(dead_code)] // documents the body
pub struct FileBody(pub Vec<u8>);
