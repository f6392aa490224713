//! The sentences a summary opens with, composed from [`Facts`]: who the book follows and
//! who else matters, where it mostly happens, what it turns on, and its kind and genre.
//! Each says only what the facts hold: no lead, no place, no genre it is unsure of, no
//! sentence about them. The wording differs by kind (a story follows its lead, a play's
//! lead has the largest part, verse and non-fiction turn on their subjects), and a story
//! is told in one of a few wordings picked by its lead's name, so a shelf of novels does
//! not open alike.

use super::facts::Facts;
use super::kind::{self, Kind, article};

/// What the composed sentences are written from.
pub(super) struct Known<'f> {
    /// The facts of the book.
    pub facts: &'f Facts,
    /// The kind of book.
    pub kind: Kind,
    /// The genre, when the analysis is sure of it.
    pub genre: Option<&'f str>,
    /// Words in the book.
    pub words: usize,
}

/// The opening sentence of the short summary (empty when nothing is known).
pub(super) fn opening(k: &Known) -> String {
    capitalised(opening_as_written(k))
}

/// `s` with its first letter capitalised ("the Rat is..." starts a sentence).
fn capitalised(s: String) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(first) if first.is_lowercase() => first.to_uppercase().chain(chars).collect(),
        _ => s,
    }
}

fn opening_as_written(k: &Known) -> String {
    let f = k.facts;
    match k.kind {
        Kind::Story => story_opening(k),
        Kind::Play => {
            let noun = kind::play_noun(k.genre);
            let place = names_most(f);
            match (&f.lead, f.others.is_empty()) {
                (Some(lead), false) => format!(
                    "{lead} has the largest part in this {noun}, with {} among the other \
                     main parts{place}.",
                    list(&f.others)
                ),
                (Some(lead), true) => format!("{lead} has the largest part in this {noun}{place}."),
                (None, _) => format!("This is {} {noun}{place}.", article(noun)),
            }
        }
        Kind::Verse => {
            let names: Vec<String> = f.lead.iter().chain(&f.others).cloned().collect();
            match (f.subjects.is_empty(), names.is_empty()) {
                (false, false) => format!(
                    "The verse of this book turns on {}, and the names it returns to most \
                     are {}.",
                    list(&f.subjects),
                    list(&names)
                ),
                (false, true) => format!("The verse of this book turns on {}.", list(&f.subjects)),
                (true, false) => format!(
                    "This book is written in verse, and the names it returns to most are {}.",
                    list(&names)
                ),
                (true, true) => "This book is written in verse.".to_owned(),
            }
        }
        Kind::NonFiction => {
            let noun = kind::non_fiction_noun(k.genre);
            if f.subjects.is_empty() {
                format!("This is {} {noun}.", article(noun))
            } else {
                format!(
                    "This is {} {noun} about {}.",
                    article(noun),
                    list(&f.subjects)
                )
            }
        }
    }
}

/// The sentences the long summary opens with: the opening, and who the lead is with.
pub(super) fn long_opening(k: &Known) -> String {
    let mut out = opening(k);
    let f = k.facts;
    let with = match (k.kind, &f.lead) {
        // Scenes are a story's: with no genre it is sure of, the book may be history.
        (Kind::Story, Some(lead)) if !f.companions.is_empty() && k.genre.is_some() => {
            Some(format!(
                "{lead}'s scenes are shared most with {}.",
                list(&f.companions)
            ))
        }
        (Kind::Story | Kind::Play, Some(lead)) if !f.companions.is_empty() => Some(format!(
            "{lead} is named most often with {}.",
            list(&f.companions)
        )),
        (Kind::NonFiction, _) => {
            let names: Vec<String> = f.lead.iter().chain(&f.others).cloned().collect();
            (!names.is_empty())
                .then(|| format!("The names it returns to most are {}.", list(&names)))
        }
        _ => None,
    };
    if let Some(with) = with {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(&capitalised(with));
    }
    out
}

