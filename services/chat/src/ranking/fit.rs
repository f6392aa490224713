//! How much of a request one book meets. Each part of the request has a weight (what
//! was asked) and the book meets a share of it (what was met):
//!
//! | part                          | weight        | met when                                   |
//! |-------------------------------|---------------|--------------------------------------------|
//! | genres (any one of them)      | 3             | its genre (1), in its tags (0.5) or summary (0.3) |
//! | moods (their mean)            | 3             | genre of the mood and words saying it      |
//! | each topic word               | 2 × rarity    | title, tags, genre (1), author or short summary (0.8), long summary (0.5) |
//! | author                        | 4             | every word of the name (1), the last (0.7) |
//! | title                         | 4             | share of its words in the title            |
//! | "like this book"              | 4             | likeness to that book                      |
//! | semantic (with vectors)       | 3             | cosine to the query, scaled                |
//! | price, pages, audience, new   | 1 each        | kept by the constraints (pages unknown 0.5), published in the last 90 days (1) or year (0.5) |
//!
//! The match percentage is met / asked. A genre asked for must be the book's genre or one
//! of its tags, unless the rest of the subject (moods, topic words, author, title, "like
//! this book") is met to at least [`RELEVANCE_FLOOR`] of what it asked (of at most
//! [`FLOOR_OF_AT_MOST`] of it, for a long description). A book below is not shown at all,
//! so "fantasy under $2" shows fewer books rather than a cheap one that only says
//! "fantasy" in its summary. The score adds small priors (sales, the reader's
//! genres, the assessment score, catalog's search rank) and subtracts the cue words of
//! moods the reader does not want.

use super::index::{Entry, Index};
use super::query::{Query, cue_strength};
use super::semantic;
use super::similar;
use super::tokens::{IN_AUTHOR, IN_GENRE, IN_LONG, IN_SHORT, IN_TAGS, IN_TITLE};
use super::{Reader, moods};

const W_GENRE: f32 = 3.0;
const W_MOOD: f32 = 3.0;
const W_KEYWORD: f32 = 2.0;
const W_AUTHOR: f32 = 4.0;
const W_TITLE: f32 = 4.0;
const W_LIKE: f32 = 4.0;
const W_SEMANTIC: f32 = 3.0;
const W_CONSTRAINT: f32 = 1.0;

/// The most the priors add: popularity, the reader's genres, the assessment score.
const W_POPULAR: f32 = 0.4;
const W_HISTORY: f32 = 0.4;
const W_ASSESSMENT: f32 = 0.2;
const W_SEARCH: f32 = 0.5;
/// The least share of the rest of the subject a book of another genre meets.
pub(crate) const RELEVANCE_FLOOR: f32 = 0.34;
/// A long description asks for more than any one book meets: the floor is of at most this
/// much of it (three parts' worth: a genre and a few topic words pass).
const FLOOR_OF_AT_MOST: f32 = 9.0;
/// A genre asked for is met by the book's genre (1) or tags (0.5), not its summary alone.
const GENRE_FLOOR: f32 = 0.5;

/// How one book meets the request.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Fit {
    pub asked: f32,
    pub met: f32,
    /// What of `asked` and `met` the subject other than the genre is (no constraint, no
    /// vector).
    pub other_asked: f32,
    pub other_met: f32,
    pub genre_asked: bool,
    /// 0-1 each.
    pub genre: f32,
    pub mood: f32,
    /// Bit i: keyword i was met at least half-way (the first 32).
    pub keywords: u32,
    /// Bit i: keyword i is a word of the book's author's name ("more from Pell").
    pub keywords_name_author: u32,
    pub author: f32,
    pub title: f32,
    pub like: f32,
    pub semantic: Option<f32>,
    pub recent: f32,
    /// Bit i: mood i was met at least half-way.
    pub moods_met: u32,
    /// Whether anything of the book's words or vector matched the request.
    pub matched: bool,
}

impl Fit {
    /// Counts one part of the request: `weight` asked, `value` (0-1) of it met.
    fn add(&mut self, weight: f32, value: f32) {
        self.asked += weight;
        self.met += weight * value;
    }

    /// Counts one part of the subject other than the genre.
    fn add_subject(&mut self, weight: f32, value: f32) {
        self.add(weight, value);
        self.other_asked += weight;
        self.other_met += weight * value;
    }

    /// Whether the book meets enough of the subject to be shown: the genre asked for, or
    /// enough of the rest.
    pub fn relevant(&self) -> bool {
        let others = self.other_asked > 0.0
            && self.other_met >= RELEVANCE_FLOOR * self.other_asked.min(FLOOR_OF_AT_MOST);
        !self.genre_asked || self.genre >= GENRE_FLOOR || others
    }

    /// 0-100: how much of what was asked the book meets.
    pub fn percentage(&self) -> u32 {
        if self.asked <= 0.0 {
            return 0;
        }
        (100.0 * self.met / self.asked).round().clamp(0.0, 100.0) as u32
    }
}

