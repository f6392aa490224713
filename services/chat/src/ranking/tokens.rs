//! Words as the ranking compares them: lowercase, split on anything that is not a letter
//! or a digit, possessives and plurals folded ("dragons" and "dragon", "mysteries" and
//! "mystery", "Ember's" and "ember"), interned as numbers so that matching a request
//! against ten thousand books is a few binary searches per book and no allocation.
//!
//! Each book's words are computed once, when it is indexed ([`Features::of`]), as one
//! sorted list of (word, where it occurs) pairs.

use std::collections::HashMap;

use quire_genres::canonical_genre;

use super::BookDoc;

/// Where in a book a word occurs (bit flags).
pub(crate) const IN_TITLE: u8 = 1;
pub(crate) const IN_AUTHOR: u8 = 2;
pub(crate) const IN_TAGS: u8 = 4;
pub(crate) const IN_GENRE: u8 = 8;
pub(crate) const IN_SHORT: u8 = 16;
pub(crate) const IN_LONG: u8 = 32;

/// Words of blurbs too common to say what a book is about that are no English function
/// words ("long ago", "two sisters", "nobody knows"): left out on top of the platform's
/// stop words (quire-english), sorted for binary search.
const NOT_ABOUT: &[&str] = &["long", "nobody", "two", "way"];

/// Splits `text` into folded words, in order (duplicates kept).
pub(crate) fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '\''))
        .map(|w| w.trim_matches('\''))
        .filter(|w| !w.is_empty())
        .map(|w| fold(&w.to_lowercase()))
        .filter(|w| !w.is_empty())
        .collect()
}

/// Lowercase `word` without a possessive and in the singular, roughly: enough for the
/// words readers and summaries use ("witches", "stories", "boxes", "Ember's").
pub(crate) fn fold(word: &str) -> String {
    let w = word
        .strip_suffix("'s")
        .or_else(|| word.strip_suffix('\''))
        .unwrap_or(word);
    let w: String = w.chars().filter(|c| *c != '\'').collect();
    let n = w.chars().count();
    if n <= 3 {
        return w;
    }
    if let Some(stem) = w.strip_suffix("ies") {
        return format!("{stem}y");
    }
    for end in ["sses", "shes", "ches", "xes", "zes"] {
        if w.ends_with(end) {
            return w[..w.len() - 2].to_owned();
        }
    }
    if w.ends_with('s') && !w.ends_with("ss") && !w.ends_with("us") && !w.ends_with("is") {
        return w[..w.len() - 1].to_owned();
    }
    w
}

/// Whether a folded word says nothing of what a book is about: an English stop word or one
/// of [`NOT_ABOUT`].
pub(crate) fn is_stop(word: &str) -> bool {
    quire_english::is_stop_word(word) || NOT_ABOUT.binary_search(&word).is_ok()
}

/// The index's word numbers, and in how many books each word occurs.
#[derive(Debug, Default)]
pub(crate) struct Vocabulary {
    ids: HashMap<String, u32>,
    books_with: Vec<u32>,
}

impl Vocabulary {
    /// The number of `word` (already folded), adding it when new.
    fn intern(&mut self, word: &str) -> u32 {
        if let Some(id) = self.ids.get(word) {
            return *id;
        }
        let id = u32::try_from(self.books_with.len()).unwrap_or(u32::MAX);
        self.ids.insert(word.to_owned(), id);
        self.books_with.push(0);
        id
    }

    /// The number of `word` (already folded), when any book was ever indexed with it.
    pub(crate) fn id(&self, word: &str) -> Option<u32> {
        self.ids.get(word).copied()
    }

    /// How many indexed books contain the word.
    pub(crate) fn books_with(&self, id: u32) -> u32 {
        self.books_with.get(id as usize).copied().unwrap_or(0)
    }

    pub(crate) fn count(&mut self, features: &Features, added: bool) {
        for (id, _) in &features.words {
            if let Some(n) = self.books_with.get_mut(*id as usize) {
                *n = if added { *n + 1 } else { n.saturating_sub(1) };
            }
        }
    }
}

