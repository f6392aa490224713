//! Lines of a plain-text book that start chapters: "CHAPTER I", "Chapter 12. The Title",
//! "BOOK II", "PART ONE", "Prologue"; failing those, short all-caps lines set apart by blank
//! lines.

/// A heading followed by another within this many characters is a contents entry.
const MIN_CHAPTER_CHARS: usize = 200;
const MAX_HEADING_CHARS: usize = 80;
const MAX_CAPS_CHARS: usize = 60;
/// Lines searched for "Title:" style front matter.
const FRONT_MATTER_LINES: usize = 200;

const KEYWORDS: &[&str] = &["chapter", "book", "part", "volume", "canto"];
const STANDALONE: &[&str] = &[
    "prologue",
    "epilogue",
    "preface",
    "introduction",
    "foreword",
    "afterword",
    "interlude",
];
const NUMBER_WORDS: &[&str] = &[
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
    "twenty",
    "first",
    "second",
    "third",
    "fourth",
    "fifth",
    "sixth",
    "seventh",
    "eighth",
    "ninth",
    "tenth",
    "last",
    "final",
];

struct Line<'a> {
    start: usize,
    text: &'a str,
}

fn lines(text: &str) -> Vec<Line<'_>> {
    let mut out = Vec::new();
    let mut start = 0;
    for raw in text.split_inclusive('\n') {
        let trimmed = raw.trim();
        let lead = raw.len() - raw.trim_start().len();
        out.push(Line {
            start: start + lead,
            text: trimmed,
        });
        start += raw.len();
    }
    out
}

/// Byte offsets (of the heading line's first character) and titles of chapter starts.
pub(crate) fn find_headings(text: &str) -> Vec<(usize, String)> {
    let lines = lines(text);
    let blank = |i: usize| lines.get(i).is_none_or(|l| l.text.is_empty());
    let mut strong = Vec::new();
    let mut caps = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let after_blank = i == 0 || blank(i - 1);
        if !after_blank || line.text.is_empty() {
            continue;
        }
        if is_chapter_heading(line.text) {
            strong.push((line.start, line.text, title_with_subtitle(&lines, i)));
        } else if blank(i + 1) && is_caps_heading(line.text) {
            caps.push((line.start, line.text, line.text.to_owned()));
        }
    }
    let chosen = if strong.len() >= 2 || (strong.len() == 1 && caps.len() < 2) {
        strong
    } else {
        caps
    };
    drop_contents_entries(text, chosen)
}

