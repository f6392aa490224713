//! Who may see a book and who may read all of it.
//!
//! Listed books are visible to everyone; unlisted ones (switched off or taken down) only
//! to their writer, their publisher and admins, and everyone else gets "not found", so an
//! unlisted book's existence does not leak. A buyer keeps a book its writer switched off
//! later (what was bought stays readable, as on any e-book shop); an admin's takedown
//! removes it from buyers too, since takedowns are for content that must not be served.
//! The whole file goes to buyers (the purchases projection, or the wallet when the
//! projection has not seen the trade yet), the writer, the book's publisher and admins;
//! the rest get the trial part.

use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use quire_kit::caller::Caller;
use uuid::Uuid;

use crate::db::book::BookRow;
use crate::db::schema::{books, purchases};
use crate::error::{CatalogError, CommonErrors, Result};
use crate::wallet_purchases::WalletPurchases;

/// The writer, the book's publisher or an admin.
pub fn privileged(caller: Option<&Caller>, book: &BookRow) -> bool {
    caller.is_some_and(|c| {
        c.is_admin()
            || c.user_id() == book.upload_writer_id
            || book.publisher_id == Some(c.user_id())
    })
}

pub fn visible(caller: Option<&Caller>, book: &BookRow) -> bool {
    book.listed() || privileged(caller, book)
}

pub async fn find_book(conn: &mut AsyncPgConnection, book_id: Uuid) -> Result<Option<BookRow>> {
    Ok(books::table
        .find(book_id)
        .select(BookRow::as_select())
        .first(conn)
        .await
        .optional()?)
}

/// The book, or 404 when it is unknown or this caller may not see it.
pub async fn visible_book(
    conn: &mut AsyncPgConnection,
    caller: Option<&Caller>,
    book_id: Uuid,
) -> Result<BookRow> {
    let Some(book) = find_book(conn, book_id).await? else {
        return Err(CatalogError::not_found("Book"));
    };
    if visible(caller, &book) {
        return Ok(book);
    }
    match caller {
        Some(c) if !book.taken_down && bought(conn, c.user_id(), book.id).await? => Ok(book),
        _ => Err(CatalogError::not_found("Book")),
    }
}

pub async fn bought(conn: &mut AsyncPgConnection, user_id: Uuid, book_id: Uuid) -> Result<bool> {
    Ok(diesel::select(diesel::dsl::exists(
        purchases::table
            .filter(purchases::user_id.eq(user_id))
            .filter(purchases::book_id.eq(book_id)),
    ))
    .get_result(conn)
    .await?)
}

/// May this caller read the whole book? A purchase the projection has not seen yet is
/// confirmed by the wallet (read-your-writes just after buying).
pub async fn entitled(
    conn: &mut AsyncPgConnection,
    wallet: &WalletPurchases,
    caller: Option<&Caller>,
    book: &BookRow,
) -> Result<bool> {
    let Some(caller) = caller else {
        return Ok(false);
    };
    if privileged(Some(caller), book) || bought(conn, caller.user_id(), book.id).await? {
        return Ok(true);
    }
    wallet.confirm(conn, caller, book.id).await
}
