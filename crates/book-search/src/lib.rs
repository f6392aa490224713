//! quire-book-search: the catalog's full-text index of books, built on tantivy.
//!
//! The catalog service feeds it with [`SearchIndex::apply`] from book events and rebuilds it
//! from its tables with [`SearchIndex::apply_many`]; readers call [`SearchIndex::search`]
//! (typo-tolerant, as-you-type, filters, genre counts).
//!
//! Changes become searchable at [`SearchIndex::commit`] (`apply_many` commits itself): call it
//! after each event or batch of events, since commits cost a few milliseconds (more on disk).
//!
//! It must never be the source of truth: it holds no data the catalog cannot rebuild, talks to
//! no database or broker, and never lets an unlisted book (switched off or taken down) be found
//! nor an older event overwrite a newer one.
#![forbid(unsafe_code)]
#![cfg_attr(test, allow(clippy::unwrap_used, clippy::expect_used))]

mod automata;
mod collect;
mod error;
mod index;
mod model;
mod parallel;
mod query;
mod schema;
mod search;

pub use error::SearchError;
pub use index::{Request, SearchIndex};
pub use model::{BookDoc, Hit, SearchQuery, SearchResults};
