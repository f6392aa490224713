//! Text basics every analysis shares: paragraphs, sentences, words, normalised word forms,
//! English stop words and syllable counts.
//!
//! Everything works on byte ranges or slices of the caller's text, so nothing is copied
//! until a caller asks for a normalised form. Sentence splitting knows the abbreviations
//! that end in a full stop without ending a sentence ("Mr.", "Dr.", "e.g.", initials) and
//! keeps closing quotes with the sentence they close.

use std::borrow::Cow;
use std::ops::Range;

use quire_english::WordList;
use unicode_segmentation::UnicodeSegmentation;

/// Byte ranges of the paragraphs of `text`: runs of lines separated by blank lines,
/// trimmed of surrounding whitespace, never empty.
pub fn paragraph_spans(text: &str) -> Vec<Range<usize>> {
    let mut spans = Vec::new();
    let mut start: Option<usize> = None;
    let mut end = 0;
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim();
        if trimmed.is_empty() {
            if let Some(s) = start.take() {
                push_trimmed(text, s..end, &mut spans);
            }
        } else {
            if start.is_none() {
                start = Some(offset);
            }
            end = offset + line.len();
        }
        offset += line.len();
    }
    if let Some(s) = start {
        push_trimmed(text, s..end, &mut spans);
    }
    spans
}

/// The paragraphs of `text` (see [`paragraph_spans`]).
pub fn paragraphs(text: &str) -> Vec<&str> {
    paragraph_spans(text)
        .into_iter()
        .map(|r| &text[r])
        .collect()
}

/// Byte ranges of the sentences of `text`, in order, trimmed, never empty. A paragraph
/// break always ends a sentence; a single line break never does.
pub fn sentence_spans(text: &str) -> Vec<Range<usize>> {
    let mut spans = Vec::new();
    for para in paragraph_spans(text) {
        split_paragraph(text, para, &mut spans);
    }
    spans
}

/// The sentences of `text` (see [`sentence_spans`]).
pub fn sentences(text: &str) -> Vec<&str> {
    sentence_spans(text).into_iter().map(|r| &text[r]).collect()
}

/// The words of `text` (Unicode word boundaries: "don't", "Ahab's" and "3.5" are one word
/// each, hyphens and dashes separate words), with surrounding underscores (plain-text
/// italics) removed.
pub fn words(text: &str) -> impl Iterator<Item = &str> {
    text.unicode_words()
        .map(|w| w.trim_matches('_'))
        .filter(|w| !w.is_empty())
}

/// Byte ranges of the words of `text` (same words as [`words`]).
pub fn word_spans(text: &str) -> impl Iterator<Item = Range<usize>> + '_ {
    text.unicode_word_indices().filter_map(|(at, w)| {
        let lead = w.len() - w.trim_start_matches('_').len();
        let core = w.trim_matches('_');
        (!core.is_empty()).then(|| at + lead..at + lead + core.len())
    })
}

/// The normalised form of a word: lowercase, with typographic apostrophes made plain.
pub fn normalise(word: &str) -> Cow<'_, str> {
    let plain = word
        .chars()
        .all(|c| !c.is_uppercase() && c != '\u{2019}' && c != '\u{2018}');
    if plain {
        return Cow::Borrowed(word);
    }
    Cow::Owned(
        word.chars()
            .map(|c| {
                if c == '\u{2019}' || c == '\u{2018}' {
                    '\''
                } else {
                    c
                }
            })
            .flat_map(char::to_lowercase)
            .collect(),
    )
}

/// `word` without a possessive ending: "Ahab's" gives "Ahab", "Jones'" gives "Jones".
pub fn strip_possessive(word: &str) -> &str {
    for suffix in ["'s", "\u{2019}s", "'S", "\u{2019}S"] {
        if let Some(base) = word.strip_suffix(suffix)
            && !base.is_empty()
        {
            return base;
        }
    }
    for suffix in ["'", "\u{2019}"] {
        if let Some(base) = word.strip_suffix(suffix)
            && base.ends_with(['s', 'S'])
        {
            return base;
        }
    }
    word
}

/// Whether the word starts with an uppercase letter.
pub fn is_capitalised(word: &str) -> bool {
    word.chars().next().is_some_and(char::is_uppercase)
}

/// Whether the word has at least one letter and no digits.
pub fn is_alphabetic_word(word: &str) -> bool {
    word.chars().any(char::is_alphabetic) && !word.chars().any(|c| c.is_ascii_digit())
}

/// Whether a normalised (lowercase) word is an English stop word: a function word that
/// carries no topic ("the", "of", "would", "don't"). The list is the platform's
/// (quire-english), so the analysis's tags and the shop's search agree on it.
pub use quire_english::is_stop_word;

/// The Porter2 (Snowball English) stem of a normalised word: "whales" and "whale" share one.
pub fn stem(lower: &str) -> String {
    thread_local! {
        static STEMMER: rust_stemmers::Stemmer =
            rust_stemmers::Stemmer::create(rust_stemmers::Algorithm::English);
    }
    STEMMER.with(|s| s.stem(lower).into_owned())
}

