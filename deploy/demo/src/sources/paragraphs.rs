//! Turning raw source text into paragraphs a reader can follow.

/// Paragraphs separated by blank lines (or single newlines), inner whitespace collapsed.
pub(crate) fn by_lines(text: &str) -> Vec<String> {
    text.split('\n')
        .map(|p| p.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|p| !p.is_empty())
        .collect()
}

/// Splits one long unbroken text (speeches come that way) into paragraphs of whole
/// sentences of about `target` characters, so a page is not one wall of text.
pub(crate) fn by_sentences(text: &str, target: usize) -> Vec<String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let mut paragraphs = Vec::new();
    let mut current = String::new();
    for (i, word) in words.iter().enumerate() {
        if !current.is_empty() {
            current.push(' ');
        }
        current.push_str(word);
        let next_starts_sentence = words
            .get(i + 1)
            .and_then(|w| w.chars().next())
            .is_some_and(|c| c.is_uppercase() || c == '"' || c == '\u{201c}');
        let ends_sentence = word.ends_with('.') || word.ends_with('?') || word.ends_with('!');
        // "Mr." and "U.S." end with a period without ending a sentence.
        let abbreviation = word.len() <= 4
            && word.chars().filter(|c| *c == '.').count() >= 1
            && word.chars().next().is_some_and(char::is_uppercase)
            && !word.trim_end_matches('.').chars().any(char::is_lowercase)
            || matches!(*word, "Mr." | "Mrs." | "Dr." | "St." | "Gen." | "Gov.");
        if current.len() >= target && ends_sentence && next_starts_sentence && !abbreviation {
            paragraphs.push(std::mem::take(&mut current));
        }
    }
    if !current.is_empty() {
        paragraphs.push(current);
    }
    paragraphs
}

/// One paragraph written over several lines, or none when it is blank. A block whose
/// lines start with two spaces is verse: it stays one paragraph whose lines are kept,
/// joined by `\n`, which every builder turns into a line break.
pub(crate) fn by_lines_joined(block: &str) -> Vec<String> {
    if block.lines().any(|l| l.starts_with("  ")) {
        let lines = by_lines(block);
        return if lines.is_empty() {
            Vec::new()
        } else {
            vec![lines.join("\n")]
        };
    }
    let joined = block.split_whitespace().collect::<Vec<_>>().join(" ");
    if joined.is_empty() {
        Vec::new()
    } else {
        vec![joined]
    }
}

/// Paragraphs of a plain-text book as its file lays them out: blocks between blank lines.
/// A block of short lines most of which start with a capital (verse, a play's speech in
/// verse) keeps its lines, joined by `\n`; a block of wrapped prose (its lines run on,
/// mostly starting in lowercase) is joined into one paragraph; a block whose lines are long
/// (a file that writes one paragraph per line, with no blank lines between) is a
/// paragraph per line.
pub(crate) fn by_blocks(text: &str) -> Vec<String> {
    /// Lines of wrapped prose are at most about this long; longer ones are whole paragraphs.
    const WRAPPED: usize = 100;
    /// A block whose lines are all this short, and that has several, is verse.
    const VERSE: usize = 60;
    let mut out = Vec::new();
    for block in text.split("\n\n") {
        let lines: Vec<&str> = block
            .lines()
            .map(str::trim_end)
            .filter(|l| !l.trim().is_empty())
            .collect();
        if lines.is_empty() {
            continue;
        }
        let longest = lines.iter().map(|l| l.chars().count()).max().unwrap_or(0);
        if longest > WRAPPED {
            out.extend(by_lines(block));
        } else if lines.len() > 1 && longest <= VERSE && mostly_capitalised(&lines) {
            out.push(
                lines
                    .iter()
                    .map(|l| l.trim())
                    .collect::<Vec<_>>()
                    .join("\n"),
            );
        } else {
            out.extend(by_lines_joined(&lines.join("\n")));
        }
    }
    out
}

/// Whether at least three lines in five start with a capital letter (or a quotation mark
/// before one), as lines of verse do and wrapped prose does not.
fn mostly_capitalised(lines: &[&str]) -> bool {
    let capitalised = lines
        .iter()
        .filter(|l| {
            l.trim_start()
                .trim_start_matches(['"', '\'', '\u{201c}', '\u{2018}', '('])
                .chars()
                .next()
                .is_some_and(char::is_uppercase)
        })
        .count();
    5 * capitalised >= 3 * lines.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_keep_verse_lines_join_wrapped_prose_and_split_long_lines() {
        let text = "ROMEO.\nBut soft! What light through yonder window breaks?\nIt is the east.\n\n\
                    Marley was dead: to begin with. There is no doubt\nwhatever about that. \
                    The register of his burial was\nsigned by the clergyman, the clerk, the \
                    undertaker,\nand the chief mourner.\n\n";
        let long = format!("{}\n{}\n", "a ".repeat(80).trim(), "b ".repeat(80).trim());
        let blocks = by_blocks(text);
        assert_eq!(blocks.len(), 2, "{blocks:?}");
        assert_eq!(
            blocks[0],
            "ROMEO.\nBut soft! What light through yonder window breaks?\nIt is the east."
        );
        assert!(blocks[1].starts_with("Marley was dead") && !blocks[1].contains('\n'));
        assert_eq!(by_blocks(&long).len(), 2);
    }

    #[test]
    fn long_text_breaks_at_sentence_ends_only() {
        let text = "This is one sentence about the U.S. Army. ".repeat(40);
        let paragraphs = by_sentences(&text, 200);
        assert!(paragraphs.len() > 4);
        for p in &paragraphs {
            assert!(p.ends_with("Army."), "{p}");
        }
        assert_eq!(paragraphs.join(" "), text.trim());
    }

    #[test]
    fn lines_become_paragraphs() {
        assert_eq!(
            by_lines("a  b\n\n c\n"),
            vec!["a b".to_owned(), "c".to_owned()]
        );
    }

    #[test]
    fn verse_keeps_its_line_breaks() {
        assert_eq!(
            by_lines_joined("  Title\n  first line\n  second line\n"),
            vec!["Title\nfirst line\nsecond line".to_owned()]
        );
        assert_eq!(
            by_lines_joined("prose\nwraps"),
            vec!["prose wraps".to_owned()]
        );
    }
}
