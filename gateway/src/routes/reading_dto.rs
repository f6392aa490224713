//! The JSON shapes of the reading routes: comments, bookmarks, progress, favourites and
//! history.

use quire_proto::catalog::v1 as pb;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::books_dto::BookOut;

#[derive(Debug, Serialize, ToSchema)]
pub struct CommentOut {
    #[schema(format = Uuid)]
    pub id: String,
    #[schema(format = Uuid)]
    pub book_id: String,
    #[schema(format = Uuid)]
    pub user_id: String,
    pub username: String,
    pub content: String,
    pub created_at: String,
    /// The caller may delete it.
    pub deletable: bool,
}

impl From<pb::Comment> for CommentOut {
    fn from(c: pb::Comment) -> Self {
        Self {
            id: c.id,
            book_id: c.book_id,
            user_id: c.user_id,
            username: c.username,
            content: c.content,
            created_at: c.created_at,
            deletable: c.deletable,
        }
    }
}

/// A page of comments, newest first.
#[derive(Debug, Serialize, ToSchema)]
pub struct CommentPageOut {
    pub total: u64,
    pub page: u32,
    pub page_size: u32,
    pub result: Vec<CommentOut>,
}

#[derive(Debug, Default, Deserialize, ToSchema, utoipa::IntoParams)]
pub struct PageQuery {
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
pub struct CommentBody {
    /// 1 to 2000 characters after trimming.
    #[schema(min_length = 1, max_length = 2000)]
    pub content: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct DeletedOut {
    pub deleted: bool,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct BookmarkOut {
    #[schema(format = Uuid)]
    pub id: String,
    #[schema(format = Uuid)]
    pub book_id: String,
    /// Where in the book (an epub CFI, "page=N" or "offset=N").
    pub cfi: String,
    pub title: String,
    /// RFC 3339
    pub timestamp: String,
}

impl From<pb::Bookmark> for BookmarkOut {
    fn from(b: pb::Bookmark) -> Self {
        Self {
            id: b.id,
            book_id: b.book_id,
            cfi: b.cfi,
            title: b.title,
            timestamp: b.timestamp,
        }
    }
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct BookmarkBody {
    #[schema(min_length = 1, max_length = 1000)]
    pub cfi: String,
    #[serde(default)]
    #[schema(max_length = 300)]
    pub title: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ProgressOut {
    #[schema(format = Uuid)]
    pub book_id: String,
    /// An epub CFI, "page=N" or "offset=N"; empty when never opened.
    pub position: String,
    /// 0-100
    pub percent: f64,
    pub updated_at: Option<String>,
}

impl From<pb::Progress> for ProgressOut {
    fn from(p: pb::Progress) -> Self {
        Self {
            book_id: p.book_id,
            position: p.position,
            percent: p.percent,
            updated_at: (!p.updated_at.is_empty()).then_some(p.updated_at),
        }
    }
}

#[derive(Debug, Deserialize, ToSchema)]
pub struct ProgressBody {
    #[schema(max_length = 1000)]
    pub position: String,
    /// 0-100
    #[schema(minimum = 0, maximum = 100)]
    pub percent: f64,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct FavouriteOut {
    #[schema(format = Uuid)]
    pub book_id: String,
    pub favourite: bool,
}

#[derive(Debug, Default, Deserialize, ToSchema, utoipa::IntoParams)]
pub struct HistoryQuery {
    /// How many books (1-100, default 50).
    #[param(value_type = Option<u32>, minimum = 1, maximum = 100)]
    #[schema(value_type = Option<u32>, minimum = 1, maximum = 100)]
    pub limit: Option<String>,
}

/// A book the caller opened: the book, when and how far.
#[derive(Debug, Serialize, ToSchema)]
pub struct HistoryOut {
    #[serde(flatten)]
    pub book: BookOut,
    pub last_read_at: String,
    /// 0-100
    pub percent: f64,
}
