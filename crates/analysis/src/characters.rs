//! Main characters: the proper names that act as people, the protagonist first.
//!
//! A word is a name candidate when it is capitalised where a sentence does not start (or
//! a quotation opens), is not a stop word or title, and the text rarely writes it in
//! lowercase (so "Whale" in a heading does not count when "whale" fills the book). The
//! heuristics that tell people from places and things:
//! - person evidence: a title before it ("Mr", "Captain", "Aunt"), a speech or person
//!   verb next to it ("said Stubb", "Ahab cried", "said the Mole"), or speaking in a play;
//! - thing evidence: "the" or a place preposition ("in", "at", "from", "into", ...)
//!   before it, as in "the Pequod" or "in Nantucket"; a ruler's title and "of" before it
//!   ("King of Naples", "Duke of Milan"); a street word after it ("Mill Lane");
//!   "his", "your" before it ("his Grace");
//! - never names: [`NOT_PEOPLE`] (days, months, deities, nationalities and languages),
//!   titles of address ("Majesty", "Highness"), numbers written as words ("Four"),
//!   plurals of titles and of common nouns ("Lords", "Commons"), and [`GAZETTEER`]'s
//!   countries, continents and capitals unless the text treats one as a person ("Paris"
//!   speaking in Romeo and Juliet).
//!
//! Who comes first is who the story follows, not who is named most:
//! - a name counts more the more of the book it spreads over (how many of 20 equal
//!   stretches it appears in);
//! - in a play (speakers' names at line starts, "HAMLET." or "Ham."), the speaker who
//!   speaks the most words comes first;
//! - in a book told mostly in the first person, the narrator comes first: the name the
//!   other characters call the narrator by, found as the name most often addressed in the
//!   dialogue of the first-person chapters and seldom used in their narration.
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
/// Stretches a book is cut into to measure how much of it a name spreads over.
const STRETCHES: usize = 20;
/// A chapter is told in the first person when at least this share of its narration's
/// words (outside quotations) are "I", "me" or "my"...
const FIRST_PERSON_RATE: f32 = 0.04;
/// ... and a book is, when its first-person chapters hold at least this share of its words.
const FIRST_PERSON_SHARE: f32 = 0.3;

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
    thing: f32,
    /// Stretches of the book it appears in (bit per stretch).
    stretches: u32,
    /// Occurrences inside quotations, and as a form of address there ("..., Esther,").
    quoted: u32,
    addressed: u32,
    /// Occurrences in first-person chapters: all, and addressed in their dialogue.
    first_person: u32,
    addressed_first_person: u32,
    spelling: FxHashMap<String, u32>,
}

