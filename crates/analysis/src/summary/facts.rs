//! The facts a composed sentence may state, each one the analysis knows from the text:
//! the lead and the other main characters (from the character finder, each by the full
//! name the book most often gives them: "Mr. Goodfellow", "Toby Dammit"), who the lead is
//! most often named with (sentences naming both), the place the book most often puts
//! things in ("in London", "at Elsinore"), and the subjects among its tags.
//!
//! A place is a capitalised word that is not a main character, not an English word in
//! lowercase ("the Court" is not a place name) and not a time or a people
//! ([`NOT_PLACES`]), seen after a place preposition in at least [`PLACE_SHARE`] of its
//! uses mid-sentence; it is stated only when it clearly leads the others. Subjects are
//! the tags whose words are all ordinary English and are not old function words or the
//! furniture of every novel ([`NOT_SUBJECTS`]).

use rustc_hash::FxHashMap;

use crate::characters::Character;
use crate::doc::Doc;
use crate::{text, words};

/// Words before a place name.
const PLACE_PREPOSITIONS: &[&str] = &[
    "in", "at", "near", "from", "into", "through", "across", "outside", "within",
];
/// The main characters a summary may name (before those that are part of another's name
/// are left out).
const PEOPLE: usize = 6;
/// A place is seen after a place preposition at least this often...
const MIN_PLACE_USES: u32 = 4;
/// ... in at least this share of its uses mid-sentence...
const PLACE_SHARE: f32 = 0.35;
/// ... and this many times as often as the next place.
const PLACE_LEAD: f32 = 1.5;

/// Capitalised words after "in" or "at" that are times, peoples, languages or beyond
/// the world, not places a story is set in.
#[rustfmt::skip]
const NOT_PLACES: &[&str] = &[
    "january", "february", "march", "april", "may", "june", "july", "august", "september",
    "october", "november", "december", "monday", "tuesday", "wednesday", "thursday",
    "friday", "saturday", "sunday", "christmas", "easter", "michaelmas", "whitsuntide",
    "lent", "english", "french", "latin", "greek", "german", "italian", "spanish",
    "hebrew", "heaven", "hell", "paradise", "god", "christ", "jesus", "i", "o", "oh",
];

/// Tag words that are no subject: old function words and what every novel's rooms hold.
#[rustfmt::skip]
const NOT_SUBJECTS: &[&str] = &[
    "art", "dost", "doth", "ere", "hast", "hath", "quoth", "shew", "thee", "thou", "thy",
    "thyself", "tis", "twas", "whereof", "wherein", "wilt", "vpon", "selfe", "owne",
    "round", "room", "door", "window", "chair", "length", "word", "lot", "hundred",
    "thousand", "young", "voice", "tone", "glance", "nod", "dress", "fellow", "mind",
    "sweet", "merry", "happy", "red", "dark", "foul", "pure", "seven", "favourite",
];

/// What the analysis knows that a composed sentence may say.
#[derive(Debug, Default)]
pub(super) struct Facts {
    /// The lead: the first of the main characters.
    pub lead: Option<String>,
    /// The next main characters, at most three.
    pub others: Vec<String>,
    /// The main characters most often named in the lead's sentences, at most two.
    pub companions: Vec<String>,
    /// The place the book most clearly puts things in.
    pub place: Option<String>,
    /// Tags that name subjects, at most three.
    pub subjects: Vec<String>,
}

impl Facts {
    /// The facts of `doc`, given its main characters (lead first) and its tags.
    pub fn gather(doc: &Doc, characters: &[Character], tags: &[String], play: bool) -> Self {
        // Full names ("Toby Dammit", "John Peerybingle"), each person once: "Toby" is no
        // other character when the lead is "Toby Dammit".
        let called = as_called(doc, characters);
        let mut people: Vec<Character> = Vec::new();
        for c in characters.iter().take(PEOPLE) {
            if people
                .iter()
                .any(|p| c.words.iter().all(|w| p.words.contains(w)))
            {
                continue;
            }
            // A play's speakers' names ("Lady Capulet.") would pass for full names of
            // others ("Capulet"), and its stage directions for titles ("Enter Polonius").
            let (name, words) = if play {
                (c.name.clone(), c.words.clone())
            } else {
                full_name(doc, c, characters)
            };
            let name = match words[..] {
                [word] => called(&name, word),
                _ => name,
            };
            people.push(Character { name, words });
        }
        let lead = people.first().map(|p| p.name.clone());
        Facts {
            lead,
            others: people
                .iter()
                .skip(1)
                .take(3)
                .map(|c| c.name.clone())
                .collect(),
            companions: companions(doc, &people),
            place: place(doc, characters),
            subjects: tags
                .iter()
                .filter(|t| {
                    t.split(' ')
                        .all(|w| is_english(w) && !NOT_SUBJECTS.contains(&w))
                })
                .take(3)
                .cloned()
                .collect(),
        }
    }
}