/// The number of syllables of an English word, by vowel groups with the usual corrections
/// (silent final "e", "-ed" after most consonants, "-es"); at least 1 for any word with a
/// letter, 0 otherwise. Close enough for readability formulas, which is all it is for.
pub fn syllables(word: &str) -> usize {
    let w: Vec<u8> = word
        .chars()
        .filter(char::is_ascii_alphabetic)
        .map(|c| c.to_ascii_lowercase() as u8)
        .collect();
    if w.is_empty() {
        // Non-Latin words still take time to read: count one per word.
        return usize::from(word.chars().any(char::is_alphabetic));
    }
    if w.len() <= 3 {
        return 1;
    }
    let is_vowel = |i: usize| match w[i] {
        b'a' | b'e' | b'i' | b'o' | b'u' => true,
        b'y' => i > 0,
        _ => false,
    };
    let mut count = 0usize;
    let mut previous = false;
    for i in 0..w.len() {
        let v = is_vowel(i);
        if v && !previous {
            count += 1;
        }
        previous = v;
    }
    let n = w.len();
    let consonant_before = |back: usize| n > back && !is_vowel(n - 1 - back);
    if w[n - 1] == b'e' && consonant_before(1) && !(w[n - 2] == b'l' && consonant_before(2)) {
        count = count.saturating_sub(1); // "make", but not "table"
    } else if w.ends_with(b"ed") && !matches!(w[n - 3], b't' | b'd') && consonant_before(2) {
        count = count.saturating_sub(1); // "jumped", but not "wanted"
    } else if w.ends_with(b"es")
        && consonant_before(2)
        && !matches!(w[n - 3], b's' | b'x' | b'z' | b'c' | b'g' | b'h')
    {
        count = count.saturating_sub(1); // "makes", but not "boxes"
    }
    count.max(1)
}

fn push_trimmed(text: &str, range: Range<usize>, out: &mut Vec<Range<usize>>) {
    let slice = &text[range.clone()];
    let lead = slice.len() - slice.trim_start().len();
    let trimmed = slice.trim();
    if !trimmed.is_empty() {
        let start = range.start + lead;
        out.push(start..start + trimmed.len());
    }
}

fn is_terminator(c: char) -> bool {
    matches!(c, '.' | '!' | '?' | '\u{2026}')
}

fn is_closer(c: char) -> bool {
    matches!(
        c,
        '"' | '\'' | '\u{201D}' | '\u{2019}' | ')' | ']' | '\u{BB}' | '_' | '*'
    )
}

fn split_paragraph(text: &str, para: Range<usize>, out: &mut Vec<Range<usize>>) {
    let body = &text[para.clone()];
    let chars: Vec<(usize, char)> = body.char_indices().collect();
    let mut start = 0usize;
    let mut i = 0usize;
    while i < chars.len() {
        let (at, c) = chars[i];
        if !is_terminator(c) {
            i += 1;
            continue;
        }
        let mut j = i + 1;
        while j < chars.len() && is_terminator(chars[j].1) {
            j += 1;
        }
        while j < chars.len() && is_closer(chars[j].1) {
            j += 1;
        }
        let end = chars.get(j).map_or(body.len(), |&(b, _)| b);
        // "frock.—Ahab comes": a dash straight after the stop starts the next sentence.
        if chars.get(j).is_some_and(|&(_, d)| d == '\u{2014}')
            && chars.get(j + 1).is_some_and(|&(_, n)| n.is_uppercase())
        {
            push_trimmed(text, para.start + start..para.start + end, out);
            start = chars[j + 1].0;
            i = j + 1;
            continue;
        }
        let mut k = j;
        while k < chars.len() && chars[k].1.is_whitespace() {
            k += 1;
        }
        let followed_by_space = k > j;
        let next = chars.get(k).map(|&(_, c)| c);
        let ends = match next {
            None => true,
            Some(_) if !followed_by_space => false,
            Some(n) if n.is_lowercase() => false,
            Some(n) => !(c == '.' && j == i + 1 && is_abbreviation(&body[..at], n)),
        };
        if ends {
            push_trimmed(text, para.start + start..para.start + end, out);
            start = end;
        }
        i = j.max(i + 1);
    }
    push_trimmed(text, para.start + start..para.end, out);
}

/// Whether the full stop after `before` belongs to an abbreviation that does not end a
/// sentence when `next` follows.
fn is_abbreviation(before: &str, next: char) -> bool {
    let token_start = before
        .rfind(|c: char| !(c.is_alphabetic() || c == '.'))
        .map_or(0, |p| {
            p + before[p..].chars().next().map_or(1, char::len_utf8)
        });
    let token = &before[token_start..];
    if token.is_empty() {
        return false;
    }
    let mut letters = token.chars();
    // A lone capital is an initial ("J. R. Hartley"); "e.g" and "U.S" are dotted.
    if letters.next().is_some_and(char::is_uppercase) && letters.next().is_none() {
        return true;
    }
    let lower = token.to_lowercase();
    if lower == "no" || lower == "nos" || lower == "p" || lower == "pp" {
        return next.is_ascii_digit();
    }
    ABBREVIATIONS.contains(&lower)
}

