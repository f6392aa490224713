//! Front matter: the leading parts of a book that are not its story (covers, title and
//! copyright pages, licences, contents, dedications). The sample rule gives them away with
//! the sample but does not count them, so a sample is never a title page and a licence.
//!
//! Only the chapter list is used (titles and weights as `inspect` stored them), so the
//! table of contents can be marked without opening the file.

use crate::book::model::{Chapter, Format};

/// The title `txt::inspect` gives the text before the first heading.
pub(crate) const TXT_OPENING_TITLE: &str = "Opening";
/// An epub or txt part with fewer characters than this holds no story (a title page, a
/// dedication, a cover's caption).
const LIGHT_CHARS: u64 = 250;
/// Titles (lowercase, letters and digits only) of front matter.
const TITLES: &[&str] = &[
    "cover",
    "cover page",
    "front cover",
    "title",
    "title page",
    "titlepage",
    "half title",
    "half title page",
    "halftitle",
    "copyright",
    "copyright page",
    "copyrights",
    "licence",
    "license",
    "legal notice",
    "imprint",
    "colophon",
    "contents",
    "table of contents",
    "toc",
    "dedication",
    "epigraph",
    "frontispiece",
    "front matter",
    "frontmatter",
    "also by",
    "by the same author",
    "about this ebook",
];
/// Title beginnings of front matter.
const TITLE_PREFIXES: &[&str] = &[
    "copyright ",
    "also by ",
    "praise for ",
    "the project gutenberg ebook",
    "project gutenberg",
];

/// How many chapters, from the first, are front matter. At most `cap` units of them
/// (`story` units or a fifth of the book, whichever is more), and never every chapter
/// holding text: something must be left to sample.
pub(crate) fn count(format: Format, chapters: &[Chapter], story: u64) -> usize {
    let total: u64 = chapters.iter().map(|c| c.weight).sum();
    let cap = story.max(total / 5);
    // pdf: a first part of one page is a cover or title page, whatever the outline calls
    // it (often the book's title). "Page 1" / "Pages 1-3" names the pages before the first
    // outline entry, unless the whole book is such ranges (no outline, cut every ten pages).
    let has_outline = !chapters.iter().all(|c| is_page_range(&c.title));
    let mut front = 0usize;
    let mut weight = 0u64;
    for (i, c) in chapters
        .iter()
        .enumerate()
        .take(chapters.len().saturating_sub(1))
    {
        let looks_front = named_front(&c.title)
            || match format {
                Format::Pdf => {
                    i == 0 && (c.weight == 1 || (has_outline && is_page_range(&c.title)))
                }
                Format::Txt => c.weight < LIGHT_CHARS || (i == 0 && c.title == TXT_OPENING_TITLE),
                Format::Epub => c.weight < LIGHT_CHARS,
            };
        if !looks_front || weight + c.weight > cap {
            break;
        }
        weight += c.weight;
        front += 1;
    }
    let rest: u64 = chapters[front..].iter().map(|c| c.weight).sum();
    if rest == 0 { 0 } else { front }
}

fn named_front(title: &str) -> bool {
    let words: String = title
        .chars()
        .map(|c| {
            if c.is_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                ' '
            }
        })
        .collect();
    let normal = words.split_whitespace().collect::<Vec<_>>().join(" ");
    TITLES.contains(&normal.as_str()) || TITLE_PREFIXES.iter().any(|p| normal.starts_with(p))
}

/// "Page 4" or "Pages 1-3": the names `pdf::inspect` gives page ranges.
fn is_page_range(title: &str) -> bool {
    let rest = title
        .strip_prefix("Pages ")
        .or_else(|| title.strip_prefix("Page "));
    rest.is_some_and(|r| !r.is_empty() && r.chars().all(|c| c.is_ascii_digit() || c == '-'))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Chapters of these titles and weights, in this order (epub-like hrefs).
    pub(crate) fn chapters(parts: &[(&str, u64)]) -> Vec<Chapter> {
        parts
            .iter()
            .enumerate()
            .map(|(i, (title, weight))| Chapter {
                index: i as u32,
                title: (*title).to_owned(),
                href: format!("c{i}.xhtml"),
                weight: *weight,
            })
            .collect()
    }

    #[test]
    fn covers_title_pages_and_licences_lead_the_front_matter() {
        let epub = chapters(&[
            ("Cover", 0),
            ("Where the Rivers Sing", 40),
            ("Copyright", 900),
            ("Table of Contents", 3000),
            ("The Silent Fiddle", 5000),
            ("Dedication", 30),
        ]);
        assert_eq!(count(Format::Epub, &epub, 6000), 4);
        let txt = chapters(&[(TXT_OPENING_TITLE, 120), ("CHAPTER 1", 4000)]);
        assert_eq!(count(Format::Txt, &txt, 6000), 1);
        let pdf = chapters(&[("Page 1", 1), ("The Silent Fiddle", 3)]);
        assert_eq!(count(Format::Pdf, &pdf, 3), 1);
        let pdf = chapters(&[("Pages 1-2", 2), ("The Silent Fiddle", 3)]);
        assert_eq!(count(Format::Pdf, &pdf, 3), 1);
        let pdf = chapters(&[("Where the Rivers Sing", 1), ("The Silent Fiddle", 1)]);
        assert_eq!(count(Format::Pdf, &pdf, 3), 1);
    }

    #[test]
    fn story_is_never_front_matter() {
        // A pdf without an outline: its page ranges are the book.
        let pdf = chapters(&[("Pages 1-10", 10), ("Pages 11-12", 2)]);
        assert_eq!(count(Format::Pdf, &pdf, 3), 0);
        // A txt whose only heading comes late: its opening is most of the book.
        let txt = chapters(&[(TXT_OPENING_TITLE, 90_000), ("Epilogue", 9_000)]);
        assert_eq!(count(Format::Txt, &txt, 6000), 0);
        // Titles that merely start like front matter words.
        let epub = chapters(&[("Cover Story", 4000), ("Contents of a Drawer", 4000)]);
        assert_eq!(count(Format::Epub, &epub, 6000), 0);
        // Something is always left to sample.
        let tiny = chapters(&[("Title", 40), ("Copyright", 100)]);
        assert_eq!(count(Format::Epub, &tiny, 6000), 1);
        let empty = chapters(&[("Cover", 0), ("Images", 0)]);
        assert_eq!(count(Format::Epub, &empty, 6000), 0);
    }
}
