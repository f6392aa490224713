//! txt: UTF-8 text (a BOM is fine), chapters at chapter-like headings (else every ~20k
//! characters at a paragraph), the sample (`trial_rule`) cut at a chapter's start, or at a
//! paragraph or line inside the one chapter whose opening it holds.

use std::borrow::Cow;

use crate::book::front_matter::TXT_OPENING_TITLE;
use crate::book::model::{Chapter, Format, Inspected};
use crate::book::trial_rule::{clamp_percent, plan};
use crate::common::error::BookFileError;
use crate::common::txt_headings::{byline, find_headings, gutenberg_field};

const UTF8_BOM: &[u8] = b"\xEF\xBB\xBF";
/// Chapter size when the text has no headings.
const CHARS_PER_SECTION: usize = 20_000;
pub const TRIAL_END_LINE: &str = "--- End of the free sample. Buy the book to keep reading. ---";

/// The text and the byte length of the BOM before it (offsets count from the file's start).
pub(crate) fn decode(data: &[u8]) -> Result<(&str, usize), BookFileError> {
    let (body, bom) = match data.strip_prefix(UTF8_BOM) {
        Some(rest) => (rest, UTF8_BOM.len()),
        None => (data, 0),
    };
    let text = std::str::from_utf8(body)
        .map_err(|_| BookFileError::unreadable("txt", "it is not UTF-8 text"))?;
    if text.contains('\0') {
        return Err(BookFileError::unreadable("txt", "it is not plain text"));
    }
    Ok((text, bom))
}

pub(crate) fn inspect(data: &[u8]) -> Result<Inspected, BookFileError> {
    let (text, bom) = decode(data)?;
    if text.trim().is_empty() {
        return Err(BookFileError::unreadable("txt", "it holds no text"));
    }
    let mut starts: Vec<(usize, String)> = find_headings(text);
    if starts.is_empty() {
        starts = section_starts(text);
    } else if text[..starts[0].0].trim().is_empty() {
        starts[0].0 = 0;
    } else {
        starts.insert(0, (0, TXT_OPENING_TITLE.to_owned()));
    }
    let chapters: Vec<Chapter> = starts
        .iter()
        .enumerate()
        .map(|(i, (start, title))| {
            let end = starts.get(i + 1).map_or(text.len(), |(s, _)| *s);
            Chapter {
                index: u32::try_from(i).unwrap_or(u32::MAX),
                title: title.clone(),
                href: format!("offset={}", start + bom),
                weight: text[*start..end].chars().count() as u64,
            }
        })
        .collect();
    let byline = byline(text);
    let title = gutenberg_field(text, "Title").or_else(|| byline.as_ref().map(|(t, _)| t.clone()));
    let author = gutenberg_field(text, "Author").or_else(|| byline.map(|(_, a)| a));
    Ok(Inspected {
        format: Format::Txt,
        title,
        authors: author.into_iter().collect(),
        language: gutenberg_field(text, "Language"),
        total_weight: chapters.iter().map(|c| c.weight).sum(),
        chapters,
    })
}

/// Starts of ~20k-character sections, each after a paragraph break (else a line break).
fn section_starts(text: &str) -> Vec<(usize, String)> {
    let mut starts = vec![(0usize, "Section 1".to_owned())];
    let mut from = 0usize;
    while let Some((target, _)) = text[from..].char_indices().nth(CHARS_PER_SECTION) {
        let target = from + target;
        let window = &text[from..target];
        let Some(cut) = boundary_before(window, window.len()) else {
            from = target;
            starts.push((from, format!("Section {}", starts.len() + 1)));
            continue;
        };
        from += cut;
        if text[from..].trim().is_empty() {
            break;
        }
        starts.push((from, format!("Section {}", starts.len() + 1)));
    }
    starts
}

