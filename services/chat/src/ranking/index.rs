//! The service's index of listed books: each book's snapshot, the words the ranking
//! matches (computed once here, so a request costs no tokenising), its vector when the
//! model embedded it, and sales counted from `trade.completed`.

use std::collections::HashMap;

use super::tokens::{Features, Vocabulary};
use super::{BookDoc, embedding_text};

/// One indexed book.
#[derive(Debug)]
pub(crate) struct Entry {
    pub doc: BookDoc,
    pub features: Features,
    pub vector: Option<Vec<f32>>,
}

/// The service's index of listed books.
#[derive(Debug, Default)]
pub struct Index {
    pub(crate) books: HashMap<String, Entry>,
    pub(crate) vocabulary: Vocabulary,
    sales: HashMap<String, u32>,
    vectors: usize,
    /// The most sales of any one book: popularity is scaled against it.
    pub(crate) top_sales: u32,
}

impl Index {
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds or replaces a book; false (and nothing changes) when `doc` is no newer than
    /// the snapshot held (every replica reads each event, and a restarted one reads again
    /// what its tables already gave it). A book whose text to embed changed loses its
    /// vector.
    pub fn upsert(&mut self, doc: BookDoc) -> bool {
        if self
            .books
            .get(&doc.book_id)
            .is_some_and(|held| held.doc.version >= doc.version)
        {
            return false;
        }
        let mut vector = None;
        if let Some(old) = self.books.remove(&doc.book_id) {
            self.forget(&old);
            if embedding_text(&old.doc) == embedding_text(&doc) {
                vector = old.vector;
            }
        }
        let features = Features::of(&doc, &mut self.vocabulary);
        self.vocabulary.count(&features, true);
        self.vectors += usize::from(vector.is_some());
        self.books.insert(
            doc.book_id.clone(),
            Entry {
                doc,
                features,
                vector,
            },
        );
        true
    }

    fn forget(&mut self, old: &Entry) {
        self.vocabulary.count(&old.features, false);
        self.vectors -= usize::from(old.vector.is_some());
    }

    /// Removes a book that left the shop (unless a newer snapshot is held).
    pub fn remove(&mut self, book_id: &str, version: i64) -> bool {
        match self.books.get(book_id) {
            Some(held) if held.doc.version > version => false,
            _ => {
                if let Some(old) = self.books.remove(book_id) {
                    self.forget(&old);
                }
                true
            }
        }
    }

    pub fn get(&self, book_id: &str) -> Option<&BookDoc> {
        self.books.get(book_id).map(|e| &e.doc)
    }

    pub fn len(&self) -> usize {
        self.books.len()
    }

    pub fn is_empty(&self) -> bool {
        self.books.is_empty()
    }

    /// Sets the vector of a book's [`embedding_text`].
    pub fn set_vector(&mut self, book_id: &str, vector: Vec<f32>) {
        if let Some(entry) = self.books.get_mut(book_id) {
            if entry.vector.is_none() {
                self.vectors += 1;
            }
            entry.vector = Some(vector);
        }
    }

    /// How many books have a vector.
    pub fn vector_count(&self) -> usize {
        self.vectors
    }

    /// Up to `limit` books without a vector, with the text to embed, newest (highest id) first.
    pub fn missing_vectors(&self, limit: usize) -> Vec<(String, String)> {
        let mut missing: Vec<(&String, &Entry)> = self
            .books
            .iter()
            .filter(|(_, e)| e.vector.is_none())
            .collect();
        // Newest first (ids are UUIDv7): a book just published gets its vector before a
        // backlog (a fresh deployment's, or a broker shared by several shops) is worked off.
        missing.sort_unstable_by(|a, b| b.0.cmp(a.0));
        missing
            .into_iter()
            .take(limit)
            .map(|(id, e)| (id.clone(), embedding_text(&e.doc)))
            .collect()
    }

    /// Sets a book's sales (kept even while the book is not indexed) to `count`, the total the tables hold: applying it again, or
    /// on every replica, counts nothing twice. Counts only grow, so a smaller one (read
    /// before another replica's trade committed) is ignored.
    pub fn set_sales(&mut self, book_id: &str, count: u32) {
        let sales = self.sales.entry(book_id.to_owned()).or_default();
        *sales = (*sales).max(count);
        self.top_sales = self.top_sales.max(*sales);
    }

    pub fn sales(&self, book_id: &str) -> u32 {
        self.sales.get(book_id).copied().unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(id: &str, version: i64, summary: &str) -> BookDoc {
        BookDoc {
            book_id: id.into(),
            title: format!("Book {id}"),
            genre: "Mystery".into(),
            short_summary: summary.into(),
            version,
            ..BookDoc::default()
        }
    }

    #[test]
    fn an_older_snapshot_never_replaces_a_newer_one() {
        let mut index = Index::new();
        assert!(index.upsert(doc("a", 2, "snow")));
        assert!(!index.upsert(doc("a", 1, "rain")));
        assert_eq!(
            index.get("a").map(|d| d.short_summary.as_str()),
            Some("snow")
        );
        assert!(!index.remove("a", 1));
        assert!(index.remove("a", 2));
        assert!(index.is_empty());
    }

    #[test]
    fn a_vector_is_kept_until_the_text_it_embeds_changes() {
        let mut index = Index::new();
        index.upsert(doc("a", 1, "snow"));
        index.upsert(doc("b", 1, "rain"));
        index.set_vector("a", vec![1.0, 0.0]);
        index.set_vector("gone", vec![1.0, 0.0]);
        assert_eq!(index.vector_count(), 1);
        let mut same = doc("a", 2, "snow");
        same.price_cents = 99;
        index.upsert(same);
        assert_eq!(index.vector_count(), 1);
        index.upsert(doc("a", 3, "sleet"));
        assert_eq!(index.vector_count(), 0);
        let missing = index.missing_vectors(5);
        let ids: Vec<&str> = missing.iter().map(|(id, _)| id.as_str()).collect();
        assert_eq!(ids, ["b", "a"], "newest first");
        assert!(missing[1].1.contains("sleet"));
    }

    #[test]
    fn word_counts_follow_replacements_and_removals() {
        let mut index = Index::new();
        index.upsert(doc("a", 1, "snow"));
        index.upsert(doc("b", 1, "snow"));
        let snow = index.vocabulary.id("snow").unwrap();
        assert_eq!(index.vocabulary.books_with(snow), 2);
        index.upsert(doc("a", 2, "rain"));
        assert_eq!(index.vocabulary.books_with(snow), 1);
        index.remove("b", 1);
        assert_eq!(index.vocabulary.books_with(snow), 0);
    }

    #[test]
    fn sales_are_kept_before_and_after_the_book_is_indexed_and_never_counted_twice() {
        let mut index = Index::new();
        index.set_sales("a", 2);
        index.upsert(doc("a", 1, "snow"));
        index.set_sales("a", 5);
        // The same total again (another replica's read, a retried batch), or an older one.
        index.set_sales("a", 5);
        index.set_sales("a", 4);
        assert_eq!(index.sales("a"), 5);
        assert_eq!(index.top_sales, 5);
    }

    #[test]
    fn a_snapshot_seen_again_changes_nothing() {
        let mut index = Index::new();
        assert!(index.upsert(doc("a", 1, "snow")));
        assert!(!index.upsert(doc("a", 1, "snow")), "the same version again");
        assert!(!index.upsert(doc("a", 0, "rain")), "an older version");
        assert!(index.upsert(doc("a", 2, "rain")));
        assert_eq!(index.get("a").map(|d| d.version), Some(2));
    }
}
