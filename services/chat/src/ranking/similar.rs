//! "More like this": finding the book a reader names ("books like The Salt Witch", said
//! loosely: "like salt witch", "like the clockmakers alibi") among the index's titles, and
//! how alike two books are. Without vectors likeness is the genre (0.35), a shared author
//! (0.25) and the overlap of what they are about, their tags' and short summaries' words
//! (0.4); with both vectors it is the mean of that and their scaled cosine. A children's
//! book is half as alike to one that is not (and the other way round), and
//! so is one of a very different length when both lengths are known.

use super::index::{Entry, Index};
use super::semantic;
use super::tokens::{is_stop, words};

/// The share of a title's words a name must have to resolve to it.
const RESOLVE_SHARE: f32 = 0.6;

/// The id of the indexed book whose title `name` names: the same words in full, else the
/// title sharing the largest share of words with it (at least [`RESOLVE_SHARE`] of both);
/// ties go to the smaller id.
pub(crate) fn resolve<'a>(index: &'a Index, name: &str) -> Option<&'a str> {
    let wanted: Vec<u32> = {
        let mut ids: Vec<u32> = words(name)
            .iter()
            .filter_map(|w| index.vocabulary.id(w))
            .collect();
        ids.sort_unstable();
        ids.dedup();
        ids
    };
    // Words no title could have (stop words) do not count; unknown words do.
    let said = words(name).iter().filter(|w| !is_stop(w)).count();
    if wanted.is_empty() {
        return None;
    }
    let mut best: Option<(f32, &str)> = None;
    for (id, entry) in &index.books {
        let title = &entry.features.title_words;
        if title.is_empty() {
            continue;
        }
        let shared = wanted
            .iter()
            .filter(|w| title.binary_search(w).is_ok())
            .count() as f32;
        let of_name = shared / said.max(1) as f32;
        let of_title = shared / title.len() as f32;
        let share = of_name.min(of_title);
        if share < RESOLVE_SHARE {
            continue;
        }
        let better = match best {
            None => true,
            Some((s, b)) => share > s || (share == s && id.as_str() < b),
        };
        if better {
            best = Some((share, id.as_str()));
        }
    }
    best.map(|(_, id)| id)
}

/// How much less alike a book for another audience, or of a very different length, is.
const OTHER_AUDIENCE: f32 = 0.5;
/// Lengths more than this many times apart are very different.
const LENGTH_RATIO: u32 = 3;
/// The most shared tags the reason names.
const REASON_TAGS: usize = 2;

/// What two books share, for the reason line.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Shared {
    Author,
    Genre,
    /// A tag of the book that the source also has.
    Tag(String),
}

/// How alike `book` is to `source` (0-1).
pub(crate) fn likeness(source: &Entry, book: &Entry) -> f32 {
    let (a, b) = (&source.features, &book.features);
    let genre = if !a.genre.is_empty() && a.genre == b.genre {
        0.35
    } else {
        0.0
    };
    let author = if same_author(source, book) { 0.25 } else { 0.0 };
    let about = overlap(&a.about_words, &b.about_words);
    let meta = genre + author + 0.4 * about;
    let alike = match (&source.vector, &book.vector) {
        (Some(x), Some(y)) => 0.5 * meta + 0.5 * semantic::scaled(semantic::dot(x, y)),
        _ => meta,
    };
    let other_audience = a.children != b.children;
    let (p, q) = (source.doc.pages, book.doc.pages);
    let other_length = p > 0 && q > 0 && (p > q * LENGTH_RATIO || q > p * LENGTH_RATIO);
    if other_audience || other_length {
        alike * OTHER_AUDIENCE
    } else {
        alike
    }
}

