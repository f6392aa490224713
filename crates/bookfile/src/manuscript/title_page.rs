//! What a manuscript's metadata says, checked against what its makers' tools fill in by
//! themselves, and its title page read when the metadata names no title.
//!
//! Tools write defaults nobody chose: enscript titles every pdf "Enscript Output",
//! python-docx signs every document "python-docx", Word prints "Microsoft Word - draft.docx"
//! into the pdfs it makes. Such a title or author is no title or author. A book without a
//! title in its metadata usually has one on its first page ("BLEAK HOUSE", then "by
//! Charles Dickens"): its first line, when that line reads as a title.

use crate::manuscript::model::Manuscript;

/// Titles that tools write when the writer gave none (compared ignoring case).
const DEFAULT_TITLES: &[&str] = &[
    "enscript output",
    "untitled",
    "untitled document",
    "title",
    "document",
    "microsoft word document",
    "no title",
];
/// Authors that tools write (compared ignoring case).
const DEFAULT_AUTHORS: &[&str] = &[
    "python-docx",
    "microsoft office user",
    "microsoft office",
    "administrator",
    "admin",
    "unknown",
    "owner",
    "user",
    "windows user",
    "author",
    "calibre",
    "libreoffice",
    "openoffice",
    "docx4j",
    "apache poi",
];
/// How far into the first chapter a title page reaches.
const TITLE_PAGE_CHARS: usize = 1_500;
/// A title longer than this is a sentence.
const MAX_TITLE_WORDS: usize = 14;
/// Small words a title keeps in lower case.
const SMALL_WORDS: &[&str] = &[
    "a", "an", "and", "as", "at", "but", "by", "for", "in", "of", "on", "or", "the", "to",
];
/// First lines that are headings of the book's parts, not its title.
const NOT_TITLES: &[&str] = &[
    "contents",
    "table of contents",
    "preface",
    "prologue",
    "introduction",
    "foreword",
    "dedication",
    "chapter",
    "part",
    "book",
    "volume",
    "act",
    "scene",
    "dramatis personae",
    "persons represented",
    "copyright",
];

/// Drops the tools' defaults from `manuscript`'s title and authors, and takes the title
/// from the title page when the metadata names none.
pub(crate) fn complete(manuscript: &mut Manuscript) {
    manuscript.title = manuscript
        .title
        .take()
        .map(|t| without_word_prefix(&t))
        .filter(|t| !is_default_title(t));
    manuscript
        .authors
        .retain(|a| !DEFAULT_AUTHORS.contains(&a.trim().to_lowercase().as_str()));
    if manuscript.title.is_none() {
        manuscript.title = manuscript
            .chapters
            .first()
            .and_then(|c| from_title_page(&c.text));
    }
}

fn is_default_title(title: &str) -> bool {
    let lower = title.trim().to_lowercase();
    lower.is_empty()
        || DEFAULT_TITLES.contains(&lower.as_str())
        // "Document1", "Untitled 3", "Untitled-2".
        || ["document", "untitled"].iter().any(|d| {
            lower.strip_prefix(d).is_some_and(|n| {
                !n.is_empty() && n.trim_start_matches([' ', '-', '_']).chars().all(|c| c.is_ascii_digit())
            })
        })
}

/// "Microsoft Word - The Long Road.docx" is The Long Road.
fn without_word_prefix(title: &str) -> String {
    let title = title.trim();
    let Some(rest) = title.strip_prefix("Microsoft Word - ") else {
        return title.to_owned();
    };
    let rest = [".docx", ".doc", ".rtf", ".odt"]
        .iter()
        .find_map(|ext| {
            rest.len()
                .checked_sub(ext.len())
                .filter(|&at| rest.is_char_boundary(at) && rest[at..].eq_ignore_ascii_case(ext))
                .map(|at| &rest[..at])
        })
        .unwrap_or(rest);
    rest.trim().to_owned()
}

/// The title on the first page: the first line with text, if it reads as a title (short,
/// not a sentence, its words capitalised, not a heading such as "Preface" or "Chapter 1").
/// A byline at its end ("Hamlet by William Shakespeare 1599") is left out.
fn from_title_page(text: &str) -> Option<String> {
    let end = text
        .char_indices()
        .nth(TITLE_PAGE_CHARS)
        .map_or(text.len(), |(at, _)| at);
    let line = text[..end].lines().map(str::trim).find(|l| !l.is_empty())?;
    let line = line.trim_matches(['[', ']', '*', '_', '#', ' ']).trim();
    let line = match line.to_lowercase().rfind(" by ") {
        Some(at) if line.is_char_boundary(at) => line[..at].trim_end(),
        _ => line,
    };
    let line = line.trim_end_matches([',', ';', ':', '-']).trim();
    let words: Vec<&str> = line.split_whitespace().collect();
    // A line that ends as a sentence does ("Yes.", "London.") is the text, not its title.
    let sentence = line.ends_with(['.', '!', '?', '"', '”']);
    if words.is_empty() || words.len() > MAX_TITLE_WORDS || sentence {
        return None;
    }
    let lower = line.to_lowercase();
    let heading = NOT_TITLES.iter().any(|h| {
        lower == *h
            || lower
                .strip_prefix(h)
                .is_some_and(|rest| rest.starts_with([' ', '.', ':']))
    });
    if heading || lower.starts_with("by ") || !line.chars().any(char::is_alphabetic) {
        return None;
    }
    let title_case = words.iter().all(|w| {
        let first = w
            .trim_start_matches(['"', '\'', '(', '‘', '“'])
            .chars()
            .next();
        !first.is_some_and(char::is_lowercase) || SMALL_WORDS.contains(&w.to_lowercase().as_str())
    });
    title_case.then(|| as_title(line))
}