/// The main characters of `doc`, the protagonist first. Outside a play, the one `title`
/// names comes first (see [`title_first`]); in a play the largest part does, since a
/// play may be named after the one it is about rather than the one it follows (Julius
/// Caesar dies in the third act; Brutus has the largest part).
pub(crate) fn main_characters(doc: &Doc, title: &str) -> Vec<Character> {
    let quoted = quotation_marks(doc);
    let first_person = first_person_chapters(doc, &quoted);
    let total_tokens = doc.tokens.len().max(1);
    let speakers = speakers(doc.text);
    let play = !speakers.is_empty();
    let mut lower = vec![0u32; doc.vocab.len()];
    let mut counts: FxHashMap<u32, Counts> = FxHashMap::default();
    let mut pairs: FxHashMap<(u32, u32), u32> = FxHashMap::default();
    for sentence in &doc.sentences {
        let tokens = doc.sentence_tokens(sentence);
        let in_first_person = first_person.get(sentence.chapter).copied().unwrap_or(false);
        let mut previous_name: Option<u32> = None;
        for (p, token) in tokens.iter().enumerate() {
            let raw = doc.raw(token);
            if !text::is_capitalised(raw) {
                lower[token.word as usize] += 1;
                previous_name = None;
                continue;
            }
            let base = text::strip_possessive(raw);
            let Some(id) = name_id(doc, base).filter(|_| !(play && is_speaker(doc.text, token)))
            else {
                previous_name = None;
                continue;
            };
            let index = sentence.tokens.start + p;
            let c = counts.entry(id).or_default();
            let starts = p == 0 || after_opening(doc.text, token.start());
            if starts {
                c.start += 1
            } else {
                c.mid += 1
            }
            c.stretches |= 1 << (index * STRETCHES / total_tokens).min(STRETCHES - 1);
            *c.spelling.entry(base.to_owned()).or_default() += 1;
            let form = |q: Option<usize>| q.map(|q| doc.vocab.form(tokens[q].word));
            let before = form(p.checked_sub(1));
            let before2 = form(p.checked_sub(2));
            let after = tokens.get(p + 1).map(|t| doc.vocab.form(t.word));
            let person_verb = before.is_some_and(is_person_verb)
                || after.is_some_and(is_person_verb)
                || (before == Some("the") && before2.is_some_and(is_person_verb));
            if before.is_some_and(is_title) || person_verb {
                c.person += 1;
            }
            if !person_verb {
                c.thing += thing_evidence(before, before2, after);
            }
            if quoted.get(index).copied().unwrap_or(false) {
                c.quoted += 1;
                let addressed = is_addressed(doc.text, token, before);
                c.addressed += u32::from(addressed);
                if in_first_person {
                    c.addressed_first_person += u32::from(addressed);
                }
            }
            if in_first_person {
                c.first_person += 1;
            }
            if let Some(prev) = previous_name {
                *pairs.entry((prev, id)).or_default() += 1;
            }
            previous_name = (base.len() == raw.len()).then_some(id);
        }
    }
    let first_person_words: usize = doc
        .chapters
        .iter()
        .zip(&first_person)
        .filter(|(_, f)| **f)
        .map(|(c, _)| c.tokens.len())
        .sum();
    let told_by_narrator = first_person_words as f32 >= FIRST_PERSON_SHARE * total_tokens as f32;
    let mut people = rank(doc, &lower, counts, &pairs, &speakers, told_by_narrator);
    if !play {
        title_first(&mut people, title);
    }
    people
}

/// Whether a word is a speaker's name before a speech ("Ham. To be", "Romeo." alone):
/// at a line's start and followed by a full stop.
fn is_speaker(text: &str, token: &crate::doc::Token) -> bool {
    let line_start = text
        .get(..token.start())
        .map(|before| before.trim_end_matches([' ', '\t']))
        .is_some_and(|before| before.is_empty() || before.ends_with('\n'));
    line_start
        && text
            .get(token.end()..)
            .is_some_and(|after| after.starts_with('.'))
}

/// How much the words around a name say it is a place or a thing.
fn thing_evidence(before: Option<&str>, before2: Option<&str>, after: Option<&str>) -> f32 {
    let mut thing = 0.0;
    match before {
        Some("the") => thing += 1.0,
        Some("of") if before2.is_some_and(|w| RULERS.contains(&w)) => thing += 3.0,
        Some(b) if PLACE_PREPOSITIONS.contains(&b) => thing += 1.0,
        // "his Grace", "your Honour": a title of address, not a name.
        Some("his" | "her" | "your" | "their") => thing += 1.0,
        _ => {}
    }
    if after.is_some_and(|a| PLACE_NOUNS.contains(&a)) {
        thing += 1.0;
    }
    thing
}

/// Whether a quoted name is a form of address: followed by a comma, "!" or "?", or
/// ending the speech ("Thank you, Esther."), or after "dear" ("My dear Copperfield").
fn is_addressed(text: &str, token: &crate::doc::Token, before: Option<&str>) -> bool {
    let rest = text.get(token.end()..).unwrap_or("");
    let rest = rest
        .strip_prefix("'s")
        .or_else(|| rest.strip_prefix("\u{2019}s"))
        .unwrap_or(rest);
    let mut next = rest.chars();
    let first = next.next();
    let ends_speech = first == Some('.')
        && next
            .next()
            .is_some_and(|c| matches!(c, '"' | '\'' | '\u{201D}' | '\u{2019}'));
    first.is_some_and(|c| matches!(c, ',' | '!' | '?'))
        || ends_speech
        || matches!(first, Some('"' | '\u{201D}'))
        || before == Some("dear")
}