/// What `book` shares with `source`, the plainest first: the author, the genre, a few tags
/// (empty when it shares none of them).
pub(crate) fn shared(source: &Entry, book: &Entry) -> Vec<Shared> {
    let mut shared = Vec::new();
    if same_author(source, book) {
        shared.push(Shared::Author);
    }
    if !book.features.genre.is_empty() && source.features.genre == book.features.genre {
        shared.push(Shared::Genre);
    }
    let tags = book.features.tags.iter();
    shared.extend(
        tags.filter(|t| source.features.tags.contains(t))
            .take(REASON_TAGS)
            .map(|t| Shared::Tag(t.clone())),
    );
    shared
}

fn same_author(a: &Entry, b: &Entry) -> bool {
    let names = |e: &Entry| -> Vec<String> {
        let mut names: Vec<String> = e
            .doc
            .authors
            .iter()
            .map(|n| n.trim().to_lowercase())
            .collect();
        if names.is_empty() && !e.doc.author.trim().is_empty() {
            names.push(e.doc.author.trim().to_lowercase());
        }
        names
    };
    let theirs = names(b);
    names(a).iter().any(|n| theirs.contains(n))
}

/// The overlap of two sorted word sets: shared / the geometric mean of their sizes,
/// doubled and capped at 1 (two summaries rarely share more than half their words).
fn overlap(a: &[u32], b: &[u32]) -> f32 {
    if a.is_empty() || b.is_empty() {
        return 0.0;
    }
    let (mut i, mut j, mut shared) = (0, 0, 0usize);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                shared += 1;
                i += 1;
                j += 1;
            }
        }
    }
    (2.0 * shared as f32 / ((a.len() * b.len()) as f32).sqrt()).min(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ranking::BookDoc;

    fn index() -> Index {
        let mut index = Index::new();
        for (id, title, author, genre, tags) in [
            (
                "1",
                "The Salt Witch",
                "Morwenna Hale",
                "Fantasy",
                "witches, sea, magic",
            ),
            (
                "2",
                "Ember and the Iron Crown",
                "Morwenna Hale",
                "Fantasy",
                "dragons, quest",
            ),
            (
                "3",
                "Where the Rivers Sing",
                "Ilse Moreau",
                "Fantasy",
                "music, journey",
            ),
            (
                "4",
                "Harbour Lights",
                "Wren Castellano",
                "Poetry",
                "sea, coast",
            ),
            (
                "5",
                "The Clockmaker's Alibi",
                "Margery Pell",
                "Mystery",
                "clocks",
            ),
        ] {
            index.upsert(BookDoc {
                book_id: id.into(),
                title: title.into(),
                author: author.into(),
                authors: vec![author.into()],
                genre: genre.into(),
                tags: tags.split(", ").map(str::to_owned).collect(),
                ..BookDoc::default()
            });
        }
        index
    }

    #[test]
    fn a_title_resolves_when_said_loosely_and_not_when_only_half_said() {
        let index = index();
        assert_eq!(resolve(&index, "The Salt Witch"), Some("1"));
        assert_eq!(resolve(&index, "salt witch"), Some("1"));
        assert_eq!(resolve(&index, "the clockmakers alibi"), Some("5"));
        assert_eq!(resolve(&index, "Ember"), None);
        assert_eq!(resolve(&index, "The Hobbit"), None);
        assert_eq!(resolve(&index, "The Salt Hobbit"), None);
        assert_eq!(resolve(&index, ""), None);
    }

    #[test]
    fn the_same_author_and_genre_are_more_alike_than_a_shared_tag() {
        let index = index();
        let book = |id: &str| index.books.get(id).unwrap();
        let witch = book("1");
        assert!(likeness(witch, book("2")) > likeness(witch, book("3")));
        assert!(likeness(witch, book("3")) > likeness(witch, book("4")));
        assert!(likeness(witch, book("4")) > likeness(witch, book("5")));
        assert_eq!(shared(witch, book("2")), [Shared::Author, Shared::Genre]);
        assert_eq!(shared(witch, book("3")), [Shared::Genre]);
        assert_eq!(shared(witch, book("4")), [Shared::Tag("sea".into())]);
        assert_eq!(shared(witch, book("5")), []);
    }
}
