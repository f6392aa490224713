//! UpdateBook: the writer (or an admin) changes fields; unset fields keep their value.
//! The change and its `book.updated` event commit together.

use diesel_async::AsyncConnection;
use diesel_async::scoped_futures::ScopedFutureExt;
use quire_kit::caller::Caller;
use quire_proto::catalog::v1 as pb;

use crate::db::book::{BookChanges, BookRow};
use crate::error::{CatalogError, CommonErrors, Result};
use crate::{AppState, covers, input, listing, objects};

pub async fn update(
    state: &AppState,
    caller: Option<&Caller>,
    req: pb::UpdateBookRequest,
) -> Result<BookRow> {
    let caller = input::required(caller)?;
    input::acting_for(caller, "uid", &req.uid)?;
    let book_id = input::uuid("book_id", &req.book_id)?;
    let mut changes = BookChanges {
        title: req.title.as_deref().map(input::title).transpose()?,
        short_summary: req
            .short_summary
            .as_deref()
            .map(|s| input::text("short_summary", s, 1000))
            .transpose()?,
        long_summary: req
            .long_summary
            .as_deref()
            .map(|s| input::text("long_summary", s, input::MAX_SUMMARY_CHARS))
            .transpose()?,
        genre: req
            .genre
            .as_deref()
            .map(|s| input::text("genre", s, 100))
            .transpose()?,
        assessment_score: req.assessment_score.map(input::score).transpose()?,
        price_cents: req.price_cents.map(input::list_price).transpose()?,
        publish_date: req.publish_date.as_deref().map(input::date).transpose()?,
        ..Default::default()
    };
    if req.authors_set {
        let authors = input::labels("authors", &req.authors)?;
        changes.author = Some(authors.join(", "));
        changes.authors = Some(authors);
    }
    if req.tags_set {
        changes.tags = Some(input::labels("tags", &req.tags)?);
    }
    // Owner check before anything is decoded or stored: a stranger's upload costs no work.
    {
        let mut conn = quire_kit::db::conn(&state.pool).await?;
        let current = crate::access::find_book(&mut conn, book_id)
            .await?
            .ok_or_else(|| CatalogError::not_found("Book"))?;
        if !caller.may_act_for(current.upload_writer_id) {
            if !crate::access::visible(Some(caller), &current) {
                return Err(CatalogError::not_found("Book"));
            }
            return Err(CatalogError::forbidden(
                "Only the book's writer may change it",
            ));
        }
    }
    // Decoded with no database connection held.
    let cover = match req.cover {
        Some(c) if !c.data.is_empty() => Some(covers::check_upload(state, c.data).await?),
        _ => None,
    };
    if let Some((data, ext)) = cover {
        let key = objects::cover_key(book_id, ext);
        state.objects.put(&key, data).await?;
        changes.cover_key = Some(Some(key));
    }
    let mut conn = quire_kit::db::conn(&state.pool).await?;
    let after = conn
        .transaction::<_, CatalogError, _>(|conn| {
            async move {
                let before = listing::lock_book(conn, book_id).await?;
                listing::change_book(conn, &before, changes).await
            }
            .scope_boxed()
        })
        .await?;
    tracing::info!(%book_id, "book updated");
    Ok(after)
}
