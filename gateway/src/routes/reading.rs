//! The reading routes: comments, bookmarks, progress, favourites and history, each one
//! call to the catalog service (which checks who owns what).

use actix_web::{delete, get, post, put, web};

use super::books_dto::{BookRatingOut, RatingBody};
use super::reading_dto::*;
use crate::auth_guard::{Authenticated, MaybeAuthenticated};
use crate::envelope::Envelope;
use crate::envelope::{Failure, Reply, ok};
use crate::grpc_call::call;
use crate::input;
use crate::json_body::JsonBody;
use crate::state::AppState;
use quire_proto::catalog::v1 as pb;

fn book_id(path: web::Path<String>) -> Result<String, Failure> {
    Ok(input::uuid("book_id", &path.into_inner())?.to_string())
}

#[utoipa::path(get, path = "/api/books/{book_id}/comments", tag = "reading", params(("book_id" = uuid::Uuid, Path), PageQuery),
    responses((status = 200, body = Envelope<CommentPageOut>), (status = 404, description = "Unknown book, or not visible to the caller")), security((), ("bearer" = [])))]
#[get("/books/{book_id}/comments")]
pub async fn list_comments(
    state: web::Data<AppState>,
    who: MaybeAuthenticated,
    path: web::Path<String>,
    q: web::Query<PageQuery>,
) -> Reply {
    let book_id = book_id(path)?;
    let (page, page_size) = input::paging(q.page.as_deref(), q.page_size.as_deref())?;
    let r = state
        .catalog
        .clone()
        .list_comments(call(
            pb::ListCommentsRequest {
                book_id,
                page,
                page_size,
            },
            who.0.as_ref(),
        ))
        .await?
        .into_inner();
    Ok(ok(CommentPageOut {
        total: r.total,
        page: r.page,
        page_size: r.page_size,
        result: r.comments.into_iter().map(Into::into).collect(),
    }))
}

#[utoipa::path(post, path = "/api/books/{book_id}/comments", tag = "reading", params(("book_id" = uuid::Uuid, Path)), request_body = CommentBody,
    responses((status = 200, body = Envelope<CommentOut>), (status = 404, description = "Unknown book, or not visible to the caller")), security(("bearer" = [])))]
#[post("/books/{book_id}/comments")]
pub async fn add_comment(
    state: web::Data<AppState>,
    who: Authenticated,
    path: web::Path<String>,
    body: JsonBody<CommentBody>,
) -> Reply {
    let book_id = book_id(path)?;
    let content = body.into_inner().content.trim().to_owned();
    if content.is_empty() {
        return Err(Failure::bad_request(
            "missing_field",
            "content: must not be empty",
        ));
    }
    let content = input::text("content", content, 2000)?;
    let r = state
        .catalog
        .clone()
        .add_comment(call(
            pb::AddCommentRequest { book_id, content },
            Some(&who.0),
        ))
        .await?;
    Ok(ok(CommentOut::from(r.into_inner())))
}

#[utoipa::path(delete, path = "/api/comments/{comment_id}", tag = "reading", params(("comment_id" = uuid::Uuid, Path)),
    responses((status = 200, body = Envelope<DeletedOut>), (status = 403, description = "Someone else's comment"), (status = 404, description = "Unknown comment")),
    security(("bearer" = [])))]
#[delete("/comments/{comment_id}")]
pub async fn delete_comment(
    state: web::Data<AppState>,
    who: Authenticated,
    path: web::Path<String>,
) -> Reply {
    let comment_id = input::uuid("comment_id", &path.into_inner())?.to_string();
    state
        .catalog
        .clone()
        .delete_comment(call(pb::DeleteCommentRequest { comment_id }, Some(&who.0)))
        .await?;
    Ok(ok(DeletedOut { deleted: true }))
}

#[utoipa::path(put, path = "/api/books/{book_id}/rating", tag = "reading", params(("book_id" = uuid::Uuid, Path)), request_body = RatingBody,
    responses((status = 200, body = Envelope<BookRatingOut>, description = "The caller's rating, given or changed, and the book's new average"),
        (status = 400, description = "stars not a whole number from 1 to 5"),
        (status = 403, description = "The caller does not own the book (or wrote it)"),
        (status = 404, description = "Unknown book, or not visible to the caller")), security(("bearer" = [])))]