/// A title as a catalogue writes it: "BLEAK HOUSE" is Bleak House, "TWELFTH NIGHT; OR,
/// WHAT YOU WILL" is Twelfth Night; or, What You Will. Mixed case is kept as written.
fn as_title(line: &str) -> String {
    if line.chars().any(char::is_lowercase) {
        return line.to_owned();
    }
    let mut out = Vec::new();
    for (i, word) in line.split_whitespace().enumerate() {
        let lower = word.to_lowercase();
        let bare = lower.trim_matches(|c: char| !c.is_alphanumeric());
        if i > 0 && SMALL_WORDS.contains(&bare) {
            out.push(lower);
            continue;
        }
        // Capitalised after the start and after an apostrophe or hyphen ("L'Allegro").
        let mut word_out = String::with_capacity(word.len());
        let mut start = true;
        for c in lower.chars() {
            if start && c.is_alphabetic() {
                word_out.extend(c.to_uppercase());
                start = false;
            } else {
                word_out.push(c);
            }
            if matches!(c, '-' | '\'' | '’') {
                start = true;
            }
        }
        out.push(word_out);
    }
    out.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manuscript::model::{ManuscriptFormat, TextChapter};

    fn manuscript(title: Option<&str>, authors: &[&str], first: &str) -> Manuscript {
        Manuscript {
            format: ManuscriptFormat::Txt,
            title: title.map(str::to_owned),
            authors: authors.iter().map(|a| (*a).to_owned()).collect(),
            language: None,
            chapters: vec![TextChapter {
                title: "Opening".to_owned(),
                text: first.to_owned(),
            }],
            truncated: false,
        }
    }

    fn completed(title: Option<&str>, authors: &[&str], first: &str) -> Manuscript {
        let mut m = manuscript(title, authors, first);
        complete(&mut m);
        m
    }

    #[test]
    fn the_tools_defaults_are_no_title_and_no_author() {
        let m = completed(Some("Enscript Output"), &["python-docx"], "It rained.");
        assert_eq!(m.title, None);
        assert!(m.authors.is_empty());
        let m = completed(
            Some("Document1"),
            &["Ada Lovelace", "Administrator"],
            "It rained.",
        );
        assert_eq!(m.title, None);
        assert_eq!(m.authors, ["Ada Lovelace"]);
        let m = completed(Some("Microsoft Word - The Long Road.docx"), &[], "");
        assert_eq!(m.title.as_deref(), Some("The Long Road"));
        let m = completed(Some("Untitled Symphony"), &[], "");
        assert_eq!(m.title.as_deref(), Some("Untitled Symphony"));
    }

    #[test]
    fn a_title_page_gives_the_title_when_the_metadata_names_none() {
        let m = completed(None, &[], "BLEAK HOUSE\n\nby Charles Dickens\n\nPREFACE");
        assert_eq!(m.title.as_deref(), Some("Bleak House"));
        let m = completed(
            None,
            &[],
            "TWELFTH NIGHT; OR, WHAT YOU WILL\n\nby William Shakespeare",
        );
        assert_eq!(m.title.as_deref(), Some("Twelfth Night; or, What You Will"));
        let m = completed(
            None,
            &[],
            "[The Tragedie of Hamlet by William Shakespeare 1599]\n\nActus Primus.",
        );
        assert_eq!(m.title.as_deref(), Some("The Tragedie of Hamlet"));
        let m = completed(
            None,
            &[],
            "L'ALLEGRO, IL PENSEROSO, COMUS, AND LYCIDAS By John Milton\n\nHENCE",
        );
        assert_eq!(
            m.title.as_deref(),
            Some("L'Allegro, Il Penseroso, Comus, and Lycidas")
        );
        // The metadata's own title stays.
        let m = completed(
            Some("Bleak House: A Novel"),
            &[],
            "BLEAK HOUSE\n\nby Charles Dickens",
        );
        assert_eq!(m.title.as_deref(), Some("Bleak House: A Novel"));
    }

    #[test]
    fn prose_and_headings_are_no_title() {
        for first in [
            "It was the best of times, it was the worst of times, it was the age of wisdom.",
            "The rain had not stopped for three days and the river was rising fast.",
            "PREFACE\n\nA Chancery judge once had the kindness to inform me.",
            "Chapter 1\n\nThe house stood on a hill.",
            "CONTENTS\n\nI. The Beginning",
            "by Anonymous\n\nThe house.",
            "1891\n\nThe house.",
            "Yes.\n\nShe went in.",
            "\u{201c}Come In!\u{201d}\n\nShe went in.",
            "",
        ] {
            assert_eq!(completed(None, &[], first).title, None, "{first}");
        }
    }
}
