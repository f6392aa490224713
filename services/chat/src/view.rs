//! Messages and recommended books as the gRPC API answers them. A recommended book is shown
//! from the index while it is listed, else from the last snapshot held (a book that left
//! the shop still shows in the conversation that recommended it).

use std::collections::HashMap;

use diesel_async::AsyncPgConnection;
use quire_proto::chat::v1 as pb;
use uuid::Uuid;

use crate::AppState;
use crate::books;
use crate::conversation::{MessageRow, StoredPick};
use crate::db::rfc3339;
use crate::error::Result;

/// The wire form of `rows`, their books filled in.
pub async fn messages(
    state: &AppState,
    conn: &mut AsyncPgConnection,
    rows: &[MessageRow],
) -> Result<Vec<pb::Message>> {
    let picks: Vec<Vec<StoredPick>> = rows.iter().map(MessageRow::picks).collect();
    let wanted: Vec<&StoredPick> = picks.iter().flatten().collect();
    let cards = cards(state, conn, &wanted).await?;
    Ok(rows
        .iter()
        .zip(picks)
        .map(|(row, picks)| message(row, recommended(&cards, &picks)))
        .collect())
}

/// One message whose books are already built.
pub fn message(row: &MessageRow, books: Vec<pb::RecommendedBook>) -> pb::Message {
    pb::Message {
        id: row.id.to_string(),
        content: row.content.clone(),
        r#type: row.kind.clone(),
        timestamp: rfc3339(row.created_at),
        books,
    }
}

/// The picks with their books, in order; a book known nowhere is left out.
pub fn recommended(
    cards: &HashMap<String, quire_proto::catalog::v1::Book>,
    picks: &[StoredPick],
) -> Vec<pb::RecommendedBook> {
    picks
        .iter()
        .filter_map(|p| {
            cards.get(&p.book_id).map(|book| pb::RecommendedBook {
                book: Some(book.clone()),
                match_percentage: p.match_percentage,
                reason: p.reason.clone(),
            })
        })
        .collect()
}

/// The books of `picks` as lists show them: from the index, else from the snapshots held.
pub async fn cards(
    state: &AppState,
    conn: &mut AsyncPgConnection,
    picks: &[&StoredPick],
) -> Result<HashMap<String, quire_proto::catalog::v1::Book>> {
    let mut found = HashMap::new();
    let mut missing = Vec::new();
    if let Ok(index) = state.index.read() {
        for pick in picks {
            match index.get(&pick.book_id) {
                Some(doc) => {
                    found.insert(pick.book_id.clone(), books::card(doc));
                }
                None => missing.extend(Uuid::parse_str(&pick.book_id).ok()),
            }
        }
    }
    if !missing.is_empty() {
        for snapshot in books::snapshots(conn, &missing).await? {
            let mut card = books::card(&books::doc(&snapshot));
            card.listed = snapshot.listed;
            card.on = snapshot.listed;
            found.insert(snapshot.book_id.clone(), card);
        }
    }
    Ok(found)
}