/// Drops headings whose line is repeated later (a contents list) and headings with almost
/// no text before the next one.
fn drop_contents_entries(text: &str, headings: Vec<(usize, &str, String)>) -> Vec<(usize, String)> {
    let norm = |s: &str| {
        s.to_lowercase()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut kept: Vec<(usize, String)> = Vec::new();
    for (i, (start, line, title)) in headings.iter().enumerate() {
        let repeated = headings[i + 1..]
            .iter()
            .any(|(_, l, _)| norm(l) == norm(line));
        let tiny = headings
            .get(i + 1)
            .is_some_and(|(next, _, _)| text[*start..*next].chars().count() < MIN_CHAPTER_CHARS);
        if !repeated && !tiny {
            kept.push((*start, title.clone()));
        }
    }
    kept
}

/// "CHAPTER I" alone on its line takes the short title line that follows it, if any.
fn title_with_subtitle(lines: &[Line<'_>], i: usize) -> String {
    let heading = lines[i].text;
    if heading.split_whitespace().count() > 2 {
        return heading.to_owned();
    }
    let next = lines[i + 1..].iter().take(3).find(|l| !l.text.is_empty());
    match next {
        Some(l)
            if l.text.chars().count() <= MAX_CAPS_CHARS
                && !l.text.ends_with(['.', ',', ';', '!', '?', '"', '\u{201d}'])
                && l.text.chars().next().is_some_and(char::is_uppercase)
                && !is_chapter_heading(l.text) =>
        {
            format!("{}: {}", heading.trim_end_matches(['.', ':']), l.text)
        }
        _ => heading.to_owned(),
    }
}

fn is_chapter_heading(line: &str) -> bool {
    if line.chars().count() > MAX_HEADING_CHARS {
        return false;
    }
    let mut words = line.split_whitespace();
    let Some(first) = words.next() else {
        return false;
    };
    if !first.chars().next().is_some_and(char::is_uppercase) {
        return false;
    }
    let keyword = first.trim_end_matches(['.', ':']).to_lowercase();
    if STANDALONE.contains(&keyword.as_str()) {
        return line.split_whitespace().count() <= 6 && !line.ends_with(['.', ',']);
    }
    if !KEYWORDS.contains(&keyword.as_str()) {
        return false;
    }
    let Some(number) = words.next() else {
        return false;
    };
    let separated = number.ends_with(['.', ':', ',', '-', '\u{2014}']);
    let number = number.trim_end_matches(['.', ':', ',', '-', '\u{2014}']);
    if !is_number(number) {
        return false;
    }
    let rest: Vec<&str> = words.collect();
    match rest.first() {
        None => true,
        Some(next) => {
            let next = next.trim_start_matches(['-', '\u{2014}', ':', '.']);
            separated || next.is_empty() || next.chars().next().is_some_and(char::is_uppercase)
        }
    }
}

fn is_number(word: &str) -> bool {
    (!word.is_empty() && word.len() <= 4 && word.chars().all(|c| c.is_ascii_digit()))
        || is_roman(word)
        || NUMBER_WORDS.contains(&word.to_lowercase().as_str())
}

fn is_roman(word: &str) -> bool {
    !word.is_empty()
        && word.len() <= 8
        && (word.chars().all(|c| "IVXLCDM".contains(c))
            || word.chars().all(|c| "ivxlcdm".contains(c)))
}

fn is_caps_heading(line: &str) -> bool {
    let len = line.chars().count();
    if len > MAX_CAPS_CHARS || line.split_whitespace().count() > 8 {
        return false;
    }
    let bare = line.trim_end_matches('.');
    if is_roman(bare) && bare.chars().all(|c| c.is_ascii_uppercase()) {
        return true;
    }
    let letters = line.chars().filter(|c| c.is_alphabetic()).count();
    letters >= 2 && !line.chars().any(char::is_lowercase) && !line.starts_with(['*', '[', '('])
}

/// A "Title: ..." style field from the front matter (Project Gutenberg headers).
pub(crate) fn gutenberg_field(text: &str, field: &str) -> Option<String> {
    text.lines().take(FRONT_MATTER_LINES).find_map(|line| {
        let (key, value) = line.split_once(':')?;
        let value = value.trim();
        (key.trim().eq_ignore_ascii_case(field) && !value.is_empty()).then(|| value.to_owned())
    })
}

/// "The Title" followed by "by The Author" as the first two non-blank lines.
pub(crate) fn byline(text: &str) -> Option<(String, String)> {
    let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
    let title = lines.next()?;
    let by = lines.next()?;
    let author = by
        .strip_prefix("by ")
        .or_else(|| by.strip_prefix("By "))?
        .trim();
    let short = |s: &str| !s.is_empty() && s.chars().count() <= MAX_HEADING_CHARS;
    (short(title) && short(author)).then(|| (title.to_owned(), author.to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chapter_like_lines() {
        for l in [
            "CHAPTER I",
            "Chapter 12. The Title",
            "BOOK II",
            "PART ONE",
            "Chapter XIV: Home",
            "Prologue",
        ] {
            assert!(is_chapter_heading(l), "{l}");
        }
        for l in [
            "Part one of the plan was simple.",
            "chapter 3",
            "Chapters",
            "Booking a room",
            "Chapter and verse",
        ] {
            assert!(!is_chapter_heading(l), "{l}");
        }
        assert!(is_caps_heading("THE STORM"));
        assert!(is_caps_heading("IV."));
        assert!(!is_caps_heading("The storm"));
    }

    #[test]
    fn contents_lists_are_not_chapters() {
        let body = "Some words of real chapter text. ".repeat(20);
        let text = format!(
            "CONTENTS\n\nCHAPTER I\n\nCHAPTER II\n\n\nCHAPTER I\n\nThe Arrival\n\n{body}\n\nCHAPTER II\n\n{body}"
        );
        let h = find_headings(&text);
        assert_eq!(h.len(), 2, "{h:?}");
        assert_eq!(h[0].1, "CHAPTER I: The Arrival");
        assert_eq!(h[1].1, "CHAPTER II");
        assert!(text[h[0].0..].starts_with("CHAPTER I\n\nThe Arrival"));
    }

    #[test]
    fn front_matter_fields() {
        let text = "The Project Gutenberg eBook\n\nTitle: Moby Dick\nAuthor: Herman Melville\n";
        assert_eq!(gutenberg_field(text, "Title").as_deref(), Some("Moby Dick"));
        assert_eq!(
            gutenberg_field(text, "Author").as_deref(),
            Some("Herman Melville")
        );
        assert_eq!(gutenberg_field(text, "Language"), None);
        let text = "Mo the Moon Mouse\nby Jonah Reyes\n\nOnce upon a time.";
        assert_eq!(
            byline(text),
            Some(("Mo the Moon Mouse".into(), "Jonah Reyes".into()))
        );
        assert_eq!(byline("Once upon a time.\nThe end."), None);
    }
}
