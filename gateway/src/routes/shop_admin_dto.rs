//! The JSON shapes of the publishers' shelves and the admin's content screen.

use quire_proto::catalog::v1 as pb;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

#[derive(Debug, Serialize, ToSchema)]
pub struct PublisherOut {
    #[schema(format = Uuid)]
    pub publisher_id: String,
    pub name: String,
    pub book_count: u32,
}

impl From<pb::PublisherSummary> for PublisherOut {
    fn from(p: pb::PublisherSummary) -> Self {
        Self {
            publisher_id: p.publisher_id,
            name: p.name,
            book_count: p.book_count,
        }
    }
}

/// A book on a shelf (the spec's "publisher selection" names its images in camelCase).
#[derive(Debug, Serialize, ToSchema)]
pub struct ShelfBookOut {
    #[schema(format = Uuid)]
    pub id: String,
    pub title: String,
    #[serde(rename = "coverImage")]
    pub cover_image: String,
    #[serde(rename = "spineImage")]
    pub spine_image: String,
    pub author: String,
    pub genre: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ShelfOut {
    #[schema(format = Uuid)]
    pub publisher_id: String,
    pub publisher_name: String,
    pub books: Vec<ShelfBookOut>,
}

impl From<pb::Shelf> for ShelfOut {
    fn from(s: pb::Shelf) -> Self {
        Self {
            publisher_id: s.publisher_id,
            publisher_name: s.publisher_name,
            books: s
                .books
                .into_iter()
                .map(|b| ShelfBookOut {
                    id: b.id,
                    title: b.title,
                    cover_image: b.cover_image,
                    spine_image: b.spine_image,
                    author: b.author,
                    genre: b.genre,
                })
                .collect(),
        }
    }
}

#[derive(Debug, Default, Deserialize, ToSchema, utoipa::IntoParams)]
pub struct AdminBooksQuery {
    /// Matches title or author, case-insensitive.
    pub query: Option<String>,
    /// From 1.
    #[param(value_type = Option<u32>, minimum = 1)]
    #[schema(value_type = Option<u32>, minimum = 1)]
    pub page: Option<String>,
    /// 1-100, default 10.
    #[param(value_type = Option<u32>, minimum = 1, maximum = 100)]
    #[schema(value_type = Option<u32>, minimum = 1, maximum = 100)]
    pub page_size: Option<String>,
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct TakedownBody {
    pub taken_down: bool,
    #[serde(default)]
    #[schema(max_length = 1000)]
    pub reason: Option<String>,
}
