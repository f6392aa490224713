//! What a sentence offers a summary by its shape alone: whether it reads as a complete
//! statement out of context, how much it leans on the sentence before it, how readable
//! its length is, and how it is printed in a summary (as prose, as verse, after a
//! connective such as "Later,").

use crate::text;

const MIN_WORDS: usize = 6;
const MAX_WORDS: usize = 60;

/// Whether a sentence reads as a complete statement out of context.
pub(super) fn is_candidate(sentence: &str, words: usize) -> bool {
    if !(MIN_WORDS..=MAX_WORDS).contains(&words) {
        return false;
    }
    // Quotation marks mean dialogue; "!" and "?" inside mean speech without them.
    if sentence.contains(['"', '\u{201C}', '\u{201D}', '\u{2018}', '!', '?'])
        || has_single_quotes(sentence)
    {
        return false;
    }
    let Some(first) = sentence.trim_start_matches(['_', '*']).chars().next() else {
        return false;
    };
    if !first.is_uppercase() {
        return false;
    }
    let head: String = sentence.chars().take(8).collect::<String>().to_lowercase();
    if head.starts_with("chapter")
        || head.starts_with("book ")
        || head.starts_with("part ")
        || sentence.contains("CHAPTER")
    {
        return false;
    }
    let upper = sentence.chars().filter(|c| c.is_uppercase()).count();
    let letters = sentence.chars().filter(|c| c.is_alphabetic()).count();
    if upper * 3 > letters {
        return false;
    }
    let end = sentence.trim_end_matches(['\'', '\u{2019}', ')', '_', '*']);
    end.ends_with('.') && !end.ends_with("...")
}

/// Whether single quotation marks open or close a speech in the sentence: a "'" or "’"
/// at its start, after a space, or after punctuation ("all.'"), as opposed to an
/// apostrophe inside or at the end of a word ("don't", "the Cratchits' ").
fn has_single_quotes(sentence: &str) -> bool {
    let mut before: Option<char> = None;
    for c in sentence.chars() {
        if matches!(c, '\'' | '\u{2019}')
            && before.is_none_or(|b| b.is_whitespace() || ".,;:!?-\u{2014}".contains(b))
        {
            return true;
        }
        before = Some(c);
    }
    false
}

/// Whether a sentence shouts or lists: a word of three capitals or more ("SNITCHEY AND
/// CRAGGS", a masque's "LADY"), roman numerals aside, or as many capitalised words as
/// not (a cast list: "Lords, Ladies, Officers, and Attendants").
pub(super) fn is_shouting_or_a_list<'w>(words: impl Iterator<Item = &'w str>) -> bool {
    let (mut all, mut capitals) = (0usize, 0usize);
    for w in words {
        all += 1;
        if !text::is_capitalised(w) {
            continue;
        }
        capitals += 1;
        let shout = w.chars().filter(|c| c.is_alphabetic()).count() >= 3
            && !w.chars().any(char::is_lowercase)
            && !w.chars().all(|c| "IVXLCDM".contains(c));
        if shout {
            return true;
        }
    }
    2 * capitals >= all
}

/// How well a sentence stands without the one before it: openings that lean on it
/// ("But", "However", "On the contrary") weigh 0.4, openings with a pronoun ("He",
/// "This") 0.7, others 1.
pub(super) fn context_weight(sentence: &str) -> f32 {
    let mut words = sentence
        .split(|c: char| !c.is_alphabetic())
        .filter(|w| !w.is_empty());
    let first = words.next().unwrap_or("");
    let second = words.next().unwrap_or("");
    let connective = matches!(
        first,
        "And"
            | "But"
            | "Or"
            | "So"
            | "Yet"
            | "Nor"
            | "For"
            | "Then"
            | "Thus"
            | "However"
            | "Moreover"
            | "Besides"
            | "Still"
            | "Nevertheless"
            | "Hence"
            | "Therefore"
            | "Again"
            | "Also"
            | "Instead"
            | "Otherwise"
            | "Meanwhile"
            | "Meantime"
            | "Nay"
    ) || (first == "On" && second == "the")
        || (first == "In" && second == "fact")
        || (first == "Of" && second == "course");
    let pronoun = matches!(
        first,
        "He" | "She"
            | "It"
            | "They"
            | "His"
            | "Her"
            | "Its"
            | "Their"
            | "This"
            | "These"
            | "Those"
            | "That"
            | "Him"
            | "Them"
    );
    if connective {
        0.4
    } else if pronoun {
        0.7
    } else {
        1.0
    }
}

