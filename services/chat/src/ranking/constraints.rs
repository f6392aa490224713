//! The hard constraints: a book that breaks one is never recommended. Prices are bounds
//! (a maximum of 0 asks for free books), pages are bounds, the audience asks for books
//! for children or young adults (their genre, or a tag such as "picture book" or "young
//! adult"), and excluded genres (as a genre or a tag), books and topic words leave books out, as do the books
//! this conversation showed and the ones the reader bought.
//!
//! Length: "short" means at most [`SHORT_PAGES`] pages, "long" at least [`LONG_PAGES`]
//! (a novella against a doorstopper). A book whose page count is not known yet (0) is
//! not left out by a page bound: it is kept, and counts as only half meeting it, unless
//! its tags or summary call it short.

use crate::understanding::{Audience, Length, Request};

use super::index::Entry;
use super::tokens::{IN_GENRE, IN_SHORT, IN_TAGS, IN_TITLE};

/// The most pages of a short book.
pub const SHORT_PAGES: u32 = 200;
/// The fewest pages of a long book.
pub const LONG_PAGES: u32 = 400;

/// The request's page bounds, with the length turned into one.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct PageBounds {
    pub min: Option<u32>,
    pub max: Option<u32>,
    /// The reader asked for a short book (the bound may be known from the text).
    pub short: bool,
}

impl PageBounds {
    pub fn of(request: &Request) -> Self {
        let (mut min, mut max) = (request.min_pages, request.max_pages);
        match request.length {
            Some(Length::Short) => max = Some(max.map_or(SHORT_PAGES, |m| m.min(SHORT_PAGES))),
            Some(Length::Long) => min = Some(min.map_or(LONG_PAGES, |m| m.max(LONG_PAGES))),
            None => {}
        }
        Self {
            min,
            max,
            short: request.length == Some(Length::Short),
        }
    }

    pub fn any(&self) -> bool {
        self.min.is_some() || self.max.is_some()
    }

    /// None when the book breaks the bounds, else how far it meets them (0.5 when its page
    /// count is unknown and nothing says it is short).
    pub fn fit(&self, entry: &Entry) -> Option<f32> {
        let pages = entry.doc.pages;
        if pages == 0 {
            return Some(if self.short && entry.features.says_short {
                1.0
            } else {
                0.5
            });
        }
        let above = self.min.is_none_or(|m| pages >= m);
        let below = self.max.is_none_or(|m| pages <= m);
        (above && below).then_some(1.0)
    }
}

/// Whether a book of `price_cents` is within the request's price bounds.
pub(crate) fn price_fits(request: &Request, price_cents: i64) -> bool {
    let above = request
        .min_price_cents
        .is_none_or(|m| price_cents >= i64::from(m));
    let below = request
        .max_price_cents
        .is_none_or(|m| price_cents <= i64::from(m));
    above && below
}

/// Whether a book is for the audience asked for.
pub(crate) fn audience_fits(audience: Option<Audience>, entry: &Entry) -> bool {
    match audience {
        None => true,
        Some(Audience::Children) => entry.features.children,
        Some(Audience::YoungAdult) => entry.features.young_adult,
    }
}

/// Whether a book is of a genre the reader turned down (`excluded`, lowercase taxonomy
/// names), as its genre or as one of its tags ("no romance": not a space opera tagged
/// "romance" either).
pub(crate) fn genre_excluded(excluded: &[String], entry: &Entry) -> bool {
    !excluded.is_empty()
        && (excluded.contains(&entry.features.genre)
            || entry.features.tags.iter().any(|t| excluded.contains(t)))
}

/// Whether a book is about a topic the reader turned down: one of `excluded` (each the
/// folded word numbers of one excluded keyword; `None` for a word no book has) in its
/// title, tags, genre or short summary. A passing mention in the long summary is not
/// enough to leave it out.
pub(crate) fn about_excluded(excluded: &[Vec<Option<u32>>], entry: &Entry) -> bool {
    const ABOUT: u8 = IN_TITLE | IN_TAGS | IN_GENRE | IN_SHORT;
    excluded.iter().any(|words| {
        !words.is_empty()
            && words
                .iter()
                .all(|w| w.is_some_and(|id| entry.features.places(id) & ABOUT != 0))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ranking::BookDoc;
    use crate::ranking::tokens::{Features, Vocabulary};

    fn entry(pages: u32, genre: &str, tags: &[&str], summary: &str) -> Entry {
        let doc = BookDoc {
            pages,
            genre: genre.into(),
            tags: tags.iter().map(|t| t.to_string()).collect(),
            short_summary: summary.into(),
            ..BookDoc::default()
        };
        let features = Features::of(&doc, &mut Vocabulary::default());
        Entry {
            doc,
            features,
            vector: None,
        }
    }

    #[test]
    fn short_and_long_become_page_bounds() {
        let short = PageBounds::of(&Request {
            length: Some(Length::Short),
            max_pages: Some(300),
            ..Request::default()
        });
        assert_eq!(short.max, Some(SHORT_PAGES));
        assert_eq!(short.fit(&entry(150, "", &[], "")), Some(1.0));
        assert_eq!(short.fit(&entry(250, "", &[], "")), None);
        assert_eq!(short.fit(&entry(0, "", &[], "")), Some(0.5));
        assert_eq!(short.fit(&entry(0, "", &[], "A tense novella.")), Some(1.0));
        let long = PageBounds::of(&Request {
            length: Some(Length::Long),
            ..Request::default()
        });
        assert_eq!(long.fit(&entry(390, "", &[], "")), None);
        assert_eq!(long.fit(&entry(0, "", &[], "A tense novella.")), Some(0.5));
        assert!(!PageBounds::of(&Request::default()).any());
    }

    #[test]
    fn free_means_a_price_of_zero() {
        let free = Request {
            max_price_cents: Some(0),
            ..Request::default()
        };
        assert!(price_fits(&free, 0) && !price_fits(&free, 1));
        let band = Request {
            min_price_cents: Some(300),
            max_price_cents: Some(500),
            ..Request::default()
        };
        assert!(price_fits(&band, 300) && price_fits(&band, 500));
        assert!(!price_fits(&band, 299) && !price_fits(&band, 501));
    }

    #[test]
    fn the_audience_is_the_genre_or_a_tag() {
        let kids = Some(Audience::Children);
        let ya = Some(Audience::YoungAdult);
        assert!(audience_fits(kids, &entry(0, "Children", &[], "")));
        assert!(audience_fits(
            kids,
            &entry(0, "Poetry", &["picture book"], "")
        ));
        assert!(!audience_fits(
            kids,
            &entry(0, "Fantasy", &["young adult"], "")
        ));
        assert!(audience_fits(
            ya,
            &entry(0, "Fantasy", &["young adult"], "")
        ));
        assert!(audience_fits(ya, &entry(0, "Young Adult", &[], "")));
        assert!(audience_fits(None, &entry(0, "Mystery", &[], "")));
    }
}