/// The byte index just after the last paragraph break (else line break) before `end`, if
/// it is past the start.
fn boundary_before(text: &str, end: usize) -> Option<usize> {
    let head = &text[..end];
    head.rfind("\n\n")
        .map(|i| i + 2)
        .or_else(|| head.rfind('\n').map(|i| i + 1))
        .filter(|&i| i > 0)
}

/// The sample: the text up to the start of the first chapter it leaves out, or up to a
/// paragraph or line (a word when there is neither) inside the chapter it cuts, then the
/// closing line.
pub(crate) fn trial(
    data: &[u8],
    chapters: &[Chapter],
    percent: u8,
) -> Result<Vec<u8>, BookFileError> {
    if clamp_percent(percent) == 100 {
        return Ok(data.to_vec());
    }
    let (text, bom) = decode(data)?;
    let (chapters, starts) = match starts_in(text, bom, chapters) {
        Some(starts) => (Cow::Borrowed(chapters), starts),
        None => {
            let read = inspect(data)?.chapters;
            let starts = starts_in(text, bom, &read).unwrap_or_default();
            (Cow::Owned(read), starts)
        }
    };
    let plan = plan(Format::Txt, &chapters, percent);
    let from = starts.get(plan.whole).copied().unwrap_or(text.len());
    let end = match plan.opening {
        None => from,
        Some(chars) => {
            let chapter = &text[from..];
            let target = chapter
                .char_indices()
                .nth(usize::try_from(chars).unwrap_or(usize::MAX))
                .map_or(chapter.len(), |(i, _)| i);
            // A break so early that it keeps little more than the heading does not count.
            let cut = boundary_before(chapter, target)
                .filter(|&i| i >= target / 2)
                .or_else(|| chapter[..target].rfind(char::is_whitespace))
                .unwrap_or(target);
            from + cut
        }
    };
    let mut out = text[..end].trim_end().to_owned();
    if !out.is_empty() {
        out.push_str("\n\n");
    }
    out.push_str(TRIAL_END_LINE);
    out.push('\n');
    Ok(out.into_bytes())
}

/// Where each chapter starts in `text` (byte indexes), when the chapters' offsets describe
/// this file: ascending, on character boundaries, the first at its start.
fn starts_in(text: &str, bom: usize, chapters: &[Chapter]) -> Option<Vec<usize>> {
    let mut starts = Vec::with_capacity(chapters.len());
    for c in chapters {
        let offset: usize = c.href.strip_prefix("offset=")?.parse().ok()?;
        let at = offset.checked_sub(bom)?;
        if !text.is_char_boundary(at) || starts.last().is_some_and(|&last| at <= last) {
            return None;
        }
        starts.push(at);
    }
    (starts.first() == Some(&0)).then_some(starts)
}

pub(crate) fn extract_text(data: &[u8], max_chars: usize) -> Result<String, BookFileError> {
    let (text, _) = decode(data)?;
    Ok(text.chars().take(max_chars).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cut_chapter_ends_at_a_paragraph() {
        let text = "First paragraph here.\n\nSecond paragraph is longer than that.\n\nThird one.";
        let data = text.as_bytes();
        let out =
            String::from_utf8(trial(data, &inspect(data).unwrap().chapters, 50).unwrap()).unwrap();
        assert!(out.starts_with("First paragraph here.\n\n---"), "{out}");
        assert!(out.ends_with(&format!("{TRIAL_END_LINE}\n")));
    }

    #[test]
    fn sections_without_headings() {
        let para = "word ".repeat(100) + "\n\n";
        let text = para.repeat(100);
        let starts = section_starts(&text);
        assert!(starts.len() >= 2, "{}", starts.len());
        for (s, _) in &starts[1..] {
            assert!(text[..*s].ends_with("\n\n"));
        }
    }

    #[test]
    fn bom_counts_in_offsets() {
        let data =
            b"\xEF\xBB\xBFCHAPTER I\n\nSome text of the first chapter that is long enough.\n";
        let i = inspect(data).unwrap();
        assert_eq!(i.chapters[0].href, "offset=3");
    }
}
