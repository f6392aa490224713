//! A txt manuscript: its encoding detected, "Title:"/"Author:"/"Language:" front matter
//! lines as metadata, chapters at chapter-like headings, else even sections.

use std::borrow::Cow;

use crate::common::error::BookFileError;
use crate::common::txt_headings::gutenberg_field;
use crate::manuscript::chapters::ChapterBuilder;
use crate::manuscript::metadata_fields::split_names;
use crate::manuscript::model::{Manuscript, ManuscriptFormat};
use crate::manuscript::text_decode::decode_text;

/// A text of many lines with (almost) no blank line between them is one paragraph per line.
const LINES_PER_BLANK_LINE: usize = 20;
const MIN_LINES_FOR_LINE_PARAGRAPHS: usize = 20;

pub(crate) fn extract(
    data: &[u8],
    mut builder: ChapterBuilder,
) -> Result<Manuscript, BookFileError> {
    let text = unix_line_breaks(decode_text(data, "txt")?);
    builder.deadline().check()?;
    let title = gutenberg_field(&text, "Title");
    let authors = gutenberg_field(&text, "Author")
        .map(|a| split_names(&a))
        .unwrap_or_default();
    let language = gutenberg_field(&text, "Language");
    if lines_are_paragraphs(&text) {
        for line in text.lines() {
            builder.add_text(line)?;
        }
    } else {
        builder.add_text(&text)?;
    }
    // The builder holds its own copy of every paragraph now.
    drop(text);
    let (chapters, truncated) = builder.finish(ManuscriptFormat::Txt)?;
    Ok(Manuscript {
        format: ManuscriptFormat::Txt,
        title,
        authors,
        language,
        chapters,
        truncated,
    })
}

/// Line breaks as "\n" alone; a text that has no "\r" (most) is not copied.
fn unix_line_breaks(text: Cow<'_, str>) -> Cow<'_, str> {
    if text.contains('\r') {
        Cow::Owned(text.replace("\r\n", "\n").replace('\r', "\n"))
    } else {
        text
    }
}

fn lines_are_paragraphs(text: &str) -> bool {
    let (mut lines, mut blank) = (0usize, 0usize);
    for line in text.lines() {
        lines += 1;
        if line.trim().is_empty() {
            blank += 1;
        }
    }
    lines >= MIN_LINES_FOR_LINE_PARAGRAPHS && blank * LINES_PER_BLANK_LINE < lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_paragraphs_are_recognised() {
        assert!(lines_are_paragraphs(&"A line of its own.\n".repeat(30)));
        assert!(!lines_are_paragraphs(&"A line.\nAnother.\n\n".repeat(30)));
        assert!(!lines_are_paragraphs("Short.\nText.\n"));
    }

    #[test]
    fn carriage_returns_become_line_breaks() {
        assert_eq!(unix_line_breaks(Cow::Borrowed("a\r\nb\rc\n")), "a\nb\nc\n");
        assert!(matches!(
            unix_line_breaks(Cow::Borrowed("a\nb")),
            Cow::Borrowed(_)
        ));
    }
}
