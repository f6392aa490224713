//! A reader's favourite books; adding and removing are idempotent.

use chrono::Utc;
use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use quire_kit::caller::Caller;
use quire_proto::catalog::v1 as pb;

use crate::books::view;
use crate::db::book::BookRow;
use crate::db::favourite::FavouriteRow;
use crate::db::schema::{books, favourites};
use crate::error::Result;
use crate::{access, input};

pub async fn list(conn: &mut AsyncPgConnection, caller: Option<&Caller>) -> Result<Vec<pb::Book>> {
    let c = input::required(caller)?;
    let rows: Vec<BookRow> = favourites::table
        .inner_join(books::table)
        .filter(favourites::user_id.eq(c.user_id()))
        .order(favourites::created_at.desc())
        .select(BookRow::as_select())
        .load(conn)
        .await?;
    let rows = rows
        .into_iter()
        .filter(|b| access::visible(caller, b))
        .collect();
    view::books(conn, caller, rows).await
}

pub async fn add(
    conn: &mut AsyncPgConnection,
    caller: Option<&Caller>,
    book_id: &str,
) -> Result<()> {
    let c = input::required(caller)?;
    let book_id = input::uuid("book_id", book_id)?;
    access::visible_book(conn, caller, book_id).await?;
    diesel::insert_into(favourites::table)
        .values(FavouriteRow {
            user_id: c.user_id(),
            book_id,
            created_at: Utc::now(),
        })
        .on_conflict_do_nothing()
        .execute(conn)
        .await?;
    Ok(())
}

pub async fn remove(
    conn: &mut AsyncPgConnection,
    caller: Option<&Caller>,
    book_id: &str,
) -> Result<()> {
    let c = input::required(caller)?;
    let book_id = input::uuid("book_id", book_id)?;
    diesel::delete(
        favourites::table
            .filter(favourites::user_id.eq(c.user_id()))
            .filter(favourites::book_id.eq(book_id)),
    )
    .execute(conn)
    .await?;
    Ok(())
}