/// The name the book most often gives a one-word character with the word before or
/// after it ("George Silverman", "Doctor Ponnonner"), when it does so in at least a third
/// of the character's uses, or that word is another main character's name it mostly
/// goes with ("Toby" of "Toby Dammit"); else the character's name. With the word ids of
/// the name.
fn full_name(doc: &Doc, lead: &Character, characters: &[Character]) -> (String, Vec<u32>) {
    /// How often a word stands next to the lead, and where it first did.
    struct Seen {
        count: u32,
        span: std::ops::Range<usize>,
    }
    let plain = (lead.name.clone(), lead.words.clone());
    let [word] = lead.words[..] else {
        return plain;
    };
    let mut uses = 0u32;
    // (word id, before the lead) -> count, and a spelling.
    let mut next_to: FxHashMap<(u32, bool), Seen> = FxHashMap::default();
    for s in &doc.sentences {
        let tokens = doc.sentence_tokens(s);
        for (p, t) in tokens.iter().enumerate() {
            if t.word != word {
                continue;
            }
            uses += 1;
            let neighbours = [(p.checked_sub(1), true), (Some(p + 1), false)];
            for (q, before) in neighbours {
                let Some(other) = q.and_then(|q| tokens.get(q)) else {
                    continue;
                };
                let (a, b) = if before { (other, t) } else { (t, other) };
                let gap = doc.text.get(a.end()..b.start()).unwrap_or("");
                let joined = matches!(gap, " " | ". " | "\n" | ".\n");
                let shouted = |t: &crate::doc::Token| !doc.raw(t).chars().any(char::is_lowercase);
                if joined
                    && text::is_capitalised(doc.raw(other))
                    && !doc.vocab.is_stop(other.word)
                    && !shouted(other)
                    && !shouted(t)
                {
                    let e = next_to.entry((other.word, before)).or_insert(Seen {
                        count: 0,
                        span: a.start()..b.end(),
                    });
                    e.count += 1;
                }
            }
        }
    }
    // Another main character who is mostly named with the lead is part of their name
    // ("Toby" of "Toby Dammit"), and goes before a title ("Mr. Dammit").
    let character_uses = |other: u32| {
        characters
            .iter()
            .any(|c| c.words == [other])
            .then(|| doc.tokens.iter().filter(|t| t.word == other).count() as u32)
    };
    let mut candidates: Vec<((u32, bool), Seen)> = next_to
        .into_iter()
        .filter(|(_, seen)| seen.count >= 3)
        .collect();
    candidates.sort_by(|a, b| b.1.count.cmp(&a.1.count).then(a.0.cmp(&b.0)));
    let part_of_name = candidates.iter().find(|((other, _), seen)| {
        character_uses(*other).is_some_and(|uses| 3 * seen.count >= uses)
    });
    // A title or first name the book mostly uses, and clearly more than any other on the
    // same side ("Mr. Micawber" against "Mrs. Micawber" is no full name of Micawber).
    let frequent = candidates.first().filter(|((_, before), seen)| {
        let rival = candidates
            .iter()
            .skip(1)
            .find(|((_, b), _)| b == before)
            .map_or(0, |(_, s)| s.count);
        3 * seen.count >= uses && seen.count >= 2 * rival
    });
    match part_of_name.or(frequent) {
        Some(((other, _), Seen { span, .. })) => {
            let name = doc
                .text
                .get(span.clone())
                .unwrap_or("")
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ");
            let name = text::strip_possessive(&name).to_owned();
            (name, vec![word, *other])
        }
        _ => plain,
    }
}

/// How the book calls its one-word characters: "the Rat", "the Ghost" when the name is
/// an English word the book mostly writes after "the"; else the name as it is.
fn as_called<'c>(doc: &Doc, characters: &'c [Character]) -> impl Fn(&str, u32) -> String + 'c {
    let mut after_the: FxHashMap<u32, (u32, u32)> = characters
        .iter()
        .filter(|c| c.words.len() == 1 && words::contains(&c.name.to_lowercase()))
        .map(|c| (c.words[0], (0, 0)))
        .collect();
    if !after_the.is_empty() {
        let the = doc.vocab.id("the");
        for s in &doc.sentences {
            let tokens = doc.sentence_tokens(s);
            for (p, t) in tokens.iter().enumerate() {
                if let Some(e) = after_the.get_mut(&t.word) {
                    e.0 += 1;
                    e.1 += u32::from(p > 0 && Some(tokens[p - 1].word) == the);
                }
            }
        }
    }
    move |name: &str, word: u32| match after_the.get(&word) {
        Some(&(uses, the)) if 2 * the >= uses && uses > 0 => format!("the {name}"),
        _ => name.to_owned(),
    }
}

/// Whether a lowercase word is in the (American) word list as it is or in its American
/// spelling ("harbour", "centre", "civilise"), so old spellings ("loue") are not.
fn is_english(word: &str) -> bool {
    let american = [
        ("our", "or"),
        ("tre", "ter"),
        ("ise", "ize"),
        ("ised", "ized"),
    ];
    words::contains(word)
        || american.iter().any(|(british, us)| {
            word.contains(british) && words::contains(&word.replacen(british, us, 1))
        })
}

