//! Chapters of a manuscript: collected paragraph by paragraph under the character budget
//! and the time bound, then, when the file's structure gave at most one chapter, cut at
//! chapter-like headings in the text, else into even sections of a few thousand words.

use crate::deadline::Deadline;
use crate::epub::clip_title;
use crate::txt_headings::find_headings;
use crate::{BookFileError, ManuscriptFormat, TextChapter};

/// Even sections: as many as make each closest to this many words (so 3,000 to 5,000 once
/// there are two or more).
const SECTION_TARGET_WORDS: usize = 4_000;
/// Paragraphs longer than this (a text without paragraph breaks) are cut at sentences.
const LONG_PARAGRAPH_WORDS: usize = 5_000;
const PARAGRAPH_BREAK: &str = "\n\n";

/// A chapter as the file's structure gives it: a title when the structure names one.
struct Draft {
    title: Option<String>,
    paragraphs: Vec<String>,
}

/// Collects the paragraphs of a manuscript in reading order.
pub(crate) struct ChapterBuilder {
    drafts: Vec<Draft>,
    chars_left: usize,
    truncated: bool,
    deadline: Deadline,
}

impl ChapterBuilder {
    pub(crate) fn new(max_chars: usize, deadline: Deadline) -> Self {
        ChapterBuilder {
            drafts: Vec::new(),
            chars_left: max_chars,
            truncated: false,
            deadline,
        }
    }

    /// The time bound, for loops that do not add paragraphs at every step.
    pub(crate) fn deadline(&mut self) -> &mut Deadline {
        &mut self.deadline
    }

    /// True once the character budget is spent: the rest of the file can be skipped.
    pub(crate) fn is_full(&self) -> bool {
        self.truncated
    }

    /// Starts a chapter the file's structure marks (a title when it names one).
    pub(crate) fn start_chapter(&mut self, title: Option<&str>) {
        let title = title.map(clip_title).filter(|t| !t.is_empty());
        self.drafts.push(Draft {
            title,
            paragraphs: Vec::new(),
        });
    }

    /// Adds text to the current chapter: one paragraph, or several when it holds blank
    /// lines. Lines are trimmed; a single line break inside a paragraph is kept.
    pub(crate) fn add_text(&mut self, text: &str) -> Result<(), BookFileError> {
        for paragraph in paragraphs(text) {
            self.add_paragraph(paragraph)?;
        }
        Ok(())
    }

    /// Adds blocks in reading order, each a heading of a level (1 the top) or body text
    /// (None): headings at the chapter level (see `chapter_level`) or above start chapters,
    /// deeper ones stay in the text.
    pub(crate) fn add_blocks(
        &mut self,
        blocks: &[(Option<u8>, &str)],
    ) -> Result<(), BookFileError> {
        let level = chapter_level(blocks.iter().filter_map(|(heading, _)| *heading));
        for (heading, text) in blocks {
            match heading {
                Some(l) if level.is_some_and(|c| *l <= c) => self.start_chapter(Some(text)),
                _ => self.add_text(text)?,
            }
            if self.is_full() {
                break;
            }
        }
        Ok(())
    }

    fn add_paragraph(&mut self, paragraph: String) -> Result<(), BookFileError> {
        self.deadline.step()?;
        if self.truncated || paragraph.is_empty() {
            return Ok(());
        }
        if self.drafts.is_empty() {
            self.start_chapter(None);
        }
        let cost = paragraph.chars().count() + PARAGRAPH_BREAK.len();
        let paragraph = if cost > self.chars_left {
            self.truncated = true;
            let keep = self.chars_left.saturating_sub(PARAGRAPH_BREAK.len());
            let cut: String = paragraph.chars().take(keep).collect();
            // Cut at a word, not inside one.
            match cut.rfind(char::is_whitespace) {
                Some(i) if i > 0 => cut[..i].trim_end().to_owned(),
                _ => cut,
            }
        } else {
            paragraph
        };
        self.chars_left = self.chars_left.saturating_sub(cost);
        if let Some(draft) = self.drafts.last_mut()
            && !paragraph.is_empty()
        {
            draft.paragraphs.push(paragraph);
        }
        Ok(())
    }

