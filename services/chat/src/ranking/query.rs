//! A request compiled once per call against the index's words: the folded word numbers
//! of its keywords, author, title and excluded topics, the moods with their cue words,
//! the book a "like" names, and how rare each keyword is (a word most books have says
//! little about which book is meant).

use quire_genres::canonical_genre;

use crate::understanding::{Request, moods};

use super::constraints::PageBounds;
use super::index::{Entry, Index};
use super::moods::MoodCues;
use super::similar;
use super::tokens::{IN_AUTHOR, IN_LONG, IN_SHORT, IN_TAGS, IN_TITLE, words};

/// One topic word (or words) of the request.
#[derive(Debug)]
pub(crate) struct Keyword {
    /// As the reader said it, for the reason line.
    pub said: String,
    /// Its folded words; `None` for a word no book has.
    pub words: Vec<Option<u32>>,
    /// 0.5 for a word every book has, up to 1 for a word one book has.
    pub rarity: f32,
    /// A word of the name of a book the index does not have: matched, but no topic to
    /// name in a reason ("a book about keeper's").
    pub of_name: bool,
}

/// A mood of the request with its cue words as folded word numbers (a phrase is all of
/// its words).
#[derive(Debug)]
pub(crate) struct MoodQuery {
    pub cues: MoodCues,
    pub words: Vec<Vec<u32>>,
}

/// What a request asks of each book.
#[derive(Debug)]
pub(crate) struct Query<'a> {
    pub request: &'a Request,
    /// Lowercase genres asked for, and each one's folded words.
    pub genres: Vec<(String, Vec<Option<u32>>)>,
    pub moods: Vec<MoodQuery>,
    pub keywords: Vec<Keyword>,
    pub author: Vec<Option<u32>>,
    pub title: Vec<Option<u32>>,
    /// The book "more like this" starts from: its id in the index.
    pub like: Option<&'a str>,
    /// The words of a "like" that names no indexed book ("something like Moby-Dick").
    pub named: Vec<Option<u32>>,
    /// Whether that unknown book is all the request asks for: then only its sequels and
    /// its author's books (the words in a title or an author) can answer, never a book
    /// that merely shares a word or a vector with its name.
    pub like_unknown_alone: bool,
    pub excluded_keywords: Vec<Vec<Option<u32>>>,
    /// Cue words of the moods the reader does not want (and that no wanted mood or genre
    /// shares): a book whose text says them is ranked lower.
    pub unwanted: Vec<Vec<u32>>,
    pub pages: PageBounds,
    /// Today as days since 1970, for recent books.
    pub today: Option<i64>,
    /// Whether it asks for anything a book's words can match (else every book that meets
    /// the constraints is a candidate: "free books", "for kids").
    pub has_text: bool,
}