/// What the ranking needs of one book, computed when it is indexed.
#[derive(Debug, Clone, Default)]
pub(crate) struct Features {
    /// (word, where it occurs), sorted by word, one entry per word.
    pub words: Vec<(u32, u8)>,
    /// Lowercase genre, as the platform's taxonomy names it when it knows it ("Classics"
    /// is "literary fiction"), so that it compares with the genres a request names.
    pub genre: String,
    /// Lowercase display line of the authors (what "one author" means for variety).
    pub author: String,
    /// Lowercase tags as written ("cosy mystery", "young adult").
    pub tags: Vec<String>,
    /// The title's folded words without the stop words, for resolving "books like X".
    pub title_words: Vec<u32>,
    /// Words of the tags and the short summary (stop words left out), for likeness.
    pub about_words: Vec<u32>,
    /// Days since 1970-01-01 of its publication, when known.
    pub published_day: Option<i64>,
    /// For children: the genre Children, or a tag such as "picture book".
    pub children: bool,
    /// For young adults: the genre Young Adult, or a tag such as "young adult", "teen".
    pub young_adult: bool,
    /// Its tags or summary call it short ("novella", "short novel", "quick read").
    pub says_short: bool,
}

/// Tags that put a book in the children's section whatever its genre.
const CHILDREN_TAGS: &[&str] = &[
    "children",
    "children's",
    "picture book",
    "early readers",
    "middle grade",
    "kids",
];
/// Tags that make a book one for young adults whatever its genre.
const YOUNG_ADULT_TAGS: &[&str] = &["young adult", "ya", "teen", "teens", "coming of age"];
/// Words of a tag or summary that say a book is short when its page count is unknown.
const SHORT_WORDS: &[&str] = &[
    "short novel",
    "short adventure",
    "short story",
    "short stories",
    "short poems",
    "short chapters",
    "novella",
    "quick read",
];

impl Features {
    /// Computes a book's features, adding its words to `vocabulary`.
    pub fn of(doc: &BookDoc, vocabulary: &mut Vocabulary) -> Self {
        let mut found: HashMap<u32, u8> = HashMap::new();
        let mut title_words = Vec::new();
        let mut about_words = Vec::new();
        // The words of `text` that are not stop words. A title is matched as written (a
        // request for "Through the Looking-Glass" finds all four words), so its stop words
        // are indexed too; those of tags and summaries say nothing and are left out.
        let mut add = |text: &str, place: u8, vocabulary: &mut Vocabulary| -> Vec<u32> {
            let mut ids = Vec::new();
            for w in words(text) {
                let stop = is_stop(&w);
                if stop && place & (IN_SHORT | IN_LONG | IN_TAGS) != 0 {
                    continue;
                }
                let id = vocabulary.intern(&w);
                *found.entry(id).or_default() |= place;
                if !stop {
                    ids.push(id);
                }
            }
            ids
        };
        title_words.extend(add(&doc.title, IN_TITLE, vocabulary));
        for author in doc.authors.iter().chain(std::iter::once(&doc.author)) {
            add(author, IN_AUTHOR, vocabulary);
        }
        for tag in &doc.tags {
            about_words.extend(add(tag, IN_TAGS, vocabulary));
        }
        add(&doc.genre, IN_GENRE, vocabulary);
        about_words.extend(add(&doc.short_summary, IN_SHORT, vocabulary));
        add(&doc.long_summary, IN_LONG, vocabulary);
        let mut words: Vec<(u32, u8)> = found.into_iter().collect();
        words.sort_unstable();
        for list in [&mut title_words, &mut about_words] {
            list.sort_unstable();
            list.dedup();
        }
        let date = if doc.publish_date.is_empty() {
            &doc.published_at
        } else {
            &doc.publish_date
        };
        Self {
            words,
            genre: canonical_genre(&doc.genre)
                .unwrap_or(doc.genre.trim())
                .to_lowercase(),
            author: if doc.author.trim().is_empty() {
                doc.authors.join(", ").to_lowercase()
            } else {
                doc.author.trim().to_lowercase()
            },
            tags: doc.tags.iter().map(|t| t.trim().to_lowercase()).collect(),
            title_words,
            about_words,
            published_day: day_number(date),
            children: false,
            young_adult: false,
            says_short: false,
        }
        .with_cues(doc)
    }

    fn with_cues(mut self, doc: &BookDoc) -> Self {
        self.children = self.genre == "children" || CHILDREN_TAGS.iter().any(|t| self.has_tag(t));
        self.young_adult =
            self.genre == "young adult" || YOUNG_ADULT_TAGS.iter().any(|t| self.has_tag(t));
        let summary = format!("{} {}", doc.short_summary, doc.long_summary).to_lowercase();
        let summary = format!(" {} ", words(&summary).join(" "));
        self.says_short = SHORT_WORDS
            .iter()
            .any(|w| self.has_tag(w) || summary.contains(&format!(" {} ", words(w).join(" "))));
        self
    }