fn story_opening(k: &Known) -> String {
    let f = k.facts;
    // With no genre it is sure of, the book is not said to be fiction.
    let noun = match k.genre {
        Some(genre) => kind::story_noun(Some(genre), k.words),
        None => "book".to_owned(),
    };
    let place = names_most(f);
    let Some(lead) = &f.lead else {
        return if !f.others.is_empty() {
            format!(
                "The main characters of this {noun} are {}{place}.",
                list(&f.others)
            )
        } else if k.genre.is_some() || !place.is_empty() {
            format!("This is {} {noun}{place}.", article(&noun))
        } else {
            String::new()
        };
    };
    let others = list(&f.others);
    let character = if f.others.len() == 1 {
        "character"
    } else {
        "characters"
    };
    let choice = lead.bytes().map(usize::from).sum::<usize>() % 3;
    match (choice, f.others.is_empty()) {
        (_, true) => format!("This {noun} follows {lead}{place}."),
        (0, false) => format!(
            "This {noun} follows {lead}, with {others} as the other main {character}{place}."
        ),
        (1, false) => format!("{lead} is at the centre of this {noun}, alongside {others}{place}."),
        _ => format!("This {noun} tells of {lead}, with {others} among those around them{place}."),
    }
}

/// ", and the place it names most is X", or nothing: what the book names as where things
/// happen, never said to be its setting.
fn names_most(f: &Facts) -> String {
    f.place
        .as_ref()
        .map(|p| format!(", and the place it names most is {p}"))
        .unwrap_or_default()
}

/// "A", "A and B", "A, B and C".
fn list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts() -> Facts {
        Facts {
            lead: Some("Mara".into()),
            others: vec!["Oren".into(), "Pell".into()],
            companions: vec!["Oren".into()],
            place: Some("Tarrow".into()),
            subjects: vec!["lighthouse".into(), "storms".into()],
        }
    }

    fn known(facts: &Facts, kind: Kind, genre: Option<&'static str>) -> String {
        opening(&Known {
            facts,
            kind,
            genre,
            words: 50_000,
        })
    }

    #[test]
    fn each_kind_opens_with_its_own_sentence() {
        let f = facts();
        let story = known(&f, Kind::Story, Some("Mystery"));
        assert!(
            story.contains("Mara") && story.contains("mystery novel"),
            "{story}"
        );
        assert!(story.contains("Oren and Pell"), "{story}");
        assert!(
            story.ends_with("the place it names most is Tarrow."),
            "{story}"
        );
        let play = known(&f, Kind::Play, None);
        assert!(
            play.starts_with("Mara has the largest part in this play"),
            "{play}"
        );
        let verse = known(&f, Kind::Verse, Some("Poetry"));
        assert!(verse.contains("turns on lighthouse and storms"), "{verse}");
        assert!(verse.contains("Mara, Oren and Pell"), "{verse}");
        let essay = known(&f, Kind::NonFiction, Some("History"));
        assert_eq!(essay, "This is a history about lighthouse and storms.");
        for s in [story, play, verse, essay] {
            assert!(s.ends_with('.') && !s.contains("  "), "{s}");
        }
    }

    #[test]
    fn nothing_is_said_that_is_not_known() {
        let empty = Facts::default();
        assert_eq!(known(&empty, Kind::Story, None), "");
        assert_eq!(
            known(&empty, Kind::Story, Some("Horror")),
            "This is a horror novel."
        );
        let f = Facts {
            place: None,
            ..facts()
        };
        let story = known(&f, Kind::Story, None);
        // No genre it is sure of: not said to be fiction, and no "scenes".
        assert!(
            !story.contains("place") && story.contains(" book"),
            "{story}"
        );
        let long = |genre| {
            long_opening(&Known {
                facts: &f,
                kind: Kind::Story,
                genre,
                words: 9_000,
            })
        };
        assert!(long(Some("Horror")).ends_with("Mara's scenes are shared most with Oren."));
        assert!(long(None).ends_with("Mara is named most often with Oren."));
    }

    #[test]
    fn lists_read_as_english() {
        let l = |v: &[&str]| list(&v.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        assert_eq!(l(&["A"]), "A");
        assert_eq!(l(&["A", "B"]), "A and B");
        assert_eq!(l(&["A", "B", "C"]), "A, B and C");
    }
}
