//! Texts written for the project, kept in `deploy/demo/texts/*.txt` and compiled into the
//! binary. Each file is a header of `key: value` lines, a `---` line, then chapters: a
//! line `# Title` opens a chapter, blank lines separate paragraphs.

use std::collections::BTreeMap;

use super::paragraphs;
use crate::DemoError;
use quire_fixtures::build::ChapterText;

/// One parsed text: its header fields and its chapters.
#[derive(Debug, Clone)]
pub(crate) struct OriginalText {
    pub fields: BTreeMap<String, String>,
    pub chapters: Vec<ChapterText>,
}

impl OriginalText {
    pub fn field(&self, key: &str) -> Result<&str, DemoError> {
        self.fields
            .get(key)
            .map(String::as_str)
            .ok_or_else(|| DemoError::Invalid(format!("text without `{key}`")))
    }

    pub fn list(&self, key: &str) -> Vec<String> {
        self.fields
            .get(key)
            .map(|v| {
                v.split(',')
                    .map(|s| s.trim().to_owned())
                    .filter(|s| !s.is_empty())
                    .collect()
            })
            .unwrap_or_default()
    }
}

pub(crate) fn parse(name: &str, source: &str) -> Result<OriginalText, DemoError> {
    let invalid = |reason: &str| DemoError::Invalid(format!("{name}: {reason}"));
    let (header, body) = source
        .split_once("\n---\n")
        .ok_or_else(|| invalid("no `---` line after the header"))?;
    let mut fields = BTreeMap::new();
    for line in header.lines().filter(|l| !l.trim().is_empty()) {
        let (key, value) = line
            .split_once(':')
            .ok_or_else(|| invalid("a header line without `:`"))?;
        fields.insert(key.trim().to_owned(), value.trim().to_owned());
    }
    let mut chapters: Vec<ChapterText> = Vec::new();
    let mut text = String::new();
    let flush = |chapters: &mut Vec<ChapterText>, text: &mut String| {
        if let Some(last) = chapters.last_mut() {
            last.paragraphs
                .extend(text.split("\n\n").flat_map(paragraphs::by_lines_joined));
        }
        text.clear();
    };
    for line in body.lines() {
        if let Some(title) = line.strip_prefix("# ") {
            flush(&mut chapters, &mut text);
            chapters.push(ChapterText::new(title.trim(), Vec::new()));
        } else {
            text.push_str(line);
            text.push('\n');
        }
    }
    flush(&mut chapters, &mut text);
    if chapters.is_empty() || chapters.iter().any(|c| c.paragraphs.is_empty()) {
        return Err(invalid("no chapters, or an empty chapter"));
    }
    Ok(OriginalText { fields, chapters })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_and_chapters_are_read() {
        let text = parse(
            "t",
            "title: A Tale\ntags: a, b ,\n---\n# One\nFirst line\ncontinues.\n\nSecond.\n# Two\n\nThird.\n",
        )
        .unwrap();
        assert_eq!(text.field("title").unwrap(), "A Tale");
        assert_eq!(text.list("tags"), vec!["a", "b"]);
        assert_eq!(text.chapters.len(), 2);
        assert_eq!(
            text.chapters[0].paragraphs,
            vec!["First line continues.".to_owned(), "Second.".to_owned()]
        );
        assert_eq!(text.chapters[1].paragraphs, vec!["Third.".to_owned()]);
    }

    #[test]
    fn a_text_without_chapters_is_refused() {
        assert!(parse("t", "title: x\n---\njust text\n").is_err());
    }
}