    /// The chapters, and whether text was left out. Fails when there is no text at all.
    pub(crate) fn finish(
        mut self,
        format: ManuscriptFormat,
    ) -> Result<(Vec<TextChapter>, bool), BookFileError> {
        for draft in &mut self.drafts {
            // The heading a document repeats as its first line is the title already.
            if let (Some(title), Some(first)) = (&draft.title, draft.paragraphs.first())
                && same_words(title, first)
            {
                draft.paragraphs.remove(0);
            }
        }
        self.drafts.retain(|d| !d.paragraphs.is_empty());
        if self.drafts.is_empty() {
            return Err(BookFileError::Unreadable(format!(
                "The {format} has no text"
            )));
        }
        let drafts = if self.drafts.len() == 1 {
            let only = self.drafts.remove(0);
            split_single(only, &mut self.deadline)?
        } else {
            self.drafts
        };
        // Text before the first titled chapter is an opening (a title page, a foreword).
        let opening = drafts.len() >= 2 && drafts[0].title.is_none();
        let chapters = drafts
            .into_iter()
            .enumerate()
            .map(|(i, d)| TextChapter {
                title: d.title.unwrap_or_else(|| match i {
                    0 if opening => "Opening".to_owned(),
                    _ => format!("Chapter {}", i + 1),
                }),
                text: d.paragraphs.join(PARAGRAPH_BREAK),
            })
            .collect();
        Ok((chapters, self.truncated))
    }
}

/// The heading level that starts chapters: the highest level used at least twice, else
/// the highest used (a lone top heading over many lower ones is the book's own title or
/// a part; its level is not the chapters').
fn chapter_level(levels: impl IntoIterator<Item = u8>) -> Option<u8> {
    let mut counts = [0usize; 10];
    for level in levels {
        if let Some(c) = counts.get_mut(usize::from(level)) {
            *c += 1;
        }
    }
    let used = || (1..=9u8).filter(|l| counts[usize::from(*l)] > 0);
    used()
        .find(|l| counts[usize::from(*l)] >= 2)
        .or_else(|| used().next())
}

fn same_words(a: &str, b: &str) -> bool {
    let words = |s: &str| -> Vec<String> { s.split_whitespace().map(str::to_lowercase).collect() };
    words(a) == words(b)
}

/// The paragraphs of a text: runs of non-blank lines, each line trimmed.
pub(crate) fn paragraphs(text: &str) -> impl Iterator<Item = String> + '_ {
    let mut lines = text.split('\n').map(str::trim).peekable();
    std::iter::from_fn(move || {
        while lines.peek().is_some_and(|l| l.is_empty()) {
            lines.next();
        }
        let mut paragraph = String::new();
        for line in lines.by_ref() {
            if line.is_empty() {
                break;
            }
            if !paragraph.is_empty() {
                paragraph.push('\n');
            }
            paragraph.push_str(line);
        }
        (!paragraph.is_empty()).then_some(paragraph)
    })
}

