//! Main characters: the proper names that act as people, most prominent first.
//!
//! A word is a name candidate when it is capitalised where a sentence does not start (or
//! a quotation opens), is not a stop word or title, and the text rarely writes it in
//! lowercase (so "Whale" in a heading does not count when "whale" fills the book). The
//! heuristics that tell people from places and things:
//! - person evidence: a title before it ("Mr", "Captain", "Aunt") or a speech or person
//!   verb next to it ("said Stubb", "Ahab cried");
//! - thing evidence: "the" or a place preposition ("in", "at", "from", "into", ...)
//!   before it, as in "the Pequod" or "in Nantucket";
//! - [`NOT_PEOPLE`]: days, months, deities, nationalities and languages, which are
//!   capitalised everywhere but are never characters.
//!
//! Names written as two words almost every time ("Moby Dick") are reported as such.

use rustc_hash::FxHashMap;

use crate::doc::Doc;
use crate::text;
use quire_english::WordList;

/// Most characters reported.
const MAX_CHARACTERS: usize = 10;
/// A character's score must reach this share of the leading character's.
const MIN_SHARE: f32 = 0.08;

/// A main character.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Character {
    /// The name as usually written, e.g. "Ahab" or "Moby Dick".
    pub name: String,
    /// Word ids of the name's words.
    pub words: Vec<u32>,
}

#[derive(Default, Clone)]
struct Counts {
    mid: u32,
    start: u32,
    person: u32,
    thing: u32,
    spelling: FxHashMap<String, u32>,
}

/// The main characters of `doc`, most prominent first.
pub(crate) fn main_characters(doc: &Doc) -> Vec<Character> {
    let mut lower = vec![0u32; doc.vocab.len()];
    let mut counts: FxHashMap<u32, Counts> = FxHashMap::default();
    let mut pairs: FxHashMap<(u32, u32), u32> = FxHashMap::default();
    for sentence in &doc.sentences {
        let tokens = doc.sentence_tokens(sentence);
        let mut previous_name: Option<u32> = None;
        for (p, token) in tokens.iter().enumerate() {
            let raw = doc.raw(token);
            if !text::is_capitalised(raw) {
                lower[token.word as usize] += 1;
                previous_name = None;
                continue;
            }
            let base = text::strip_possessive(raw);
            let Some(id) = name_id(doc, base) else {
                previous_name = None;
                continue;
            };
            let c = counts.entry(id).or_default();
            let starts = p == 0 || after_opening(doc.text, token.start());
            if starts {
                c.start += 1
            } else {
                c.mid += 1
            }
            *c.spelling.entry(base.to_owned()).or_default() += 1;
            let before = p.checked_sub(1).map(|q| doc.vocab.form(tokens[q].word));
            let after = tokens.get(p + 1).map(|t| doc.vocab.form(t.word));
            if before.is_some_and(is_title)
                || before.is_some_and(is_person_verb)
                || after.is_some_and(is_person_verb)
            {
                c.person += 1;
            }
            if before.is_some_and(|b| b == "the" || PLACE_PREPOSITIONS.contains(&b)) {
                c.thing += 1;
            }
            if let Some(prev) = previous_name {
                *pairs.entry((prev, id)).or_default() += 1;
            }
            previous_name = (base.len() == raw.len()).then_some(id);
        }
    }
    rank(doc, &lower, counts, &pairs)
}

fn rank(
    doc: &Doc,
    lower: &[u32],
    counts: FxHashMap<u32, Counts>,
    pairs: &FxHashMap<(u32, u32), u32>,
) -> Vec<Character> {
    let mut scored: Vec<(u32, f32, Counts)> = counts
        .into_iter()
        .filter_map(|(id, c)| {
            let total = (c.mid + c.start) as f32;
            let thing = c.thing as f32 / total;
            let person = c.person as f32 / total;
            let lowercase = lower.get(id as usize).copied().unwrap_or(0) as f32;
            let keep = (c.mid >= 2 || c.person >= 2)
                && total >= 3.0
                && lowercase * 4.0 <= total
                && (thing <= 0.25 || person >= 0.1);
            let score =
                (c.mid as f32 + 0.3 * c.start as f32) * (1.0 + 3.0 * person) * (1.0 - thing);
            keep.then_some((id, score, c))
        })
        .collect();
    scored.sort_by(|a, b| {
        b.1.total_cmp(&a.1)
            .then_with(|| doc.vocab.form(a.0).cmp(doc.vocab.form(b.0)))
    });
    let top = scored.first().map_or(0.0, |s| s.1);
    let mut absorbed: Vec<u32> = Vec::new();
    let mut out = Vec::new();
    for (id, score, c) in &scored {
        if out.len() == MAX_CHARACTERS || *score < top * MIN_SHARE {
            break;
        }
        if absorbed.contains(id) {
            continue;
        }
        let total = c.mid + c.start;
        let mut words = vec![*id];
        let mut name = usual_spelling(&c.spelling);
        // A name that is nearly always one half of the same pair is reported as the pair.
        let partner = pairs
            .iter()
            .filter(|((a, b), n)| (*a == *id || *b == *id) && **n * 10 >= total * 6 && a != b)
            .max_by_key(|((a, b), n)| (**n, std::cmp::Reverse((*a, *b))));
        if let Some(((a, b), _)) = partner {
            let other = if a == id { *b } else { *a };
            if let Some((_, _, oc)) = scored.iter().find(|s| s.0 == other) {
                let other_name = usual_spelling(&oc.spelling);
                name = if a == id {
                    format!("{name} {other_name}")
                } else {
                    format!("{other_name} {name}")
                };
                words.push(other);
                absorbed.push(other);
            }
        }
        if out
            .iter()
            .any(|c: &Character| c.words.iter().any(|w| words.contains(w)))
        {
            continue;
        }
        out.push(Character { name, words });
    }
    out
}