/// Sentences of 12 to 35 words read best in a summary; shorter and longer ones weigh
/// less.
pub(super) fn readable_length(words: usize) -> f32 {
    match words {
        12..=35 => 1.0,
        0..12 => 0.6 + 0.4 * words as f32 / 12.0,
        _ => (35.0 / words as f32).powf(1.5),
    }
}

/// A sentence as running prose: line breaks and runs of spaces become one space, and
/// plain-text italics markers go.
pub(super) fn prose(sentence: &str) -> String {
    sentence
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace('_', "")
}

/// Whether a sentence of a play is a stage direction ("Enter Hamlet.", "Exeunt all but
/// Brutus.") rather than part of a speech.
pub(super) fn is_stage_direction(sentence: &str) -> bool {
    let first = sentence
        .trim_start_matches(['[', '(', '_', ' '])
        .split(|c: char| !c.is_alphabetic() && c != '-')
        .next()
        .unwrap_or("");
    matches!(
        first,
        "Enter" | "Exit" | "Exeunt" | "Manet" | "Re-enter" | "Flourish" | "Alarum" | "Scene"
    ) || sentence.contains("Enter ")
        || sentence.starts_with("The Scene")
}

/// A sentence of verse as a summary quotes it: its lines joined by " / ".
pub(super) fn verse(sentence: &str) -> String {
    sentence
        .lines()
        // Editions number every tenth line ("throne, 240"); the number is no verse.
        .map(|l| l.trim_end().trim_end_matches(|c: char| c.is_ascii_digit()))
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(" / ")
        .replace('_', "")
}

/// `sentence` (as prose) after a connective such as "Later,": the sentence's first word
/// is lowercased when it is a function word ("The", "When"), which is safe; a name or "I"
/// keeps its capital, so the connective is left out rather than risk "later, i", and so it
/// is before a pronoun ("He", "It"), which would seem to mean whoever was named last.
pub(super) fn after_connective(connective: &str, sentence: &str) -> String {
    let first_len = sentence
        .find(|c: char| !c.is_alphabetic())
        .unwrap_or(sentence.len());
    let first = &sentence[..first_len];
    let lower = first.to_lowercase();
    // A pronoun after "Later," would seem to mean someone named before it.
    let pronoun = matches!(
        lower.as_str(),
        "he" | "she"
            | "it"
            | "they"
            | "his"
            | "her"
            | "its"
            | "their"
            | "him"
            | "them"
            | "we"
            | "you"
            | "our"
            | "my"
            | "this"
            | "these"
            | "those"
            | "that"
    );
    if first.is_empty() || first == "I" || pronoun || !text::is_stop_word(&lower) {
        return sentence.to_owned();
    }
    format!("{connective} {lower}{}", &sentence[first_len..])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn candidates_are_complete_narrative_sentences() {
        assert!(is_candidate(
            "The ship sailed out of the harbour at dawn.",
            9
        ));
        assert!(!is_candidate("\"Come here,\" said Ahab to the mate.", 7));
        assert!(!is_candidate(
            "CHAPTER 12. The Whale and the Sea and More.",
            9
        ));
        assert!(!is_candidate(
            "the ship sailed out of the harbour at dawn.",
            9
        ));
        assert!(!is_candidate(
            "Why did the ship sail out of the harbour?",
            9
        ));
        assert!(!is_candidate(
            "No, no; stay on board!\u{2014}lower not when I do.",
            9
        ));
        assert!(!is_candidate(
            "He sang \u{2018}wise Stubb\u{2019} over and over again.",
            9
        ));
        assert!(!is_candidate("Short one.", 2));
    }

    #[test]
    fn prose_joins_lines_and_drops_italic_marks() {
        assert_eq!(
            prose("The _Pequod_ sailed\n  at dawn."),
            "The Pequod sailed at dawn."
        );
    }
}
