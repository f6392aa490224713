//! What a reader is asking for, as the search and the ranking use it, and the books a
//! conversation last showed (what follow-ups refer to).

use serde::{Deserialize, Serialize};

/// How long the reader wants the book to be.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Length {
    Short,
    Long,
}

/// Who the book is for, when the reader says so.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Audience {
    Children,
    YoungAdult,
}

impl Audience {
    /// The taxonomy genre of books for this audience.
    pub fn genre(self) -> &'static str {
        match self {
            Audience::Children => "Children",
            Audience::YoungAdult => "Young Adult",
        }
    }
}

/// A structured request. Every list is in the order the reader said things, without
/// duplicates; genres are names of the platform's taxonomy, moods ids of the mood table.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Request {
    /// Lowercase topic words ("winter", "dragons", "venice").
    pub keywords: Vec<String>,
    pub genres: Vec<String>,
    pub moods: Vec<String>,
    pub author: Option<String>,
    pub title: Option<String>,
    /// "books like X": the title (or name) the reader wants more of.
    pub like_title: Option<String>,
    /// "more like the second": the id of the shown book to start from.
    pub like_book: Option<String>,
    pub min_price_cents: Option<u32>,
    /// `Some(0)` asks for free books.
    pub max_price_cents: Option<u32>,
    pub length: Option<Length>,
    pub max_pages: Option<u32>,
    pub min_pages: Option<u32>,
    /// New or recent books first.
    pub recent: bool,
    pub audience: Option<Audience>,
    pub exclude_genres: Vec<String>,
    pub exclude_moods: Vec<String>,
    pub exclude_keywords: Vec<String>,
    /// Ids of books the reader turned down ("not that one").
    pub exclude_books: Vec<String>,
}

/// A book the conversation showed, in the order shown (what "the second" refers to).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Shown {
    pub id: String,
    pub title: String,
    pub price_cents: Option<u32>,
    pub pages: Option<u32>,
}

impl Request {
    /// Whether it names something to look for: a topic, a mood, a genre, an author, a
    /// title, a book to start from, an audience, free or new books. A price or a length
    /// alone is not enough: the reader is asked what kind of book.
    pub fn has_subject(&self) -> bool {
        !self.keywords.is_empty()
            || !self.genres.is_empty()
            || !self.moods.is_empty()
            || self.author.is_some()
            || self.title.is_some()
            || self.like_title.is_some()
            || self.like_book.is_some()
            || self.audience.is_some()
            || self.max_price_cents == Some(0)
            || self.recent
    }

    /// Whether it says anything at all, subject or constraint.
    pub fn is_empty(&self) -> bool {
        *self == Request::default()
    }

    /// The words to give catalog's full-text search for candidates: the title, the
    /// author, the book to start from, the topic words and the genres; the moods' keywords
    /// only when there are no other words ("something cosy"). Constraints are for the
    /// search's filters and the ranking, not the text match; free or new books alone give
    /// an empty string (every book, filtered).
    pub fn query_string(&self) -> String {
        let mut parts: Vec<String> = Vec::new();
        parts.extend(self.title.iter().cloned());
        parts.extend(self.author.iter().cloned());
        parts.extend(self.like_title.iter().cloned());
        parts.extend(self.keywords.iter().cloned());
        parts.extend(self.genres.iter().map(|g| g.to_lowercase()));
        if let Some(audience) = self.audience {
            parts.push(audience.genre().to_lowercase());
        }
        if parts.is_empty() {
            let moods = self.moods.iter().filter_map(|id| super::moods::mood(id));
            parts.extend(moods.flat_map(|m| m.keywords.iter().map(|k| k.to_string())));
        }
        parts.join(" ")
    }
}

/// Appends `item` unless it is already there.
pub(crate) fn push_unique(list: &mut Vec<String>, item: &str) {
    if !list.iter().any(|x| x == item) {
        list.push(item.to_string());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_query_string_has_the_text_parts_and_not_the_constraints() {
        let request = Request {
            keywords: vec!["winter".into()],
            genres: vec!["Mystery".into()],
            author: Some("Agatha Christie".into()),
            max_price_cents: Some(500),
            ..Request::default()
        };
        assert_eq!(request.query_string(), "Agatha Christie winter mystery");
    }

    #[test]
    fn a_mood_alone_searches_its_keywords() {
        let cosy = Request {
            moods: vec!["cosy".into()],
            ..Request::default()
        };
        assert_eq!(cosy.query_string(), "cosy heartwarming village friendship");
    }

    #[test]
    fn a_price_alone_is_no_subject_but_free_is() {
        let cheap = Request {
            max_price_cents: Some(500),
            ..Request::default()
        };
        assert!(!cheap.has_subject() && !cheap.is_empty());
        let free = Request {
            max_price_cents: Some(0),
            ..Request::default()
        };
        assert!(free.has_subject());
    }
}