/// One chapter from the structure: cut at headings in its text, else into even sections.
/// Empty chapters (a heading with nothing after it) are left out; a text of headings and
/// nothing else is kept as it is.
///
/// The draft is taken by value: a whole novel can be one draft, and its paragraphs are
/// dropped once joined, so the text is held twice at most, never three times.
fn split_single(draft: Draft, deadline: &mut Deadline) -> Result<Vec<Draft>, BookFileError> {
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
    use std::time::Duration;

    use super::*;

    fn builder() -> ChapterBuilder {
        ChapterBuilder::new(1_000_000, Deadline::new(Duration::from_secs(60)))
    }

    #[test]
    fn the_chapter_level() {
        assert_eq!(chapter_level([1, 2, 2, 3]), Some(2));
        assert_eq!(chapter_level([2, 1, 1, 2]), Some(1));
        assert_eq!(chapter_level([3]), Some(3));
        assert_eq!(chapter_level([]), None);
        assert_eq!(chapter_level([0, 12]), None);
    }

    #[test]
    fn paragraphs_are_runs_of_lines() {
        let p: Vec<String> = paragraphs("  a\r\n b \n\n\n c\n\n").collect();
        assert_eq!(p, vec!["a\nb", "c"]);
    }

    #[test]
    fn structure_chapters_are_kept() {
        let mut b = builder();
        b.start_chapter(Some("  One  "));
        b.add_text("First.\n\nSecond.").unwrap();
        b.start_chapter(None);
        b.add_text("Third.").unwrap();
        b.start_chapter(Some("Empty"));
        let (c, truncated) = b.finish(ManuscriptFormat::Docx).unwrap();
        assert!(!truncated);
        assert_eq!(c.len(), 2);
        assert_eq!(c[0].title, "One");
        assert_eq!(c[0].text, "First.\n\nSecond.");
        assert_eq!(c[1].title, "Chapter 2");
        let mut b = builder();
        b.add_text("A title page.").unwrap();
        b.start_chapter(Some("One"));
        b.add_text("Text.").unwrap();
        let (c, _) = b.finish(ManuscriptFormat::Docx).unwrap();
        assert_eq!(c[0].title, "Opening");
    }

    #[test]
    fn no_text_is_an_error() {
        let mut b = builder();
        b.start_chapter(Some("Title only"));
        b.add_text(" \n\n ").unwrap();
        let err = b.finish(ManuscriptFormat::Txt).unwrap_err();
        assert_eq!(err.to_string(), "The txt has no text");
    }

    #[test]
    fn the_budget_cuts_at_a_word() {
        let mut b = ChapterBuilder::new(20, Deadline::new(Duration::from_secs(60)));
        b.add_text("alpha beta gamma delta epsilon zeta").unwrap();
        b.add_text("never kept").unwrap();
        assert!(b.is_full());
        let (c, truncated) = b.finish(ManuscriptFormat::Txt).unwrap();
        assert!(truncated);
        assert_eq!(c[0].text, "alpha beta gamma");
    }

    #[test]
    fn one_chapter_is_cut_at_headings() {
        let body = "Some words of real chapter text. ".repeat(20);
        let mut b = builder();
        b.add_text(&format!(
            "A foreword.\n\nCHAPTER I\n\nThe Arrival\n\n{body}\n\nCHAPTER II\n\n{body}"
        ))
        .unwrap();
        let (c, _) = b.finish(ManuscriptFormat::Txt).unwrap();
        let titles: Vec<&str> = c.iter().map(|c| c.title.as_str()).collect();
        assert_eq!(titles, ["Opening", "CHAPTER I: The Arrival", "CHAPTER II"]);
        assert_eq!(c[1].text, body.trim());
    }

    #[test]
    fn headings_with_nothing_after_them_make_no_chapter() {
        let body = "Some words of real chapter text. ".repeat(20);
        let mut b = builder();
        b.add_text(&format!("CHAPTER I\n\n{body}\n\nCHAPTER II"))
            .unwrap();
        let (c, _) = b.finish(ManuscriptFormat::Txt).unwrap();
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].title, "CHAPTER I");
        let mut b = builder();
        b.add_text("CHAPTER I").unwrap();
        let (c, _) = b.finish(ManuscriptFormat::Txt).unwrap();
        assert_eq!(
            (c[0].title.as_str(), c[0].text.as_str()),
            ("Chapter 1", "CHAPTER I")
        );
    }

    #[test]
    fn even_sections_without_headings() {
        let para = format!("{}\n\n", "word ".repeat(450));
        let mut b = builder();
        b.add_text(&para.repeat(40)).unwrap();
        let (c, _) = b.finish(ManuscriptFormat::Txt).unwrap();
        assert!(c.len() >= 3, "{}", c.len());
        for (i, ch) in c.iter().enumerate() {
            assert_eq!(ch.title, format!("Part {}", i + 1));
            let words = ch.text.split_whitespace().count();
            assert!((3_000..=5_000).contains(&words), "{words}");
        }
    }

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
