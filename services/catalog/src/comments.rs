//! Comments on books: anyone may read those of a visible book, signed-in users write, and
//! only the author of a comment or an admin deletes it.

use chrono::Utc;
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use quire_kit::caller::Caller;
use quire_proto::catalog::v1 as pb;
use uuid::Uuid;

use crate::books::view::rfc3339;
use crate::db::comment::CommentRow;
use crate::db::schema::comments;
use crate::error::{CatalogError, CommonErrors, Result};
use crate::{access, input, names};

pub const MAX_CHARS: usize = 2000;

fn to_pb(
    row: CommentRow,
    names: &std::collections::HashMap<Uuid, String>,
    caller: Option<&Caller>,
) -> pb::Comment {
    pb::Comment {
        id: row.id.to_string(),
        book_id: row.book_id.to_string(),
        user_id: row.user_id.to_string(),
        username: names::display(names, row.user_id, "Reader"),
        content: row.content,
        created_at: rfc3339(row.created_at),
        deletable: caller.is_some_and(|c| c.may_act_for(row.user_id)),
    }
}

pub async fn list(
    conn: &mut AsyncPgConnection,
    caller: Option<&Caller>,
    req: &pb::ListCommentsRequest,
) -> Result<pb::CommentPage> {
    let book_id = input::uuid("book_id", &req.book_id)?;
    let (page, size, offset) = input::page(req.page, req.page_size)?;
    access::visible_book(conn, caller, book_id).await?;
    let total: i64 = comments::table
        .filter(comments::book_id.eq(book_id))
        .count()
        .get_result(conn)
        .await?;
    let rows: Vec<CommentRow> = comments::table
        .filter(comments::book_id.eq(book_id))
        .order((comments::created_at.desc(), comments::id.desc()))
        .offset(offset)
        .limit(i64::from(size))
        .select(CommentRow::as_select())
        .load(conn)
        .await?;
    let ids: Vec<Uuid> = rows.iter().map(|r| r.user_id).collect();
    let names = names::load(conn, &ids).await?;
    Ok(pb::CommentPage {
        total: u64::try_from(total).unwrap_or(0),
        page,
        page_size: size,
        comments: rows.into_iter().map(|r| to_pb(r, &names, caller)).collect(),
    })
}

pub async fn add(
    conn: &mut AsyncPgConnection,
    caller: Option<&Caller>,
    req: &pb::AddCommentRequest,
) -> Result<pb::Comment> {
    let c = input::required(caller)?;
    let book_id = input::uuid("book_id", &req.book_id)?;
    let content = input::text("content", &req.content, MAX_CHARS)?;
    let content = content.as_str();
    let chars = content.chars().count();
    if chars == 0 || chars > MAX_CHARS {
        return Err(CatalogError::invalid(
            "content",
            format!("content must be 1 to {MAX_CHARS} characters"),
        ));
    }
    access::visible_book(conn, caller, book_id).await?;
    let row: CommentRow = diesel::insert_into(comments::table)
        .values(CommentRow {
            id: Uuid::now_v7(),
            book_id,
            user_id: c.user_id(),
            content: content.to_owned(),
            created_at: Utc::now(),
        })
        .returning(CommentRow::as_returning())
        .get_result(conn)
        .await?;
    let names = names::load(conn, &[row.user_id]).await?;
    Ok(to_pb(row, &names, caller))
}

pub async fn delete(
    conn: &mut AsyncPgConnection,
    caller: Option<&Caller>,
    comment_id: &str,
) -> Result<()> {
    let c = input::required(caller)?;
    let id = input::uuid("comment_id", comment_id)?;
    let author: Uuid = comments::table
        .find(id)
        .select(comments::user_id)
        .first(conn)
        .await
        .optional()?
        .ok_or_else(|| CatalogError::not_found("Comment"))?;
    if !c.may_act_for(author) {
        return Err(CatalogError::forbidden(
            "You may delete only your own comments",
        ));
    }
    diesel::delete(comments::table.find(id))
        .execute(conn)
        .await?;
    tracing::info!(comment_id = %id, by_admin = c.user_id() != author, "comment deleted");
    Ok(())
}
