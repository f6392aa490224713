//! Chapters of a manuscript: collected paragraph by paragraph under the character budget
//! and the time bound, then, when the file's structure gave at most one chapter, cut by
//! `sections`.

use crate::common::chapter_title::clip_title;
use crate::common::error::BookFileError;
use crate::manuscript::deadline::Deadline;
use crate::manuscript::draft::{Draft, PARAGRAPH_BREAK, paragraphs};
use crate::manuscript::model::{ManuscriptFormat, TextChapter};
use crate::manuscript::sections::split_single;

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
}