/// For every token, whether it is inside a quotation. Double quotes open and close in
/// turn (curly ones say which they are); in a text that quotes with single marks
/// ('Yes,' said he), a mark before a letter opens and one after a word closes. A
/// paragraph or chapter ends every quotation (a speech running on into the next paragraph
/// opens again there).
fn quotation_marks(doc: &Doc) -> Vec<bool> {
    let single = single_quotes(doc.text);
    let mut out = Vec::with_capacity(doc.tokens.len());
    for chapter in &doc.chapters {
        let mut inside = false;
        let mut at = doc
            .sentences
            .get(chapter.sentences.start)
            .map_or(0, |s| s.span.start);
        for token in &doc.tokens[chapter.tokens.clone()] {
            let gap = doc.text.get(at..token.start()).unwrap_or("");
            let mut newlines = 0;
            let mut previous = doc.text.get(..at).and_then(|b| b.chars().next_back());
            let mut chars = gap.chars().peekable();
            while let Some(c) = chars.next() {
                let next = chars
                    .peek()
                    .copied()
                    .or_else(|| doc.raw(token).chars().next());
                match c {
                    '\n' => {
                        newlines += 1;
                        if newlines >= 2 {
                            inside = false;
                        }
                    }
                    '"' if !single => inside = !inside,
                    '\u{201C}' if !single => inside = true,
                    '\u{201D}' if !single => inside = false,
                    '\'' | '\u{2018}' | '\u{2019}' if single => {
                        let before_word = next.is_some_and(char::is_alphabetic);
                        let after_space =
                            previous.is_none_or(|p| p.is_whitespace() || "([-\u{2014}".contains(p));
                        if before_word && after_space && c != '\u{2019}' {
                            inside = true;
                        } else if !before_word && !after_space {
                            inside = false;
                        }
                    }
                    c if c.is_whitespace() => {}
                    _ => newlines = 0,
                }
                previous = Some(c);
            }
            out.push(inside);
            at = token.end();
        }
    }
    out
}

/// Whether a text quotes with single marks: they open far more often than double ones.
fn single_quotes(text: &str) -> bool {
    let (mut double, mut single) = (0usize, 0usize);
    let mut previous = ' ';
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' | '\u{201C}' => double += 1,
            '\'' | '\u{2018}'
                if previous.is_whitespace() && chars.peek().is_some_and(|n| n.is_alphabetic()) =>
            {
                single += 1
            }
            _ => {}
        }
        previous = c;
    }
    single > 4 * double.max(5)
}

/// Whether each chapter is told in the first person (see [`FIRST_PERSON_RATE`]).
fn first_person_chapters(doc: &Doc, quoted: &[bool]) -> Vec<bool> {
    let first = ["i", "me", "my"].map(|w| doc.vocab.id(w));
    doc.chapters
        .iter()
        .map(|chapter| {
            let (mut narration, mut own) = (0u32, 0u32);
            for i in chapter.tokens.clone() {
                if quoted.get(i).copied().unwrap_or(true) {
                    continue;
                }
                narration += 1;
                own += u32::from(first.contains(&Some(doc.tokens[i].word)));
            }
            narration >= 100 && own as f32 >= FIRST_PERSON_RATE * narration as f32
        })
        .collect()
}