/// How `entry` meets `query`; `pages` is the page bounds' fit the constraints computed,
/// `cosine` the book's cosine to the query vector when both have one.
pub(crate) fn fit(
    query: &Query<'_>,
    entry: &Entry,
    like: Option<&Entry>,
    pages: Option<f32>,
    cosine: Option<f32>,
) -> Fit {
    let mut f = Fit::default();
    let features = &entry.features;

    if !query.genres.is_empty() {
        f.genre = query
            .genres
            .iter()
            .map(|(name, words)| {
                if features.genre == *name {
                    1.0
                } else if all_in(entry, words, IN_TAGS) {
                    0.5
                } else if all_in(entry, words, IN_SHORT | IN_LONG) {
                    0.3
                } else {
                    0.0
                }
            })
            .fold(0.0, f32::max);
        f.add(W_GENRE, f.genre);
        f.genre_asked = true;
    }
    if !query.moods.is_empty() {
        let mut sum = 0.0;
        for (i, m) in query.moods.iter().enumerate() {
            let said: f32 = m.words.iter().map(|cue| cue_strength(entry, cue)).sum();
            let value = moods::fit(m.cues.genre_fit(&features.genre), (0.5 * said).min(1.0));
            if value >= 0.5 && i < 32 {
                f.moods_met |= 1 << i;
            }
            sum += value;
        }
        f.mood = sum / query.moods.len() as f32;
        f.add_subject(W_MOOD, f.mood);
    }
    let mut keywords_met = 0.0;
    for (i, k) in query.keywords.iter().enumerate() {
        let value = keyword_value(entry, &k.words);
        if value >= 0.5 && i < 32 {
            f.keywords |= 1 << i;
            if all_in(entry, &k.words, IN_AUTHOR) {
                f.keywords_name_author |= 1 << i;
            }
        }
        keywords_met += value;
        f.add_subject(W_KEYWORD * k.rarity, value);
    }
    if !query.author.is_empty() {
        f.author = if all_in(entry, &query.author, IN_AUTHOR) {
            1.0
        } else if query
            .author
            .last()
            .is_some_and(|w| w.is_some_and(|id| features.places(id) & IN_AUTHOR != 0))
        {
            0.7
        } else {
            0.0
        };
        f.add_subject(W_AUTHOR, f.author);
    }
    if !query.title.is_empty() {
        let wanted: Vec<u32> = query.title.iter().flatten().copied().collect();
        let found = wanted
            .iter()
            .filter(|id| features.places(**id) & IN_TITLE != 0)
            .count();
        let share = found as f32 / query.title.len() as f32;
        f.title = if share >= 1.0 {
            1.0
        } else {
            0.8 * share * share
        };
        f.add_subject(W_TITLE, f.title);
    }
    if let Some(source) = like {
        f.like = similar::likeness(source, entry);
        f.add_subject(W_LIKE, f.like);
    }
    if let Some(cos) = cosine {
        let s = semantic::scaled(cos);
        f.semantic = Some(s);
        f.add(W_SEMANTIC, s);
    }
    let r = query.request;
    if r.min_price_cents.is_some() || r.max_price_cents.is_some() {
        f.add(W_CONSTRAINT, 1.0);
    }
    if let Some(pages) = pages {
        f.add(W_CONSTRAINT, pages);
    }
    if r.audience.is_some() {
        f.add(W_CONSTRAINT, 1.0);
    }
    if r.recent {
        let age = query
            .today
            .zip(features.published_day)
            .map(|(today, day)| today - day);
        f.recent = match age {
            Some(days) if days <= 90 => 1.0,
            Some(days) if days <= 365 => 0.5,
            _ => 0.0,
        };
        f.add(W_CONSTRAINT, f.recent);
    }
    f.matched = f.genre > 0.0
        || f.mood > 0.0
        || keywords_met > 0.0
        || f.author > 0.0
        || f.title > 0.0
        || f.like > 0.2
        || cosine.is_some_and(|c| c >= semantic::CANDIDATE);
    f
}

/// The ranking score: what the book meets, plus the priors, less the unwanted cues.
pub(crate) fn score(
    query: &Query<'_>,
    index: &Index,
    entry: &Entry,
    fit: &Fit,
    reader: &Reader<'_>,
    search: f32,
) -> f32 {
    let popular = if index.top_sales == 0 {
        0.0
    } else {
        let sales = index.sales(&entry.doc.book_id);
        (1.0 + sales as f32).ln() / (1.0 + index.top_sales as f32).ln()
    };
    let read_total: u32 = reader.genres_read.values().sum();
    let history = if read_total == 0 {
        0.0
    } else {
        let of_genre = reader
            .genres_read
            .iter()
            .filter(|(g, _)| g.eq_ignore_ascii_case(&entry.doc.genre))
            .map(|(_, n)| *n)
            .sum::<u32>();
        of_genre as f32 / read_total as f32
    };
    let assessment = (entry.doc.assessment_score as f32 / 10.0).clamp(0.0, 1.0);
    let unwanted: f32 = query
        .unwanted
        .iter()
        .map(|cue| cue_strength(entry, cue))
        .sum::<f32>()
        .min(2.0);
    fit.met
        + W_POPULAR * popular
        + W_HISTORY * history
        + W_ASSESSMENT * assessment
        + W_SEARCH * search
        - unwanted
}

/// How well a book has a topic word (all of its folded words, each at its best place).
fn keyword_value(entry: &Entry, words: &[Option<u32>]) -> f32 {
    let mut value = 1.0f32;
    for w in words {
        let at = w.map_or(0, |id| entry.features.places(id));
        let v = if at & (IN_TITLE | IN_TAGS | IN_GENRE) != 0 {
            1.0
        } else if at & (IN_AUTHOR | IN_SHORT) != 0 {
            0.8
        } else if at & IN_LONG != 0 {
            0.5
        } else {
            0.0
        };
        value = value.min(v);
    }
    value
}

/// Whether every one of `words` occurs in one of the places `at`.
fn all_in(entry: &Entry, words: &[Option<u32>], at: u8) -> bool {
    !words.is_empty()
        && words
            .iter()
            .all(|w| w.is_some_and(|id| entry.features.places(id) & at != 0))
}