/// Abbreviations that are followed by a name or a number rather than a new sentence,
/// (data/lists). "etc." is not there: it usually ends its sentence.
static ABBREVIATIONS: WordList = WordList::new(include_str!("../data/lists/abbreviations.txt"));

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_abbreviations_are_sorted_for_binary_search() {
        assert!(ABBREVIATIONS.is_sorted());
    }

    #[test]
    fn paragraphs_split_on_blank_lines_only() {
        let text = "  One line\nstill one.\n\n \r\n Two.\n\n\n";
        assert_eq!(paragraphs(text), vec!["One line\nstill one.", "Two."]);
        assert!(paragraphs("").is_empty());
        assert!(paragraphs("\n \n").is_empty());
    }

    #[test]
    fn sentences_respect_abbreviations_initials_and_quotes() {
        let text = "Mr. Smith met Dr. Jones at 3.30 p.m. on St. Mark's day, e.g. at noon. \
                    \"Is it you?\" he asked. \"Run!\" She ran. J. R. Hartley wrote it.";
        assert_eq!(
            sentences(text),
            vec![
                "Mr. Smith met Dr. Jones at 3.30 p.m. on St. Mark's day, e.g. at noon.",
                "\"Is it you?\" he asked.",
                "\"Run!\"",
                "She ran.",
                "J. R. Hartley wrote it.",
            ]
        );
    }

    #[test]
    fn sentences_end_at_paragraph_breaks_and_text_end() {
        let text = "CHAPTER 1\n\nIt was dark. It rained\n\nThe end";
        assert_eq!(
            sentences(text),
            vec!["CHAPTER 1", "It was dark.", "It rained", "The end"]
        );
        assert_eq!(
            sentences("Wait... what? Yes!"),
            vec!["Wait... what?", "Yes!"]
        );
        assert_eq!(sentences("See No. 5 and go."), vec!["See No. 5 and go."]);
        assert_eq!(
            sentences("He left.\u{2014}Ahab came."),
            vec!["He left.", "Ahab came."]
        );
        assert_eq!(
            sentences("So\u{2014}Ahab came."),
            vec!["So\u{2014}Ahab came."]
        );
    }

    #[test]
    fn sentence_spans_point_into_the_text() {
        let text = "Ünïcode first. “Quoted,” she said. Done.";
        for span in sentence_spans(text) {
            assert!(text.get(span.clone()).is_some());
        }
        assert_eq!(
            sentences(text),
            vec!["Ünïcode first.", "“Quoted,” she said.", "Done."]
        );
    }

    #[test]
    fn words_keep_apostrophes_and_drop_punctuation() {
        let got: Vec<&str> = words("Don't stop—Ahab’s sea-captain _said_ 3.5 times.").collect();
        assert_eq!(
            got,
            vec![
                "Don't", "stop", "Ahab’s", "sea", "captain", "said", "3.5", "times"
            ]
        );
        let text = "_Hello_, world";
        let spans: Vec<&str> = word_spans(text).map(|r| &text[r]).collect();
        assert_eq!(spans, vec!["Hello", "world"]);
    }

    #[test]
    fn normal_forms() {
        assert_eq!(normalise("Ahab’S"), "ahab's");
        assert!(matches!(normalise("plain"), Cow::Borrowed(_)));
        assert_eq!(strip_possessive("Ahab's"), "Ahab");
        assert_eq!(strip_possessive("Jones’"), "Jones");
        assert_eq!(strip_possessive("'s"), "'s");
        assert_eq!(strip_possessive("sea"), "sea");
        assert!(is_capitalised("Émile") && !is_capitalised("émile"));
        assert!(is_alphabetic_word("don't") && !is_alphabetic_word("3rd"));
        assert_eq!(stem("whales"), stem("whale"));
        assert!(is_stop_word("the") && is_stop_word("don't") && !is_stop_word("whale"));
    }

    #[test]
    fn syllable_counts_are_close_to_a_dictionary() {
        let cases = [
            ("the", 1),
            ("whale", 1),
            ("table", 2),
            ("reading", 2),
            ("beautiful", 3),
            ("jumped", 1),
            ("wanted", 2),
            ("makes", 1),
            ("boxes", 2),
            ("syllable", 3),
            ("Ahab", 2),
            ("yellow", 2),
            ("", 0),
            ("42", 0),
            ("мир", 1),
        ];
        for (word, expected) in cases {
            assert_eq!(syllables(word), expected, "{word}");
        }
    }
}
