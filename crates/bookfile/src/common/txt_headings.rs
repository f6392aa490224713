//! Lines of a plain-text book that start chapters: "CHAPTER I", "Chapter 12. The Title",
//! "BOOK II", "PART ONE", "Prologue", a play's acts ("ACT I.", the Folio's "Actus Primus.")
//! and a carol's staves ("Stave 1: Marley's Ghost"); failing those, short all-caps lines
//! set apart by blank lines.

use std::collections::HashMap;

/// A heading followed by another within this many characters is a contents entry.
const MIN_CHAPTER_CHARS: usize = 200;
const MAX_HEADING_CHARS: usize = 80;
const MAX_CAPS_CHARS: usize = 60;
/// Numbered headings ("1.", "IV", "2. The Storm") are chapters only when they count up
/// from 1 and the chapters average at least this many characters (page numbers are
/// closer together).
const MIN_NUMBERED_CHAPTER_CHARS: usize = 3_000;
const MAX_NUMBER: u32 = 999;
/// Lines searched for "Title:" style front matter.
const FRONT_MATTER_LINES: usize = 200;

const KEYWORDS: &[&str] = &[
    "chapter", "book", "part", "volume", "canto", "act", "actus", "stave",
];
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
    // The Latin ordinals of the First Folio's acts ("Actus Primus.").
    "primus",
    "secundus",
    "tertius",
    "quartus",
    "quintus",
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
    let mut numbered = Vec::new();
    let mut caps = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let after_blank = i == 0 || blank(i - 1);
        if !after_blank || line.text.is_empty() {
            continue;
        }
        if is_chapter_heading(line.text) {
            strong.push((line.start, line.text, title_with_subtitle(&lines, i)));
            continue;
        }
        if let Some(n) = numbered_heading(line.text, blank(i + 1)) {
            numbered.push((n, (line.start, line.text, title_with_subtitle(&lines, i))));
        }
        if blank(i + 1) && is_caps_heading(line.text) {
            caps.push((line.start, line.text, line.text.to_owned()));
        }
    }
    if strong.len() >= 2 {
        return drop_contents_entries(text, strong);
    }
    if let Some(chapters) = numbered_chapters(text, numbered) {
        return chapters;
    }
    let chosen = if strong.len() == 1 && caps.len() < 2 {
        strong
    } else {
        caps
    };
    drop_contents_entries(text, chosen)
}

/// Numbered headings, if they count 1, 2, 3, ... (a contents list dropped) with chapters
/// of a book's length between them.
fn numbered_chapters(
    text: &str,
    numbered: Vec<(u32, (usize, &str, String))>,
) -> Option<Vec<(usize, String)>> {
    let number_at: HashMap<usize, u32> = numbered.iter().map(|(n, (s, _, _))| (*s, *n)).collect();
    let kept = drop_contents_entries(text, numbered.into_iter().map(|(_, h)| h).collect());
    if kept.len() < 2 {
        return None;
    }
    let counts_up = kept
        .iter()
        .enumerate()
        .all(|(i, (start, _))| number_at.get(start).copied() == u32::try_from(i + 1).ok());
    let average = (text.len() - kept[0].0) / kept.len();
    (counts_up && average >= MIN_NUMBERED_CHAPTER_CHARS).then_some(kept)
}

/// The number of a heading line "7", "7.", "VII", "VII.", "7. The Storm", "VII: Home"
/// (a title after the number is short, capitalised and not a sentence); a bare number
/// must stand alone between blank lines.
fn numbered_heading(line: &str, blank_after: bool) -> Option<u32> {
    if line.chars().count() > MAX_CAPS_CHARS || line.split_whitespace().count() > 8 {
        return None;
    }
    let (number, rest) = match line.split_once(char::is_whitespace) {
        Some((n, rest)) => (n, rest.trim()),
        None => (line, ""),
    };
    let separated = number.ends_with(['.', ':']);
    let bare = number.trim_end_matches(['.', ':']);
    let value = if !bare.is_empty() && bare.len() <= 3 && bare.chars().all(|c| c.is_ascii_digit()) {
        bare.parse().ok()
    } else if bare.chars().all(|c| c.is_ascii_uppercase()) {
        roman_value(bare)
    } else {
        None
    }?;
    let titled = separated
        && rest.chars().next().is_some_and(char::is_uppercase)
        && !rest.ends_with(['.', ',', ';']);
    ((rest.is_empty() && blank_after) || titled).then_some(value)
}

