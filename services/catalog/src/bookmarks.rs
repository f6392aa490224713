//! A reader's bookmarks in a book; each belongs to its reader alone, one per place.

use chrono::Utc;
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use quire_kit::caller::Caller;
use quire_proto::catalog::v1 as pb;
use uuid::Uuid;

use crate::books::view::rfc3339;
use crate::db::bookmark::BookmarkRow;
use crate::db::schema::bookmarks;
use crate::error::{CatalogError, CommonErrors, Result};
use crate::{access, input};

const MAX_PER_BOOK: i64 = 1000;

fn to_pb(row: BookmarkRow) -> pb::Bookmark {
    pb::Bookmark {
        id: row.id.to_string(),
        book_id: row.book_id.to_string(),
        cfi: row.cfi,
        title: row.title,
        timestamp: rfc3339(row.created_at),
    }
}

pub async fn list(
    conn: &mut AsyncPgConnection,
    caller: Option<&Caller>,
    book_id: &str,
) -> Result<pb::BookmarkList> {
    let c = input::required(caller)?;
    let book_id = input::uuid("book_id", book_id)?;
    access::visible_book(conn, caller, book_id).await?;
    let rows: Vec<BookmarkRow> = bookmarks::table
        .filter(bookmarks::user_id.eq(c.user_id()))
        .filter(bookmarks::book_id.eq(book_id))
        .order((bookmarks::created_at.asc(), bookmarks::id.asc()))
        .select(BookmarkRow::as_select())
        .load(conn)
        .await?;
    Ok(pb::BookmarkList {
        bookmarks: rows.into_iter().map(to_pb).collect(),
    })
}

pub async fn add(
    conn: &mut AsyncPgConnection,
    caller: Option<&Caller>,
    req: &pb::AddBookmarkRequest,
) -> Result<pb::Bookmark> {
    let c = input::required(caller)?;
    let book_id = input::uuid("book_id", &req.book_id)?;
    let cfi = input::text("cfi", &req.cfi, 2000)?;
    if cfi.is_empty() {
        return Err(CatalogError::invalid("cfi", "cfi must not be empty"));
    }
    let title = input::text("title", &req.title, 500)?;
    access::visible_book(conn, caller, book_id).await?;
    if let Some(row) = at_place(conn, c.user_id(), book_id, &cfi).await? {
        return Ok(to_pb(row));
    }
    let held: i64 = bookmarks::table
        .filter(bookmarks::user_id.eq(c.user_id()))
        .filter(bookmarks::book_id.eq(book_id))
        .count()
        .get_result(conn)
        .await?;
    if held >= MAX_PER_BOOK {
        return Err(CatalogError::invalid(
            "cfi",
            "too many bookmarks in this book",
        ));
    }
    // The unique index on the place settles concurrent adds: the later one inserts nothing
    // and answers the bookmark the earlier one made.
    let inserted: Option<BookmarkRow> = diesel::insert_into(bookmarks::table)
        .values(BookmarkRow {
            id: Uuid::now_v7(),
            user_id: c.user_id(),
            book_id,
            cfi: cfi.clone(),
            title,
            created_at: Utc::now(),
        })
        .on_conflict_do_nothing()
        .returning(BookmarkRow::as_returning())
        .get_result(conn)
        .await
        .optional()?;
    let row = match inserted {
        Some(row) => row,
        None => at_place(conn, c.user_id(), book_id, &cfi)
            .await?
            .ok_or_else(|| CatalogError::internal("a bookmark vanished as it was added"))?,
    };
    Ok(to_pb(row))
}

/// The reader's bookmark at `cfi` in the book, if there is one.
async fn at_place(
    conn: &mut AsyncPgConnection,
    user_id: Uuid,
    book_id: Uuid,
    cfi: &str,
) -> Result<Option<BookmarkRow>> {
    Ok(bookmarks::table
        .filter(bookmarks::user_id.eq(user_id))
        .filter(bookmarks::book_id.eq(book_id))
        .filter(bookmarks::cfi.eq(cfi))
        .select(BookmarkRow::as_select())
        .first(conn)
        .await
        .optional()?)
}

pub async fn delete(
    conn: &mut AsyncPgConnection,
    caller: Option<&Caller>,
    bookmark_id: &str,
) -> Result<()> {
    let c = input::required(caller)?;
    let id = input::uuid("bookmark_id", bookmark_id)?;
    let owner: Uuid = bookmarks::table
        .find(id)
        .select(bookmarks::user_id)
        .first(conn)
        .await
        .optional()?
        .ok_or_else(|| CatalogError::not_found("Bookmark"))?;
    if !c.may_act_for(owner) {
        return Err(CatalogError::forbidden(
            "You may delete only your own bookmarks",
        ));
    }
    diesel::delete(bookmarks::table.find(id))
        .execute(conn)
        .await?;
    Ok(())
}