    /// Where the word `id` occurs in the book (0: nowhere).
    pub fn places(&self, id: u32) -> u8 {
        match self.words.binary_search_by_key(&id, |(w, _)| *w) {
            Ok(i) => self.words[i].1,
            Err(_) => 0,
        }
    }

    /// Whether a tag of the book is `tag` (lowercase) or contains it as words.
    fn has_tag(&self, tag: &str) -> bool {
        self.tags.iter().any(|t| {
            t == tag
                || t.split(|c: char| !c.is_alphanumeric())
                    .collect::<Vec<_>>()
                    .windows(tag.split(' ').count())
                    .any(|w| w.join(" ") == tag)
        })
    }
}

/// Days since 1970-01-01 of a `YYYY-MM-DD` date (or the date part of RFC 3339).
pub(crate) fn day_number(date: &str) -> Option<i64> {
    let mut parts = date.get(..10)?.split('-');
    let y: i64 = parts.next()?.parse().ok()?;
    let m: i64 = parts.next()?.parse().ok()?;
    let d: i64 = parts.next()?.parse().ok()?;
    if !(1..=12).contains(&m) || !(1..=31).contains(&d) {
        return None;
    }
    // Howard Hinnant's days_from_civil.
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    Some(era * 146_097 + doe - 719_468)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plurals_and_possessives_fold_to_one_word() {
        assert_eq!(fold("dragons"), "dragon");
        assert_eq!(fold("mysteries"), "mystery");
        assert_eq!(fold("witches"), "witch");
        assert_eq!(fold("ember's"), "ember");
        assert_eq!(fold("glass"), "glass");
        assert_eq!(fold("bus"), "bus");
        assert_eq!(
            words("The Clockmaker's Alibi!"),
            ["the", "clockmaker", "alibi"]
        );
    }

    #[test]
    fn the_extra_stop_words_are_sorted_and_no_english_stop_words() {
        assert!(NOT_ABOUT.windows(2).all(|w| w[0] < w[1]));
        assert!(NOT_ABOUT.iter().all(|w| !quire_english::is_stop_word(w)));
        assert!(is_stop("the") && is_stop("upon") && is_stop("two") && !is_stop("dragon"));
    }

    #[test]
    fn a_book_knows_where_each_word_is() {
        let doc = BookDoc {
            title: "Ember and the Iron Crown".into(),
            authors: vec!["Morwenna Hale".into()],
            tags: vec!["dragons".into(), "epic fantasy".into()],
            genre: "Fantasy".into(),
            short_summary: "A blacksmith's apprentice forges a crown.".into(),
            ..BookDoc::default()
        };
        let mut vocabulary = Vocabulary::default();
        let f = Features::of(&doc, &mut vocabulary);
        let at = |w: &str| vocabulary.id(w).map_or(0, |id| f.places(id));
        assert_eq!(at("dragon"), IN_TAGS);
        assert_eq!(at("fantasy"), IN_TAGS | IN_GENRE);
        assert_eq!(at("hale"), IN_AUTHOR);
        assert_eq!(at("crown"), IN_TITLE | IN_SHORT);
        // Stop words: a summary's are left out, a title's kept (titles match as written),
        // and neither is a word of what the book is about.
        assert_eq!(at("a"), 0);
        assert_eq!(at("and"), IN_TITLE);
        let about = |w: &str| {
            vocabulary
                .id(w)
                .is_some_and(|id| f.about_words.contains(&id))
        };
        let title = |w: &str| {
            vocabulary
                .id(w)
                .is_some_and(|id| f.title_words.contains(&id))
        };
        assert!(title("crown") && !title("and") && about("crown") && !about("a"));
        assert!(f.has_tag("fantasy") && f.has_tag("epic fantasy") && !f.has_tag("epic crown"));
    }

    #[test]
    fn dates_count_days_from_1970() {
        assert_eq!(day_number("1970-01-01"), Some(0));
        assert_eq!(day_number("2026-11-25T10:00:00Z"), Some(20_782));
        assert_eq!(day_number("2026-13-01"), None);
        assert_eq!(day_number(""), None);
    }
}