/// The words each speaker of a play speaks, by the speaker's name key (see
/// [`speaker_key`]); empty unless the text reads as a play: at least 12 speeches, which
/// start at least 8% of its lines.
fn speakers(text: &str) -> Vec<(String, u32)> {
    let mut words: FxHashMap<String, u32> = FxHashMap::default();
    let (mut lines, mut speeches) = (0usize, 0usize);
    let mut current: Option<String> = None;
    for line in text.lines() {
        if line.trim().is_empty() {
            current = None;
            continue;
        }
        lines += 1;
        if is_stage_direction(line) {
            current = None;
            continue;
        }
        let rest = match speech_start(line) {
            Some((name, rest)) => {
                speeches += 1;
                current = speaker_key(name);
                rest
            }
            None => line,
        };
        if let Some(key) = &current {
            *words.entry(key.clone()).or_default() += text::words(rest).count() as u32;
        }
    }
    if speeches < 12 || (speeches as f32) < 0.08 * lines as f32 {
        return Vec::new();
    }
    let mut out: Vec<(String, u32)> = words.into_iter().collect();
    out.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    out
}

/// The speaker's name a line of a play starts with, and the rest of the line: one to
/// three capitalised words and a full stop, then the end of the line or the speech
/// ("Ham. To be, or not to be", "KING HENRY.", "Lady Capulet.").
fn speech_start(line: &str) -> Option<(&str, &str)> {
    let text = line.trim_start();
    let stop = text.find('.')?;
    let (name, after) = (&text[..stop], &text[stop + 1..]);
    if name.is_empty() || name.len() > 24 || !(after.is_empty() || after.starts_with([' ', '\t'])) {
        return None;
    }
    let words: Vec<&str> = name.split(' ').collect();
    let capitalised =
        |w: &&str| text::is_capitalised(w) && w.chars().all(|c| c.is_alphabetic() || c == '\'');
    if words.len() > 3 || !words.iter().all(capitalised) {
        return None;
    }
    let rest = after.trim();
    // "Yes. I will." is a sentence: a speech on the speaker's line follows only a short
    // (abbreviated) or capitals name.
    let short = name.chars().count() <= 5 || name.chars().all(|c| !c.is_lowercase());
    if !rest.is_empty() && !short {
        return None;
    }
    let lower = name.to_lowercase();
    if matches!(
        lower.as_str(),
        "mr" | "mrs" | "dr" | "st" | "no" | "oh" | "yes" | "chap"
    ) {
        return None;
    }
    Some((name, rest))
}

/// The word a speaker's name is known by: its last word that is not a title or an
/// ordinal ("Sir Toby" is "toby", "KING HENRY" "henry", "Bru" "bru").
fn speaker_key(name: &str) -> Option<String> {
    name.rsplit(' ')
        .map(|w| w.to_lowercase())
        .find(|w| !is_title(w) && !ORDINALS.contains(&w.as_str()))
}

/// A stage direction on its own line ("Enter Hamlet.", "[Exit.]", "SCENE II.").
fn is_stage_direction(line: &str) -> bool {
    let text = line.trim();
    let first = text
        .split(|c: char| !c.is_alphabetic() && c != '-')
        .find(|w| !w.is_empty())
        .unwrap_or_default()
        .to_lowercase();
    text.starts_with('[')
        || matches!(
            first.as_str(),
            "enter"
                | "exit"
                | "exeunt"
                | "re-enter"
                | "manet"
                | "flourish"
                | "alarum"
                | "sennet"
                | "scene"
                | "scena"
                | "scoena"
                | "act"
                | "actus"
        )
}