/// The main characters named most often in sentences that name the lead (at least three
/// times), most often first.
fn companions(doc: &Doc, characters: &[Character]) -> Vec<String> {
    let Some((lead, rest)) = characters.split_first() else {
        return Vec::new();
    };
    let mut together = vec![0u32; rest.len()];
    for s in &doc.sentences {
        let tokens = doc.sentence_tokens(s);
        if !tokens.iter().any(|t| lead.words.contains(&t.word)) {
            continue;
        }
        for (n, c) in rest.iter().enumerate() {
            if tokens.iter().any(|t| c.words.contains(&t.word)) {
                together[n] += 1;
            }
        }
    }
    let mut order: Vec<usize> = (0..rest.len()).filter(|&n| together[n] >= 3).collect();
    order.sort_by(|&a, &b| together[b].cmp(&together[a]).then(a.cmp(&b)));
    order
        .into_iter()
        .take(2)
        .map(|n| rest[n].name.clone())
        .collect()
}

/// The place the book most clearly puts things in, if one leads the others.
fn place(doc: &Doc, characters: &[Character]) -> Option<String> {
    // Per word id: uses after a place preposition, uses mid-sentence, and its spelling.
    let mut seen: FxHashMap<u32, (u32, u32, &str)> = FxHashMap::default();
    for s in &doc.sentences {
        let tokens = doc.sentence_tokens(s);
        for p in 1..tokens.len() {
            let raw = doc.raw(&tokens[p]);
            if !text::is_capitalised(raw) || raw.chars().count() < 3 {
                continue;
            }
            let entry = seen.entry(tokens[p].word).or_insert((0, 0, raw));
            entry.1 += 1;
            if PLACE_PREPOSITIONS.contains(&doc.vocab.form(tokens[p - 1].word)) {
                entry.0 += 1;
            }
        }
    }
    let mut places: Vec<(u32, &str)> = seen
        .into_iter()
        .filter(|(id, (at, mid, raw))| {
            let lower = doc.vocab.form(*id);
            *at >= MIN_PLACE_USES
                && *at as f32 >= PLACE_SHARE * *mid as f32
                && !doc.vocab.is_stop(*id)
                && !NOT_PLACES.contains(&lower)
                && !words::contains(lower)
                && crate::text::is_alphabetic_word(raw)
                && !characters.iter().any(|c| c.words.contains(id))
        })
        .map(|(_, (at, _, raw))| (at, raw))
        .collect();
    places.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(b.1)));
    let first = places.first()?;
    let clear = places
        .get(1)
        .is_none_or(|second| first.0 as f32 >= PLACE_LEAD * second.0 as f32);
    clear.then(|| text::strip_possessive(first.1).to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn character(doc: &Doc, name: &str) -> Character {
        Character {
            name: name.to_owned(),
            words: vec![doc.vocab.id(&name.to_lowercase()).unwrap()],
        }
    }

    #[test]
    fn the_place_companions_and_subjects_come_from_the_text() {
        let text = "Mara lived in Tarrow with her brother Oren. \
            In Tarrow the lighthouse stood over the harbour. \
            Mara and Oren mended the lamp at Tarrow. \
            Mara walked with Oren to the market in Tarrow. \
            Mara wrote to Pell once. \
            Mara and Oren sailed from Tarrow at dawn.";
        let doc = Doc::single(text);
        let people = [
            character(&doc, "Mara"),
            character(&doc, "Oren"),
            character(&doc, "Pell"),
        ];
        let tags = [
            "lighthouse".to_owned(),
            "hath".to_owned(),
            "harbour".to_owned(),
        ];
        let facts = Facts::gather(&doc, &people, &tags, false);
        assert_eq!(facts.lead.as_deref(), Some("Mara"));
        assert_eq!(facts.others, ["Oren", "Pell"]);
        assert_eq!(facts.companions, ["Oren"]);
        assert_eq!(facts.place.as_deref(), Some("Tarrow"));
        assert_eq!(facts.subjects, ["lighthouse", "harbour"]);
    }

    #[test]
    fn people_are_named_in_full_and_once() {
        let text = "Toby Dammit was my friend. I warned Toby Dammit often. \
            Toby Dammit laughed at me. Dammit bet the Devil his head. \
            Dammit would not listen. Mr. Gale watched Dammit from the bridge. \
            Toby was his name.";
        let doc = Doc::single(text);
        let people = [
            character(&doc, "Dammit"),
            character(&doc, "Toby"),
            character(&doc, "Gale"),
        ];
        let facts = Facts::gather(&doc, &people, &[], false);
        assert_eq!(facts.lead.as_deref(), Some("Toby Dammit"));
        assert_eq!(facts.others, ["Gale"]);
        let play = Facts::gather(&doc, &people, &[], true);
        assert_eq!(play.lead.as_deref(), Some("Dammit"));
    }

    #[test]
    fn no_place_is_stated_when_none_leads() {
        let text = "They went to Arden and then to Brill. \
            In Arden it rained; in Brill it rained. At Arden, at Brill, in Arden, in Brill, \
            at Arden, at Brill, it was the same.";
        let doc = Doc::single(text);
        assert_eq!(place(&doc, &[]), None);
    }
}