impl<'a> Query<'a> {
    pub fn compile(index: &'a Index, request: &'a Request, today: &str) -> Self {
        let voc = &index.vocabulary;
        let ids =
            |text: &str| -> Vec<Option<u32>> { words(text).iter().map(|w| voc.id(w)).collect() };
        let n = index.len().max(1) as f32;
        let rarity = |words: &[Option<u32>]| -> f32 {
            let df = words
                .iter()
                .map(|w| w.map_or(0, |id| voc.books_with(id)))
                .min()
                .unwrap_or(0)
                .max(1) as f32;
            if n < 2.0 {
                return 1.0;
            }
            0.5 + 0.5 * ((n / df).ln() / n.ln()).clamp(0.0, 1.0)
        };
        let mut keywords: Vec<Keyword> = request
            .keywords
            .iter()
            .map(|k| {
                let words = ids(k);
                Keyword {
                    said: k.clone(),
                    rarity: rarity(&words),
                    words,
                    of_name: false,
                }
            })
            .filter(|k| !k.words.is_empty())
            .collect();

        let like = match (&request.like_book, &request.like_title) {
            (Some(id), _) if index.books.contains_key(id) => Some(id.as_str()),
            (_, Some(title)) => similar::resolve(index, title),
            _ => None,
        };
        // A "like" that names no indexed book is looked for as words (a title or an author).
        let mut named = Vec::new();
        if like.is_none()
            && let Some(title) = &request.like_title
        {
            for w in words(title) {
                let words = vec![voc.id(&w)];
                named.extend(words.iter().copied());
                keywords.push(Keyword {
                    rarity: rarity(&words),
                    said: w,
                    words,
                    of_name: true,
                });
            }
        }

        let moods: Vec<MoodQuery> = request
            .moods
            .iter()
            .filter_map(|id| MoodCues::of(id))
            .map(|cues| MoodQuery {
                words: cue_ids(index, cues.cue_words()),
                cues,
            })
            .collect();
        let wanted: Vec<Vec<u32>> = moods
            .iter()
            .flat_map(|m| m.words.iter().cloned())
            .chain(request.genres.iter().flat_map(|g| {
                let of_genre = moods::MOODS
                    .iter()
                    .filter(|m| m.genres.first().is_some_and(|f| f.eq_ignore_ascii_case(g)));
                cue_ids(index, of_genre.flat_map(|m| m.keywords.iter().copied()))
            }))
            .collect();
        let unwanted: Vec<Vec<u32>> = request
            .exclude_moods
            .iter()
            .filter_map(|id| MoodCues::of(id))
            .flat_map(|cues| cue_ids(index, cues.mood.keywords.iter().copied()))
            .filter(|w| !wanted.contains(w))
            .collect();

        let has_text = !keywords.is_empty()
            || !request.genres.is_empty()
            || !moods.is_empty()
            || request.author.is_some()
            || request.title.is_some()
            || like.is_some();
        let like_unknown_alone = !named.is_empty()
            && request.keywords.is_empty()
            && request.genres.is_empty()
            && request.moods.is_empty()
            && request.author.is_none()
            && request.title.is_none()
            && request.audience.is_none();
        Self {
            request,
            named,
            like_unknown_alone,
            genres: request
                .genres
                .iter()
                .map(|g| (canonical_genre(g).unwrap_or(g).to_lowercase(), ids(g)))
                .collect(),
            moods,
            keywords,
            author: request.author.as_deref().map(ids).unwrap_or_default(),
            title: request.title.as_deref().map(ids).unwrap_or_default(),
            like,
            excluded_keywords: request.exclude_keywords.iter().map(|k| ids(k)).collect(),
            unwanted,
            pages: PageBounds::of(request),
            today: super::tokens::day_number(today),
            has_text,
        }
    }

    /// Whether every word of the unknown book's name is in `entry`'s title or author.
    pub fn named_in(&self, entry: &Entry) -> bool {
        !self.named.is_empty()
            && self.named.iter().all(|w| {
                w.is_some_and(|id| entry.features.places(id) & (IN_TITLE | IN_AUTHOR) != 0)
            })
    }

    /// The book the request starts from ("more like this"), when it names one.
    pub fn like_entry(&self, index: &'a Index) -> Option<&'a Entry> {
        self.like.and_then(|id| index.books.get(id))
    }
}

/// The folded word numbers of each cue that some book has (a cue of a word no book has
/// can match nothing and is left out).
fn cue_ids<'w>(index: &Index, cues: impl Iterator<Item = &'w str>) -> Vec<Vec<u32>> {
    let mut out: Vec<Vec<u32>> = Vec::new();
    for cue in cues {
        let ids: Option<Vec<u32>> = words(cue).iter().map(|w| index.vocabulary.id(w)).collect();
        if let Some(ids) = ids
            && !ids.is_empty()
            && !out.contains(&ids)
        {
            out.push(ids);
        }
    }
    out
}

/// How strongly a book's text says one cue (all of its words): 1 in the title, tags or
/// short summary, 0.5 only in the long summary, else 0.
pub(crate) fn cue_strength(entry: &Entry, cue: &[u32]) -> f32 {
    let mut strength = 1.0f32;
    for id in cue {
        let at = entry.features.places(*id);
        let s = if at & (IN_TITLE | IN_TAGS | IN_SHORT) != 0 {
            1.0
        } else if at & IN_LONG != 0 {
            0.5
        } else {
            0.0
        };
        strength = strength.min(s);
    }
    strength
}