#[put("/books/{book_id}/rating")]
pub async fn rate_book(
    state: web::Data<AppState>,
    who: Authenticated,
    path: web::Path<String>,
    body: JsonBody<RatingBody>,
) -> Reply {
    let book_id = book_id(path)?;
    let stars = body.into_inner().stars;
    let stars = u32::try_from(stars)
        .ok()
        .filter(|s| (1..=5).contains(s))
        .ok_or_else(|| {
            Failure::bad_request(
                "invalid_number",
                "stars: must be a whole number from 1 to 5",
            )
        })?;
    let r = state
        .catalog
        .clone()
        .rate_book(call(pb::RateBookRequest { book_id, stars }, Some(&who.0)))
        .await?;
    Ok(ok(BookRatingOut::from(r.into_inner())))
}

#[utoipa::path(get, path = "/api/books/{book_id}/bookmarks", tag = "reading", params(("book_id" = uuid::Uuid, Path)),
    responses((status = 200, body = Envelope<Vec<BookmarkOut>>), (status = 404, description = "Unknown book, or not visible to the caller")), security(("bearer" = [])))]
#[get("/books/{book_id}/bookmarks")]
pub async fn list_bookmarks(
    state: web::Data<AppState>,
    who: Authenticated,
    path: web::Path<String>,
) -> Reply {
    let book_id = book_id(path)?;
    let r = state
        .catalog
        .clone()
        .list_bookmarks(call(pb::ListBookmarksRequest { book_id }, Some(&who.0)))
        .await?;
    let marks: Vec<BookmarkOut> = r
        .into_inner()
        .bookmarks
        .into_iter()
        .map(Into::into)
        .collect();
    Ok(ok(marks))
}

#[utoipa::path(post, path = "/api/books/{book_id}/bookmarks", tag = "reading", params(("book_id" = uuid::Uuid, Path)), request_body = BookmarkBody,
    responses((status = 200, body = Envelope<BookmarkOut>), (status = 404, description = "Unknown book, or not visible to the caller")), security(("bearer" = [])))]
#[post("/books/{book_id}/bookmarks")]
pub async fn add_bookmark(
    state: web::Data<AppState>,
    who: Authenticated,
    path: web::Path<String>,
    body: JsonBody<BookmarkBody>,
) -> Reply {
    let book_id = book_id(path)?;
    let b = body.into_inner();
    let cfi = input::text("cfi", b.cfi.trim().to_owned(), 1000)?;
    if cfi.is_empty() {
        return Err(Failure::bad_request(
            "missing_field",
            "cfi: must not be empty",
        ));
    }
    let title = input::text("title", b.title.trim().to_owned(), 300)?;
    let r = state
        .catalog
        .clone()
        .add_bookmark(call(
            pb::AddBookmarkRequest {
                book_id,
                cfi,
                title,
            },
            Some(&who.0),
        ))
        .await?;
    Ok(ok(BookmarkOut::from(r.into_inner())))
}

#[utoipa::path(delete, path = "/api/bookmarks/{bookmark_id}", tag = "reading", params(("bookmark_id" = uuid::Uuid, Path)),
    responses((status = 200, body = Envelope<DeletedOut>), (status = 403, description = "Someone else's bookmark"), (status = 404, description = "Unknown bookmark")),
    security(("bearer" = [])))]
#[delete("/bookmarks/{bookmark_id}")]
pub async fn delete_bookmark(
    state: web::Data<AppState>,
    who: Authenticated,
    path: web::Path<String>,
) -> Reply {
    let bookmark_id = input::uuid("bookmark_id", &path.into_inner())?.to_string();
    state
        .catalog
        .clone()
        .delete_bookmark(call(
            pb::DeleteBookmarkRequest { bookmark_id },
            Some(&who.0),
        ))
        .await?;
    Ok(ok(DeletedOut { deleted: true }))
}

#[utoipa::path(get, path = "/api/books/{book_id}/progress", tag = "reading", params(("book_id" = uuid::Uuid, Path)),
    responses((status = 200, body = Envelope<ProgressOut>), (status = 404, description = "Unknown book, or not visible to the caller")), security(("bearer" = [])))]
#[get("/books/{book_id}/progress")]
pub async fn get_progress(
    state: web::Data<AppState>,
    who: Authenticated,
    path: web::Path<String>,
) -> Reply {
    let book_id = book_id(path)?;
    let r = state
        .catalog
        .clone()
        .get_progress(call(pb::GetProgressRequest { book_id }, Some(&who.0)))
        .await?;
    Ok(ok(ProgressOut::from(r.into_inner())))
}

