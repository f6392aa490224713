//! What the chat tests share: a turn and a recommendation as a signed-in reader, a shelf
//! of cosy mysteries set in a village of their own, waiting until Quinn (which learns the
//! books from catalog's events) recommends them, and the shapes of a message and of a
//! recommended book.

use std::collections::HashSet;
use std::time::Duration;

use serde_json::{Value, json};
use uuid::Uuid;

use crate::catalog_support::{NewBook, User};
use crate::support::TestApp;

/// The spec's words for a text over 500 characters.
pub const TOO_LONG: &str = "Input exceeds 500 characters limit";

pub fn new_conversation() -> String {
    Uuid::new_v4().to_string()
}

impl TestApp {
    /// One turn of `conversation` as `who` says `text`.
    pub async fn say(&self, who: &User, conversation: &str, text: &str) -> (u16, Value) {
        self.post(
            "/api/chat",
            json!({"current_input": text, "conversation_id": conversation, "uid": who.id}),
            Some(&who.token),
        )
        .await
    }

    /// A turn that must succeed: its `data`.
    pub async fn turn(&self, who: &User, conversation: &str, text: &str) -> Value {
        let (s, body) = self.say(who, conversation, text).await;
        assert_eq!(s, 200, "{text}: {body}");
        body["data"].clone()
    }

    /// The books for `query` in `conversation`: its `data`, which must be a list.
    pub async fn recommend(
        &self,
        who: &User,
        conversation: &str,
        query: &str,
        limit: u32,
    ) -> Vec<Value> {
        let (s, body) = self
            .post(
                "/api/recbooks",
                json!({"conversation_id": conversation, "uid": who.id, "query": query, "limit": limit}),
                Some(&who.token),
            )
            .await;
        assert_eq!(s, 200, "{query}: {body}");
        body["data"]
            .as_array()
            .expect("a plain list of books")
            .clone()
    }
}

pub fn ids_of(books: &[Value]) -> Vec<String> {
    books
        .iter()
        .map(|b| b["book_id"].as_str().unwrap().to_owned())
        .collect()
}

/// A message as the contract shapes it, of `kind`, saying `content` when given.
pub fn assert_message(m: &Value, kind: &str, content: Option<&str>) {
    assert!(
        Uuid::parse_str(m["id"].as_str().unwrap_or_default()).is_ok(),
        "{m}"
    );
    assert_eq!(m["type"], kind, "{m}");
    assert!(!m["content"].as_str().unwrap().is_empty(), "{m}");
    if let Some(c) = content {
        assert_eq!(m["content"], c, "{m}");
    }
    let at = m["timestamp"].as_str().unwrap();
    assert!(chrono::DateTime::parse_from_rfc3339(at).is_ok(), "{m}");
    assert!(m["books"].is_array(), "{m}");
}

/// Every field of a book as the other lists show it (a search hit without its search
/// scores), and how well it fits and why.
pub fn assert_rec_book(book: &Value, list_fields: &HashSet<String>) {
    let fields: HashSet<String> = book.as_object().unwrap().keys().cloned().collect();
    let mut expected = list_fields.clone();
    expected.extend(["match_percentage".to_owned(), "reason".to_owned()]);
    assert_eq!(fields, expected, "{book}");
    let fit = book["match_percentage"].as_u64().unwrap();
    assert!(fit <= 100, "{book}");
    let reason = book["reason"].as_str().unwrap();
    assert!(
        !reason.trim().is_empty() && !reason.contains('\n'),
        "{book}"
    );
    assert_eq!(book["id"], book["book_id"], "{book}");
}

/// Cosy mysteries in the shop: six under $5 and three dearer ones, by one writer, all set
/// in a village no other test's books name.
pub struct Shelf {
    pub village: String,
    pub cheap: HashSet<String>,
    pub dear: HashSet<String>,
}

impl Shelf {
    pub fn all(&self) -> HashSet<String> {
        self.cheap.union(&self.dear).cloned().collect()
    }
}

pub async fn cosy_shelf(app: &TestApp) -> Shelf {
    let village = format!("Wren{}", &Uuid::new_v4().simple().to_string()[..8]);
    let writer = app.writer().await;
    let mut cheap = HashSet::new();
    let mut dear = HashSet::new();
    let prices = [199, 249, 299, 349, 399, 449, 799, 1099, 1299];
    for (n, price_cents) in prices.into_iter().enumerate() {
        let book = app
            .create_book(
                &writer,
                NewBook {
                    title: format!("The Teashop Mystery of {village} {}", n + 1),
                    genre: "Mystery".into(),
                    tags: vec![
                        "cosy".into(),
                        "village".into(),
                        "friendship".into(),
                        "heartwarming".into(),
                    ],
                    price_cents,
                    chapters: 3,
                    ..NewBook::default()
                },
            )
            .await;
        if price_cents < 500 {
            cheap.insert(book.book_id);
        } else {
            dear.insert(book.book_id);
        }
    }
    Shelf {
        village,
        cheap,
        dear,
    }
}

/// Waits (up to a minute: under a full test run every service shares two cores) until
/// Quinn, which learns the books from catalog's events, recommends every book of `shelf`
/// for its village's name; returns those recommendations.
///
/// Only this shop's books come back: every test's chat service follows the one broker's
/// book events, and checks its picks with its own catalog.
pub async fn learnt(app: &TestApp, reader: &User, shelf: &Shelf) -> Vec<Value> {
    let ours = shelf.all();
    let query = format!("mysteries in {}", shelf.village);
    for _ in 0..120 {
        let found = app.recommend(reader, &new_conversation(), &query, 20).await;
        let ids: HashSet<String> = ids_of(&found).into_iter().collect();
        if ids == ours {
            return found;
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    panic!("Quinn did not recommend the new books within a minute");
}