fn rank(
    doc: &Doc,
    lower: &[u32],
    counts: FxHashMap<u32, Counts>,
    pairs: &FxHashMap<(u32, u32), u32>,
    speakers: &[(String, u32)],
    told_by_narrator: bool,
) -> Vec<Character> {
    // Speakers of a play are people, whatever stands before their names.
    let spoken = spoken_words(doc, &counts, speakers);
    let mut scored: Vec<(u32, f32, Counts)> = counts
        .into_iter()
        .filter_map(|(id, c)| {
            let total = (c.mid + c.start) as f32;
            let speaks = spoken.get(&id).copied().unwrap_or(0);
            let thing = if speaks > 0 { 0.0 } else { c.thing / total };
            let person = if speaks > 0 {
                1.0
            } else {
                c.person as f32 / total
            };
            let form = doc.vocab.form(id);
            let lowercase = lower.get(id as usize).copied().unwrap_or(0) as f32;
            let place = GAZETTEER.binary_search(&form).is_ok() && person < 0.2;
            let keep = (c.mid >= 2 || c.person >= 2 || speaks > 0)
                && total >= 3.0
                && lowercase * 4.0 <= total
                && !place
                && !is_common_plural(doc, lower, form, c.person)
                && (thing <= 0.25 || person >= 0.1);
            let spread = c.stretches.count_ones() as f32 / STRETCHES as f32;
            let score = (c.mid as f32 + 0.3 * c.start as f32)
                * (1.0 + 3.0 * person)
                * (1.0 - thing).max(0.0)
                * (0.25 + spread);
            keep.then_some((id, score, c))
        })
        .collect();
    scored.sort_by(|a, b| {
        b.1.total_cmp(&a.1)
            .then_with(|| doc.vocab.form(a.0).cmp(doc.vocab.form(b.0)))
    });
    // The protagonist: a play's main speaker, or the narrator of a first-person book.
    let lead = if spoken.is_empty() {
        told_by_narrator.then(|| narrator(&scored)).flatten()
    } else {
        scored
            .iter()
            .filter_map(|s| spoken.get(&s.0).map(|&w| (s.0, w)))
            .max_by(|a, b| a.1.cmp(&b.1).then_with(|| b.0.cmp(&a.0)))
            .map(|(id, _)| id)
    };
    if let Some(lead) = lead
        && let Some(at) = scored.iter().position(|s| s.0 == lead)
    {
        let top = scored.first().map_or(0.0, |s| s.1);
        let mut entry = scored.remove(at);
        entry.1 = entry.1.max(top);
        scored.insert(0, entry);
    }
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

/// Words spoken per candidate name in a play: each speaker's key is the name itself or,
/// abbreviated ("Bru", "Macb"), the most frequent candidate it begins.
fn spoken_words(
    doc: &Doc,
    counts: &FxHashMap<u32, Counts>,
    speakers: &[(String, u32)],
) -> FxHashMap<u32, u32> {
    let mut out: FxHashMap<u32, u32> = FxHashMap::default();
    for (key, words) in speakers {
        let exact = doc.vocab.id(key).filter(|id| counts.contains_key(id));
        let id = exact.or_else(|| {
            (key.chars().count() >= 3)
                .then(|| {
                    counts
                        .iter()
                        .filter(|(id, _)| doc.vocab.form(**id).starts_with(key.as_str()))
                        .max_by(|a, b| {
                            (a.1.mid + a.1.start)
                                .cmp(&(b.1.mid + b.1.start))
                                .then_with(|| b.0.cmp(a.0))
                        })
                        .map(|(id, _)| *id)
                })
                .flatten()
        });
        if let Some(id) = id {
            *out.entry(id).or_default() += words;
        }
    }
    out
}

/// The narrator of a first-person book: the name most addressed in the dialogue of its
/// first-person chapters, among names mostly found in quotations there (the narrator
/// says "I" in the narration and is named only by others).
fn narrator(scored: &[(u32, f32, Counts)]) -> Option<u32> {
    scored
        .iter()
        .take(4 * MAX_CHARACTERS)
        .filter(|(_, _, c)| {
            c.addressed_first_person >= 3
                && c.quoted * 10 >= (c.mid + c.start) * 6
                && c.addressed_first_person * 10 >= c.first_person * 3
        })
        .max_by(|a, b| {
            let key = |c: &Counts| (c.addressed_first_person, c.mid + c.start);
            key(&a.2).cmp(&key(&b.2)).then_with(|| b.0.cmp(&a.0))
        })
        .map(|s| s.0)
}

/// A plural whose singular the text writes in lowercase or is a title ("Commons",
/// "Lords"), unless a title stands before it ("Mr. Banks").
fn is_common_plural(doc: &Doc, lower: &[u32], form: &str, person: u32) -> bool {
    let Some(singular) = form.strip_suffix('s') else {
        return false;
    };
    if person > 0 || singular.len() < 3 {
        return false;
    }
    is_title(singular)
        || doc
            .vocab
            .id(singular)
            .is_some_and(|id| lower.get(id as usize).copied().unwrap_or(0) >= 3)
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
    if text::is_stop_word(&lower)
        || is_title(&lower)
        || NOT_PEOPLE.contains(&lower)
        || ADDRESS.contains(&lower.as_ref())
        || NUMBERS.contains(&lower.as_ref())
        || PLACE_NOUNS.contains(&lower.as_ref())
    {
        return None;
    }
    doc.vocab.id(&lower)
}

/// Puts first the main character the book's title names, as a librarian would: the
/// book is about the person it is named after ("Barnaby Rudge", "The Life and Adventures
/// of Nicholas Nickleby"), whoever is named most or tells it. A character counts when one of its name's
/// words that is not a title ("Mr", "King", "Doctor") is a capitalised word of the title;
/// of several, the one listed first. Without such a character the order stays.
fn title_first(people: &mut Vec<Character>, title: &str) {
    let title_words: Vec<String> = text::words(title)
        .filter(|w| text::is_capitalised(w))
        .map(|w| text::normalise(text::strip_possessive(w)).into_owned())
        .collect();
    let named = people.iter().position(|c| {
        text::words(&c.name)
            .map(|w| text::normalise(text::strip_possessive(w)).into_owned())
            .filter(|w| !is_title(w) && !text::is_stop_word(w))
            .any(|w| title_words.contains(&w))
    });
    if let Some(at) = named.filter(|&at| at > 0) {
        let lead = people.remove(at);
        people.insert(0, lead);
    }
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

#[rustfmt::skip]
const PLACE_PREPOSITIONS: &[&str] = &[
    "across", "around", "at", "from", "in", "into", "near", "through", "toward", "towards",
    "within",
];

/// Titles of rulers and words for a realm: "of" after them names a place ("King of
/// Naples", "Duke of Milan", "the streets of Rome").
#[rustfmt::skip]
const RULERS: &[&str] = &[
    "archbishop", "bishop", "city", "coast", "count", "countess", "county", "dauphin",
    "duchess", "duchy", "duke", "earl", "emperor", "empress", "governor", "isle", "king",
    "kingdom", "kings", "lord", "marquis", "mayor", "prince", "princess", "queen",
    "republic", "shores", "streets", "thane", "town", "walls",
];

/// Words after a name that make it a place ("Mill Lane", "Hyde Park"), and never names
/// on their own.
#[rustfmt::skip]
const PLACE_NOUNS: &[&str] = &[
    "abbey", "avenue", "bridge", "castle", "cathedral", "forest", "gardens", "gate", "hall",
    "harbour", "hill", "inn", "island", "lane", "manor", "park", "road", "square", "street",
    "terrace", "valley", "wood",
];

/// Titles of address, which stand for a person but are no one's name ("Your Majesty").
/// "Grace" and "Honour", which are also names, only count as things after "his", "your"
/// (see [`thing_evidence`]).
#[rustfmt::skip]
const ADDRESS: &[&str] = &[
    "eminence", "excellency", "highness", "holiness", "ladyship", "lordship", "majesty",
    "reverence", "worship",
];

/// Numbers written as words, capitalised in headings ("Part Four") and in dates.
#[rustfmt::skip]
const NUMBERS: &[&str] = &[
    "eight", "eighteen", "eighty", "eleven", "fifteen", "fifth", "fifty", "five", "forty",
    "four", "fourteen", "fourth", "hundred", "nine", "nineteen", "ninety", "ninth", "one",
    "second", "seven", "seventeen", "seventh", "seventy", "six", "sixteen", "sixth",
    "sixty", "ten", "tenth", "third", "thirteen", "thirty", "thousand", "three", "twelve",
    "twenty", "two",
];

/// Ordinals before a speaker's name ("First Citizen").
const ORDINALS: &[&str] = &["first", "fourth", "second", "third"];

/// A general gazetteer, written for Quire: the world's countries and continents (with
/// older names still common in books: "Bohemia", "Prussia") and its best-known capitals
/// and cities. Names that are also common first names ("Georgia", "Jordan", "Chad") are
/// left out. Sorted (a unit test checks).
#[rustfmt::skip]
const GAZETTEER: &[&str] = &[
    "afghanistan", "africa", "albania", "algeria", "amsterdam", "antarctica", "arabia",
    "argentina", "armenia", "asia", "athens", "australia", "austria", "babylon", "baghdad",
    "belgium", "berlin", "bohemia", "bolivia", "brazil", "britain", "brussels", "bulgaria",
    "burgundy", "cairo", "calcutta", "canada", "carthage", "ceylon", "chile", "china",
    "constantinople", "copenhagen", "cuba", "cyprus", "delhi", "denmark", "dublin",
    "edinburgh", "egypt", "ethiopia", "finland", "flanders", "france", "genoa", "germany",
    "greece", "holland", "hungary", "iceland", "india", "ireland", "italy", "jamaica",
    "japan", "jerusalem", "lisbon", "london", "madrid", "mexico", "milan", "morocco",
    "moscow", "naples", "netherlands", "norway", "paris", "peking", "persia", "peru",
    "poland", "portugal", "prussia", "rome", "russia", "scotland", "spain", "sweden",
    "switzerland", "syria", "tokyo", "turkey", "venice", "vienna", "wales",
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

    fn people(names: &[&str]) -> Vec<Character> {
        names
            .iter()
            .map(|n| Character {
                name: (*n).to_owned(),
                words: Vec::new(),
            })
            .collect()
    }

    fn order(people: &[Character]) -> Vec<&str> {
        people.iter().map(|c| c.name.as_str()).collect()
    }

    #[test]
    fn the_person_the_title_names_comes_first() {
        let mut p = people(&["Haredale", "Varden", "Barnaby", "Hugh"]);
        title_first(&mut p, "Barnaby Rudge");
        assert_eq!(order(&p), ["Barnaby", "Haredale", "Varden", "Hugh"]);
        let mut p = people(&["Squeers", "Nicholas Nickleby", "Smike"]);
        title_first(&mut p, "The Life and Adventures of Nicholas Nickleby");
        assert_eq!(order(&p), ["Nicholas Nickleby", "Squeers", "Smike"]);
        let mut p = people(&["Romeo", "Capulet", "Juliet"]);
        title_first(&mut p, "Romeo and Juliet");
        assert_eq!(order(&p), ["Romeo", "Capulet", "Juliet"]);
    }

    #[test]
    fn titles_of_address_and_untitled_books_leave_the_order() {
        let mut p = people(&["Toby", "Mr. Pickwick", "King Lear"]);
        title_first(&mut p, "The King of the Golden River");
        assert_eq!(order(&p), ["Toby", "Mr. Pickwick", "King Lear"]);
        title_first(&mut p, "");
        assert_eq!(order(&p), ["Toby", "Mr. Pickwick", "King Lear"]);
        title_first(&mut p, "the mr. toby");
        assert_eq!(order(&p), ["Toby", "Mr. Pickwick", "King Lear"]);
    }

    #[test]
    fn word_lists_are_sorted() {
        assert!(TITLES.is_sorted() && PERSON_VERBS.is_sorted() && NOT_PEOPLE.is_sorted());
        for list in [
            PLACE_PREPOSITIONS,
            RULERS,
            PLACE_NOUNS,
            ADDRESS,
            NUMBERS,
            ORDINALS,
            GAZETTEER,
        ] {
            assert!(list.is_sorted(), "{list:?}");
        }
    }

    fn names(text: &str) -> Vec<String> {
        main_characters(&Doc::single(text), "")
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

    #[test]
    fn places_after_a_rulers_title_are_no_people() {
        let text = "Alonso was King of Naples. The court of Naples sailed home with Alonso. \
            Prospero, once Duke of Orvino, watched. \"Go,\" said Prospero. Alonso wept for \
            Naples. The ships of Orvino and the men of Naples came to the Duke of Orvino. \
            Prospero smiled. Prospero said nothing. Alonso slept. Back to Naples went Alonso. \
            The Duke of Orvino was Prospero, and Alonso knew Orvino well.";
        let found = names(text);
        assert!(found.contains(&"Prospero".to_owned()), "{found:?}");
        assert!(found.contains(&"Alonso".to_owned()), "{found:?}");
        for not in ["Naples", "Orvino"] {
            assert!(!found.iter().any(|f| f == not), "{not} in {found:?}");
        }
    }

    #[test]
    fn titles_of_address_numbers_countries_and_streets_are_no_people() {
        let text = "Pistol bowed to his Majesty. \"Your Majesty,\" said Pistol, \"France \
            is ours.\" Pistol rode from Calais to France. Then Pistol met Nym at Mill Lane. \
            Nym said Four men held Mill Lane. Nym and Pistol fought. His Majesty laughed at \
            Nym. France wept and Four rode off. Pistol sang. Nym danced. Majesty slept. \
            Mill Lane was quiet and France slept.";
        let found = names(text);
        assert!(found.contains(&"Pistol".to_owned()), "{found:?}");
        for not in ["Majesty", "France", "Four", "Mill", "Mill Lane", "Lane"] {
            assert!(!found.iter().any(|f| f == not), "{not} in {found:?}");
        }
    }

    #[test]
    fn a_plays_main_speaker_comes_first() {
        let mut play = String::from("ACT I.\n\nEnter Orsano and Bellamira.\n\n");
        for i in 0..12 {
            play.push_str(&format!(
                "ORSANO.\nBellamira, the king Leontes wants you. Leontes, Leontes! {i}\n\n\
                 BELLAMIRA.\nI will go to Leontes, Orsano, and speak of what I have seen, \
                 of all that happened on the shore and in the hall; it is long to tell, \
                 Orsano, and I must tell it all before the night comes down upon us.\n\n\
                 LEONTES.\nWho calls? Bellamira?\n\n"
            ));
        }
        let found = names(&play);
        assert_eq!(
            found.first().map(String::as_str),
            Some("Bellamira"),
            "{found:?}"
        );
        // Folio speakers are abbreviated.
        let folio = play
            .replace("ORSANO.\n", "Ors. ")
            .replace("BELLAMIRA.\n", "Bell. ")
            .replace("LEONTES.\n", "Leon. ");
        let found = names(&folio);
        assert_eq!(
            found.first().map(String::as_str),
            Some("Bellamira"),
            "{found:?}"
        );
    }

    #[test]
    fn a_first_person_narrators_name_comes_first() {
        let mut book = String::new();
        for _ in 0..8 {
            book.push_str(
                "I went down to the harbour with Mr. Gorran, as I did every morning. My \
                 legs ached and I was tired. Gorran walked ahead and Gorran talked of boats. \
                 \"Come on, Wilbury,\" said Gorran. \"You are slow today, Wilbury!\" I \
                 laughed at him. Gorran laughed too. Then Mrs. Tandy called from her door. \
                 \"Wilbury, my dear, take this bread,\" said Mrs. Tandy. I took it and \
                 thanked her, and Gorran ate half of it before I could stop him.\n\n",
            );
        }
        let found = names(&book);
        assert_eq!(
            found.first().map(String::as_str),
            Some("Wilbury"),
            "{found:?}"
        );
        assert!(found.contains(&"Gorran".to_owned()), "{found:?}");
    }

    #[test]
    fn personified_animals_after_the_are_people() {
        let text = "\"Hullo,\" said the Mole. The Mole looked round. Then the Mole said \
            nothing. Badger came in. \"Sit down,\" said the Badger. The Mole sat down, and \
            the Mole cried with joy. Badger smiled at the Mole.";
        let found = names(text);
        assert!(found.contains(&"Mole".to_owned()), "{found:?}");
    }
}
