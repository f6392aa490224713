//! Books for the tests.
#![allow(dead_code)]

use quire_book_search::{BookDoc, SearchIndex, SearchQuery};
use uuid::Uuid;

pub fn book(title: &str, author: &str, genre: &str, tags: &[&str], price_cents: i64) -> BookDoc {
    BookDoc {
        book_id: Uuid::new_v4(),
        title: title.into(),
        author: author.into(),
        short_summary: String::new(),
        long_summary: String::new(),
        tags: tags.iter().map(|t| (*t).to_string()).collect(),
        genre: genre.into(),
        price_cents,
        published_at: Some(1_700_000_000),
        assessment_score: 4.0,
        listed: true,
        version: 1,
    }
}

pub fn text(text: &str) -> SearchQuery {
    SearchQuery {
        text: text.into(),
        limit: 10,
        ..SearchQuery::default()
    }
}

pub fn classics() -> Vec<BookDoc> {
    let mut pride = book(
        "Pride and Prejudice",
        "Jane Austen",
        "Fiction",
        &["classic", "romance"],
        499,
    );
    pride.short_summary = "Elizabeth Bennet meets the proud Mr Darcy".into();
    let mut moby = book(
        "Moby-Dick",
        "Herman Melville",
        "Fiction",
        &["classic", "sea"],
        899,
    );
    moby.long_summary = "The voyage of the whaling ship Pequod after the white whale".into();
    vec![
        pride,
        moby,
        book(
            "Sense and Sensibility",
            "Jane Austen",
            "Fiction",
            &["classic"],
            399,
        ),
        book(
            "A Brief History of Time",
            "Stephen Hawking",
            "Science",
            &["physics"],
            1299,
        ),
        book(
            "The Origin of Species",
            "Charles Darwin",
            "Science",
            &["biology", "classic"],
            0,
        ),
        book(
            "Prime Numbers for Everyone",
            "Ada Count",
            "Mathematics",
            &["numbers"],
            2500,
        ),
    ]
}

pub fn index_with(docs: Vec<BookDoc>) -> SearchIndex {
    let index = SearchIndex::open(None).unwrap();
    index.apply_many(docs).unwrap();
    index.commit().unwrap();
    index
}

pub fn titles(index: &SearchIndex, docs: &[BookDoc], q: &SearchQuery) -> Vec<String> {
    index
        .search(q)
        .unwrap()
        .hits
        .iter()
        .map(|h| {
            docs.iter()
                .find(|d| d.book_id == h.book_id)
                .map(|d| d.title.clone())
                .unwrap_or_default()
        })
        .collect()
}

/// A fresh directory under the system temp dir, removed on drop.
pub struct TempDir(pub std::path::PathBuf);

impl TempDir {
    pub fn new() -> Self {
        Self(std::env::temp_dir().join(format!("quire-book-search-{}", Uuid::new_v4())))
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
