//! What Quinn knows of a reader: the books they bought (from wallet's trade events), never
//! recommended to them, and the genres of those books, which lean the ranking.

use std::collections::{HashMap, HashSet};

use diesel::prelude::*;
use diesel_async::{AsyncPgConnection, RunQueryDsl};
use uuid::Uuid;

use crate::db::schema::{books, purchases};
use crate::error::Result;

#[derive(Debug, Default)]
pub struct History {
    pub bought: HashSet<String>,
    pub genres_read: HashMap<String, u32>,
}

pub async fn history(conn: &mut AsyncPgConnection, reader: Uuid) -> Result<History> {
    let rows: Vec<(Uuid, Option<String>)> = purchases::table
        .left_join(books::table.on(books::book_id.eq(purchases::book_id)))
        .filter(purchases::buyer.eq(reader))
        .select((purchases::book_id, books::genre.nullable()))
        .load(conn)
        .await?;
    let mut history = History::default();
    for (book, genre) in rows {
        history.bought.insert(book.to_string());
        if let Some(genre) = genre.filter(|g| !g.is_empty()) {
            *history.genres_read.entry(genre).or_default() += 1;
        }
    }
    Ok(history)
}