/// The value of an upper-case roman numeral up to `MAX_NUMBER`; None for other words.
fn roman_value(word: &str) -> Option<u32> {
    if word.is_empty() || !is_roman(word) {
        return None;
    }
    let digit = |c: char| match c {
        'I' => 1,
        'V' => 5,
        'X' => 10,
        'L' => 50,
        'C' => 100,
        'D' => 500,
        _ => 1000,
    };
    let values: Vec<i64> = word.chars().map(digit).collect();
    let mut total = 0i64;
    for (i, v) in values.iter().enumerate() {
        if values.get(i + 1).is_some_and(|next| next > v) {
            total -= v;
        } else {
            total += v;
        }
    }
    // A well-formed numeral writes its value back the same way.
    let total = u32::try_from(total).ok()?;
    (total <= MAX_NUMBER && to_roman(total) == word).then_some(total)
}

fn to_roman(mut n: u32) -> String {
    const STEPS: &[(u32, &str)] = &[
        (1000, "M"),
        (900, "CM"),
        (500, "D"),
        (400, "CD"),
        (100, "C"),
        (90, "XC"),
        (50, "L"),
        (40, "XL"),
        (10, "X"),
        (9, "IX"),
        (5, "V"),
        (4, "IV"),
        (1, "I"),
    ];
    let mut out = String::new();
    for (value, letters) in STEPS {
        while n >= *value {
            out.push_str(letters);
            n -= value;
        }
    }
    out
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
    // The last heading with each line: an earlier one with the same line is repeated.
    let last: HashMap<String, usize> = headings
        .iter()
        .enumerate()
        .map(|(i, (_, line, _))| (norm(line), i))
        .collect();
    let mut kept: Vec<(usize, String)> = Vec::new();
    for (i, (start, line, title)) in headings.iter().enumerate() {
        let repeated = last.get(&norm(line)).is_some_and(|l| *l > i);
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

/// A line that reads as a heading on its own: "Chapter 7", "PART TWO", "Prologue", or
/// short all-capital words ("THE STORM", "IV.").
pub(crate) fn is_heading_line(line: &str) -> bool {
    let line = line.trim();
    is_chapter_heading(line) || is_caps_heading(line)
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
            "ACT I.",
            "Act V.",
            "Actus Primus. Scoena Prima.",
            "Stave 1:  Marley's Ghost",
        ] {
            assert!(is_chapter_heading(l), "{l}");
        }
        for l in [
            "Part one of the plan was simple.",
            "chapter 3",
            "Chapters",
            "Booking a room",
            "Chapter and verse",
            "Act one more time, she said.",
            "Actor",
        ] {
            assert!(!is_chapter_heading(l), "{l}");
        }
        assert!(is_caps_heading("THE STORM"));
        assert!(is_caps_heading("IV."));
        assert!(!is_caps_heading("The storm"));
    }

    #[test]
    fn numbered_headings_count_up() {
        assert_eq!(numbered_heading("7.", true), Some(7));
        assert_eq!(numbered_heading("12", true), Some(12));
        assert_eq!(numbered_heading("12", false), None);
        assert_eq!(numbered_heading("VII", true), Some(7));
        assert_eq!(numbered_heading("XIV. The Storm", false), Some(14));
        assert_eq!(numbered_heading("3. The Storm", false), Some(3));
        assert_eq!(numbered_heading("3 men went out.", false), None);
        assert_eq!(numbered_heading("1984.", true), None);
        assert_eq!(numbered_heading("IIII", true), None);
        assert_eq!(numbered_heading("MIX", true), None);
        assert_eq!(roman_value("CMXCIX"), Some(999));
        assert_eq!(roman_value("IC"), None);

        let body = "Words of a chapter that runs on for a while. ".repeat(80);
        let text = format!("1.\n\n{body}\n\n2.\n\n{body}\n\n3. The End\n\n{body}");
        let h = find_headings(&text);
        let titles: Vec<&str> = h.iter().map(|(_, t)| t.as_str()).collect();
        assert_eq!(titles, ["1.", "2.", "3. The End"]);
        // Out of order, or too close together (page numbers): not chapters.
        let text = format!("2.\n\n{body}\n\n1.\n\n{body}");
        assert!(find_headings(&text).is_empty());
        let short = "A page of text. ".repeat(40);
        let text = format!("1\n\n{short}\n\n2\n\n{short}\n\n3\n\n{short}");
        assert!(find_headings(&text).is_empty());
    }

    #[test]
    fn many_repeated_headings_stay_fast() {
        let text = "CHAPTER I\n\n".repeat(100_000);
        let started = std::time::Instant::now();
        assert_eq!(find_headings(&text).len(), 1);
        assert!(started.elapsed().as_secs() < 10);
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