fn usual_spelling(spelling: &FxHashMap<String, u32>) -> String {
    spelling
        .iter()
        .max_by(|a, b| a.1.cmp(b.1).then_with(|| b.0.cmp(a.0)))
        .map(|(s, _)| s.clone())
        .unwrap_or_default()
}

/// The word id of a capitalised word that could be a name.
fn name_id(doc: &Doc, base: &str) -> Option<u32> {
    if base.chars().count() < 2
        || !base
            .chars()
            .all(|c| c.is_alphabetic() || c == '\'' || c == '\u{2019}')
    {
        return None;
    }
    // All capitals is a heading or shouting, not how a name is written in running text.
    if base.chars().all(char::is_uppercase) {
        return None;
    }
    let lower = text::normalise(base);
    if text::is_stop_word(&lower) || is_title(&lower) || NOT_PEOPLE.contains(&lower) {
        return None;
    }
    doc.vocab.id(&lower)
}

/// Whether the word at `at` follows an opening quotation mark or a colon.
fn after_opening(text: &str, at: usize) -> bool {
    text.get(..at)
        .and_then(|before| before.trim_end().chars().next_back())
        .is_some_and(|c| matches!(c, '"' | '\u{201C}' | '\u{2018}' | ':' | '(' | '['))
}

fn is_title(lower: &str) -> bool {
    TITLES.contains(lower)
}

fn is_person_verb(lower: &str) -> bool {
    PERSON_VERBS.contains(lower)
}

const PLACE_PREPOSITIONS: &[&str] = &[
    "across", "around", "at", "from", "in", "into", "near", "through", "toward", "towards",
    "within",
];

/// Words that come before a person's name (data/lists).
static TITLES: WordList = WordList::new(include_str!("../data/lists/titles.txt"));

/// Verbs that people do right before or after their name (data/lists).
static PERSON_VERBS: WordList = WordList::new(include_str!("../data/lists/person_verbs.txt"));

/// Capitalised words that are never characters (data/lists; see the module comment).
static NOT_PEOPLE: WordList = WordList::new(include_str!("../data/lists/not_people.txt"));

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn word_lists_are_sorted() {
        assert!(TITLES.is_sorted() && PERSON_VERBS.is_sorted() && NOT_PEOPLE.is_sorted());
    }

    fn names(text: &str) -> Vec<String> {
        main_characters(&Doc::single(text))
            .into_iter()
            .map(|c| c.name)
            .collect()
    }

    #[test]
    fn people_are_found_and_places_days_and_gods_are_not() {
        let text = "On Monday Captain Hale sailed from Boston. \"Hoist the sail,\" said Hale. \
            The crew obeyed Hale at once. Later Nora asked Hale about Boston. \
            In Boston the bells rang for God and for Monday. Nora smiled at the sea. \
            They had lived in Boston since June, and Nora laughed at the June rain. \
            Hale knew the sea. Hale turned to Nora.";
        let found = names(text);
        assert_eq!(found.first().map(String::as_str), Some("Hale"), "{found:?}");
        assert!(found.contains(&"Nora".to_owned()), "{found:?}");
        for not in ["Boston", "Monday", "God", "June", "Captain"] {
            assert!(!found.iter().any(|f| f == not), "{not} in {found:?}");
        }
    }

    #[test]
    fn two_word_names_stay_together() {
        let text = "They hunted Moby Dick for years. Ahab cursed Moby Dick. \
            The men feared Moby Dick. Ahab said little. Ahab cried out. All saw Moby Dick rise.";
        let found = names(text);
        assert!(found.contains(&"Moby Dick".to_owned()), "{found:?}");
        assert!(found.contains(&"Ahab".to_owned()), "{found:?}");
        assert!(!found.contains(&"Dick".to_owned()), "{found:?}");
    }

    #[test]
    fn common_nouns_capitalised_for_emphasis_are_not_names() {
        let text = "the whale swam. a whale dived. the whale rose. the whale sank. \
            They saw the Whale. All feared the Whale. One whale, two whale.";
        assert!(names(text).is_empty());
    }
}
