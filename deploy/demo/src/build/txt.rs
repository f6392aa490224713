//! Plain UTF-8 text: a title block, then "CHAPTER N. Title" headings, paragraphs separated
//! by blank lines, lines wrapped at 72 columns like the classic e-texts.

use super::{BookMeta, ChapterText};

const WIDTH: usize = 72;

/// The book as UTF-8 text (no BOM, `\n` line ends).
pub fn txt(meta: &BookMeta, chapters: &[ChapterText]) -> Vec<u8> {
    let mut out = String::new();
    out.push_str(meta.title.trim());
    out.push('\n');
    if !meta.authors.is_empty() {
        out.push_str("by ");
        out.push_str(&meta.author_line());
        out.push('\n');
    }
    if let Some(rights) = meta.rights.as_deref().filter(|r| !r.trim().is_empty()) {
        out.push('\n');
        for line in wrap(rights.trim(), WIDTH) {
            out.push_str(&line);
            out.push('\n');
        }
    }
    for (i, chapter) in chapters.iter().enumerate() {
        out.push_str("\n\n");
        out.push_str(&heading(i + 1, &chapter.title));
        out.push_str("\n\n");
        for paragraph in chapter.paragraphs.iter().filter(|p| !p.trim().is_empty()) {
            // A `\n` inside a paragraph is a kept line break (verse).
            for source_line in paragraph.trim().lines() {
                for line in wrap(source_line, WIDTH) {
                    out.push_str(&line);
                    out.push('\n');
                }
            }
            out.push('\n');
        }
    }
    out.into_bytes()
}

/// "CHAPTER 3. The Carpet-Bag", or "CHAPTER 3." for an untitled chapter.
pub(crate) fn heading(number: usize, title: &str) -> String {
    let title = title.trim();
    if title.is_empty() {
        format!("CHAPTER {number}.")
    } else {
        format!("CHAPTER {number}. {title}")
    }
}

/// Greedy word wrap by characters; a word longer than the width gets a line of its own.
pub(crate) fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    let mut len = 0usize;
    for word in text.split_whitespace() {
        let wlen = word.chars().count();
        if len > 0 && len + 1 + wlen > width {
            lines.push(std::mem::take(&mut line));
            len = 0;
        }
        if len > 0 {
            line.push(' ');
            len += 1;
        }
        line.push_str(word);
        len += wlen;
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::super::fixtures;
    use super::*;

    #[test]
    fn text_has_a_heading_per_chapter_and_every_paragraph() {
        let chapters = fixtures::chapters(3, 4);
        let text = String::from_utf8(txt(&fixtures::meta(), &chapters)).unwrap();
        assert!(text.starts_with("Tom & Jerry's <Big> Day\nby Ann Author, Émile Zola\n"));
        for n in 1..=3 {
            assert!(
                text.contains(&format!(
                    "\nCHAPTER {n}. The {n}th \u{201c}chapter\u{201d} & more\n"
                )),
                "{text}"
            );
        }
        assert_eq!(text.matches("Paragraph 4 of chapter").count(), 3);
        assert!(text.lines().all(|l| l.chars().count() <= WIDTH));
    }

    #[test]
    fn wrap_keeps_long_words_whole() {
        let long = "x".repeat(100);
        assert_eq!(
            wrap(&format!("a {long} b"), 10),
            vec!["a".to_owned(), long, "b".to_owned()]
        );
    }

    #[test]
    fn verse_lines_stay_lines() {
        let chapters = vec![ChapterText::new("Poems", vec!["One\nTwo".to_owned()])];
        let text = String::from_utf8(txt(&fixtures::meta(), &chapters)).unwrap();
        assert!(text.contains("\nOne\nTwo\n"), "{text}");
    }
}
