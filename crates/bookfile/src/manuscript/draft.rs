//! The chapter draft that the builder collects and the sections cut, and a text's
//! paragraphs, the unit both work in.

/// What separates two paragraphs of a chapter's text.
pub(crate) const PARAGRAPH_BREAK: &str = "\n\n";

/// A chapter as the file's structure gives it: a title when the structure names one.
pub(crate) struct Draft {
    pub(crate) title: Option<String>,
    pub(crate) paragraphs: Vec<String>,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paragraphs_are_runs_of_lines() {
        let p: Vec<String> = paragraphs("  a\r\n b \n\n\n c\n\n").collect();
        assert_eq!(p, vec!["a\nb", "c"]);
    }
}
