//! One chapter that the file's structure gave cut into several: at chapter-like headings
//! in its text, else into even sections of a few thousand words.

use crate::common::chapter_title::clip_title;
use crate::common::error::BookFileError;
use crate::common::txt_headings::find_headings;
use crate::manuscript::deadline::Deadline;
use crate::manuscript::draft::{Draft, PARAGRAPH_BREAK, paragraphs};

/// Even sections: as many as make each closest to this many words (so 3,000 to 5,000 once
/// there are two or more).
const SECTION_TARGET_WORDS: usize = 4_000;
/// Paragraphs longer than this (a text without paragraph breaks) are cut at sentences.
const LONG_PARAGRAPH_WORDS: usize = 5_000;

/// One chapter from the structure: cut at headings in its text, else into even sections.
/// Empty chapters (a heading with nothing after it) are left out; a text of headings and
/// nothing else is kept as it is.
///
/// The draft is taken by value: a whole novel can be one draft, and its paragraphs are
/// dropped once joined, so the text is held twice at most, never three times.
pub(crate) fn split_single(
    draft: Draft,
    deadline: &mut Deadline,
) -> Result<Vec<Draft>, BookFileError> {
    let text = draft.paragraphs.join(PARAGRAPH_BREAK);
    deadline.check()?;
    let headings = find_headings(&text);
    deadline.check()?;
    if headings.is_empty() {
        drop(text);
        return split_even(&draft, deadline);
    }
    let title = draft.title;
    drop(draft.paragraphs);
    let parts = cut_at_headings(&text, title.as_deref(), &headings, deadline)?;
    if parts.is_empty() {
        return Ok(vec![Draft {
            title,
            paragraphs: paragraphs(&text).collect(),
        }]);
    }
    Ok(parts)
}

/// The chapters of `text` cut at its `headings` (byte offset and title), without empty ones.
fn cut_at_headings(
    text: &str,
    title: Option<&str>,
    headings: &[(usize, String)],
    deadline: &mut Deadline,
) -> Result<Vec<Draft>, BookFileError> {
    let mut out = Vec::new();
    let opening = &text[..headings[0].0];
    if !opening.trim().is_empty() {
        out.push(Draft {
            title: Some(title.unwrap_or("Opening").to_owned()),
            paragraphs: paragraphs(opening).collect(),
        });
    }
    for (i, (start, heading)) in headings.iter().enumerate() {
        deadline.step()?;
        let end = headings.get(i + 1).map_or(text.len(), |(s, _)| *s);
        let mut body: Vec<String> = paragraphs(&text[*start..end]).collect();
        drop_title_lines(heading, &mut body);
        if !body.is_empty() {
            out.push(Draft {
                title: Some(clip_title(heading)),
                paragraphs: body,
            });
        }
    }
    Ok(out)
}

/// Removes the heading's own lines ("CHAPTER I", "The Arrival") from the start of its
/// chapter's text: the title carries them.
fn drop_title_lines(title: &str, body: &mut Vec<String>) {
    let mut rest = title.trim();
    while let Some(first) = body.first() {
        let first = first.trim();
        let Some(after) = rest.strip_prefix(first) else {
            break;
        };
        rest = after.trim_start_matches([':', '.', ' ']);
        body.remove(0);
        if rest.is_empty() {
            break;
        }
    }
}

/// Even sections of about `SECTION_TARGET_WORDS` words (as many as make the sections
/// closest to it), each cut at the paragraph end nearest its share of the words, titled
/// "Part 1", "Part 2", ... (a text too short for two sections keeps its title).
fn split_even(draft: &Draft, deadline: &mut Deadline) -> Result<Vec<Draft>, BookFileError> {
    let mut pieces = Vec::new();
    for paragraph in &draft.paragraphs {
        deadline.step()?;
        for piece in split_long_paragraph(paragraph) {
            let words = piece.split_whitespace().count();
            pieces.push((piece, words));
        }
    }
    let total: usize = pieces.iter().map(|(_, w)| w).sum();
    let count = ((total + SECTION_TARGET_WORDS / 2) / SECTION_TARGET_WORDS).max(1);
    if count == 1 {
        return Ok(vec![Draft {
            title: Some(draft.title.clone().unwrap_or_else(|| "Part 1".to_owned())),
            paragraphs: pieces.into_iter().map(|(p, _)| p).collect(),
        }]);
    }
    let mut sections: Vec<Vec<String>> = vec![Vec::new()];
    let mut done = 0usize;
    for (piece, words) in pieces {
        deadline.step()?;
        // Where the next cut should fall, in words from the start.
        let goal = total * sections.len() / count;
        let before = goal.abs_diff(done);
        let after = goal.abs_diff(done + words);
        let cut_before = sections.len() < count && (done >= goal || before <= after);
        if cut_before && sections.last().is_some_and(|s| !s.is_empty()) {
            sections.push(Vec::new());
        }
        if let Some(section) = sections.last_mut() {
            section.push(piece);
        }
        done += words;
    }
    Ok(sections
        .into_iter()
        .filter(|s| !s.is_empty())
        .enumerate()
        .map(|(i, paragraphs)| Draft {
            title: Some(format!("Part {}", i + 1)),
            paragraphs,
        })
        .collect())
}

/// A paragraph longer than a section (a text without paragraph breaks) in pieces of about
/// `SECTION_TARGET_WORDS` words, each ending at a sentence end when there is one.
fn split_long_paragraph(paragraph: &str) -> Vec<String> {
    if paragraph.split_whitespace().count() <= LONG_PARAGRAPH_WORDS {
        return vec![paragraph.to_owned()];
    }
    let mut pieces = Vec::new();
    let mut rest = paragraph;
    while let Some(end) = nth_word_start(rest, SECTION_TARGET_WORDS) {
        let window = &rest[..end];
        let cut = window
            .rfind(['.', '!', '?'])
            .map(|i| i + 1)
            .filter(|&i| i * 2 > window.len())
            .unwrap_or(end);
        pieces.push(rest[..cut].trim().to_owned());
        rest = rest[cut..].trim_start();
    }
    if !rest.trim().is_empty() {
        pieces.push(rest.trim().to_owned());
    }
    pieces
}

/// The byte index where the word numbered `n` (0-based) starts.
fn nth_word_start(s: &str, n: usize) -> Option<usize> {
    let mut count = 0usize;
    let mut in_word = false;
    for (i, c) in s.char_indices() {
        if c.is_whitespace() {
            in_word = false;
        } else if !in_word {
            if count == n {
                return Some(i);
            }
            count += 1;
            in_word = true;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_huge_paragraph_is_cut_at_sentences() {
        let text = "One two three four five six seven eight nine ten. ".repeat(2_000);
        let pieces = split_long_paragraph(text.trim());
        assert!(pieces.len() >= 4, "{}", pieces.len());
        assert!(pieces[..pieces.len() - 1].iter().all(|p| p.ends_with('.')));
        let total: usize = pieces.iter().map(|p| p.split_whitespace().count()).sum();
        assert_eq!(total, 20_000);
    }
}