#[utoipa::path(put, path = "/api/books/{book_id}/progress", tag = "reading", params(("book_id" = uuid::Uuid, Path)), request_body = ProgressBody,
    responses((status = 200, body = Envelope<ProgressOut>), (status = 404, description = "Unknown book, or not visible to the caller")), security(("bearer" = [])))]
#[put("/books/{book_id}/progress")]
pub async fn set_progress(
    state: web::Data<AppState>,
    who: Authenticated,
    path: web::Path<String>,
    body: JsonBody<ProgressBody>,
) -> Reply {
    let book_id = book_id(path)?;
    let b = body.into_inner();
    if !(b.percent.is_finite() && (0.0..=100.0).contains(&b.percent)) {
        return Err(Failure::bad_request(
            "invalid_number",
            "percent: must be a number from 0 to 100",
        ));
    }
    let position = input::text("position", b.position, 1000)?;
    let r = state
        .catalog
        .clone()
        .set_progress(call(
            pb::SetProgressRequest {
                book_id,
                position,
                percent: b.percent,
            },
            Some(&who.0),
        ))
        .await?;
    Ok(ok(ProgressOut::from(r.into_inner())))
}

#[utoipa::path(get, path = "/api/favourites", tag = "reading",
    responses((status = 200, body = Envelope<Vec<super::books_dto::BookOut>>)), security(("bearer" = [])))]
#[get("/favourites")]
pub async fn list_favourites(state: web::Data<AppState>, who: Authenticated) -> Reply {
    let r = state
        .catalog
        .clone()
        .list_favourites(call(pb::ListFavouritesRequest {}, Some(&who.0)))
        .await?;
    Ok(ok(super::books_dto::books(r.into_inner().books)))
}

#[utoipa::path(post, path = "/api/favourites/{book_id}", tag = "reading", params(("book_id" = uuid::Uuid, Path)),
    responses((status = 200, body = Envelope<FavouriteOut>), (status = 404, description = "Unknown book, or not visible to the caller")), security(("bearer" = [])))]
#[post("/favourites/{book_id}")]
pub async fn add_favourite(
    state: web::Data<AppState>,
    who: Authenticated,
    path: web::Path<String>,
) -> Reply {
    set_favourite(&state, &who, path, true).await
}

#[utoipa::path(delete, path = "/api/favourites/{book_id}", tag = "reading", params(("book_id" = uuid::Uuid, Path)),
    responses((status = 200, body = Envelope<FavouriteOut>, description = "Not a favourite (any more); an unknown book is none")), security(("bearer" = [])))]
#[delete("/favourites/{book_id}")]
pub async fn remove_favourite(
    state: web::Data<AppState>,
    who: Authenticated,
    path: web::Path<String>,
) -> Reply {
    set_favourite(&state, &who, path, false).await
}

/// Marks or unmarks the caller's favourite.
async fn set_favourite(
    state: &AppState,
    who: &Authenticated,
    path: web::Path<String>,
    favourite: bool,
) -> Reply {
    let book_id = book_id(path)?;
    let request = call(
        pb::FavouriteRequest {
            book_id: book_id.clone(),
        },
        Some(&who.0),
    );
    let mut catalog = state.catalog.clone();
    if favourite {
        catalog.add_favourite(request).await?;
    } else {
        catalog.remove_favourite(request).await?;
    }
    Ok(ok(FavouriteOut { book_id, favourite }))
}

#[utoipa::path(get, path = "/api/history", tag = "reading", params(HistoryQuery),
    responses((status = 200, body = Envelope<Vec<HistoryOut>>)), security(("bearer" = [])))]
#[get("/history")]
pub async fn history(
    state: web::Data<AppState>,
    who: Authenticated,
    q: web::Query<HistoryQuery>,
) -> Reply {
    let limit = input::number("limit", q.limit.as_deref(), 50, 1, 100)?;
    let r = state
        .catalog
        .clone()
        .list_history(call(pb::ListHistoryRequest { limit }, Some(&who.0)))
        .await?;
    let entries: Vec<HistoryOut> = r
        .into_inner()
        .entries
        .into_iter()
        .filter_map(|e| {
            Some(HistoryOut {
                book: e.book?.into(),
                last_read_at: e.last_read_at,
                percent: e.percent,
            })
        })
        .collect();
    Ok(ok(entries))
}

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(list_comments)
        .service(add_comment)
        .service(delete_comment)
        .service(rate_book)
        .service(list_bookmarks)
        .service(add_bookmark)
        .service(delete_bookmark)
        .service(get_progress)
        .service(set_progress)
        .service(list_favourites)
        .service(add_favourite)
        .service(remove_favourite)
        .service(history);
}
