//! Moods and genres. The genres are the platform's taxonomy (quire-genres), with its
//! synonyms ("sci-fi", "whodunit", "humor") and plurals ("mysteries", "thrillers"); the
//! moods are [`super::moods::MOODS`]. The longest phrase wins where they overlap
//! ("romantic comedy" is Romance, "funny" is a mood), and a genre phrase that opens with a
//! mood word says both ("cosy mystery": Mystery and cosy). Negated, a genre is excluded,
//! and a mood is excluded with its first genre ("nothing scary" leaves Horror out).

use quire_genres::canonical_genre;

use super::moods::{MOODS, Mood};
use super::request::{Audience, Request, push_unique};
use super::text::{Token, mark_used, phrase_at};

/// Taxonomy synonyms too general to name a genre in conversation ("a short novel").
const TOO_GENERAL: &[&str] = &[
    "novel",
    "novels",
    "fiction",
    "literature",
    "book",
    "books",
    "story",
    "stories",
    "action",
    "nature",
    "food",
];
/// The longest genre phrase, in words.
const MAX_GENRE_WORDS: usize = 3;

/// Finds moods and genres in `tokens` and sets them on `request`.
pub(crate) fn parse(tokens: &mut [Token], request: &mut Request) {
    let mut i = 0;
    while i < tokens.len() {
        let genre = genre_at(tokens, i);
        let mood = mood_at(tokens, i);
        let negated = tokens[i].negated;
        let len = match (genre, mood) {
            (Some((g, glen)), Some((m, mlen))) if glen > mlen => {
                add_genre(request, g, negated);
                add_mood(request, m, negated);
                glen
            }
            (Some((g, glen)), None) => {
                add_genre(request, g, negated);
                glen
            }
            (_, Some((m, mlen))) => {
                add_mood(request, m, negated);
                mlen
            }
            (None, None) => {
                i += 1;
                continue;
            }
        };
        mark_used(tokens, i, len);
        i += len;
    }
}

/// The genre whose name or synonym starts at `at`, and its length in words.
fn genre_at(tokens: &[Token], at: usize) -> Option<(&'static str, usize)> {
    (1..=MAX_GENRE_WORDS).rev().find_map(|n| {
        let words = tokens.get(at..at + n)?;
        if !words.iter().all(Token::is_free_word) {
            return None;
        }
        let phrase = words
            .iter()
            .map(|t| t.lower.as_str())
            .collect::<Vec<_>>()
            .join(" ");
        if n == 1 && TOO_GENERAL.contains(&phrase.as_str()) {
            return None;
        }
        genre_of(&phrase).map(|g| (g, n))
    })
}

/// The genre a phrase names, trying it as written and then as a singular.
pub(crate) fn genre_of(phrase: &str) -> Option<&'static str> {
    let singulars = [
        phrase.strip_suffix("ies").map(|s| format!("{s}y")),
        phrase.strip_suffix('s').map(str::to_string),
    ];
    canonical_genre(phrase).or_else(|| {
        singulars
            .into_iter()
            .flatten()
            .filter(|s| !TOO_GENERAL.contains(&s.as_str()))
            .find_map(|s| canonical_genre(&s))
    })
}

/// The mood whose phrase starts at `at`, and its length in words.
fn mood_at(tokens: &[Token], at: usize) -> Option<(&'static Mood, usize)> {
    MOODS
        .iter()
        .flat_map(|m| m.phrases.iter().map(move |p| (m, *p)))
        .filter_map(|(m, p)| phrase_at(tokens, at, p).map(|len| (m, len)))
        .max_by_key(|(_, len)| *len)
}

fn add_genre(request: &mut Request, genre: &'static str, negated: bool) {
    if negated {
        push_unique(&mut request.exclude_genres, genre);
        request.genres.retain(|g| g != genre);
        return;
    }
    // Books for children and teenagers are an audience, one field for both ways of saying it.
    match genre {
        "Children" => request.audience = Some(Audience::Children),
        "Young Adult" => request.audience = Some(Audience::YoungAdult),
        _ => push_unique(&mut request.genres, genre),
    }
}

fn add_mood(request: &mut Request, mood: &'static Mood, negated: bool) {
    if negated {
        push_unique(&mut request.exclude_moods, mood.id);
        if let Some(first) = mood.genres.first() {
            push_unique(&mut request.exclude_genres, first);
            request.genres.retain(|g| g != first);
        }
        request.moods.retain(|m| m != mood.id);
    } else {
        push_unique(&mut request.moods, mood.id);
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::run;
    use super::*;

    fn parsed(s: &str) -> Request {
        run(s, true, parse)
    }

    #[test]
    fn synonyms_plurals_and_phrases() {
        assert_eq!(
            parsed("sci-fi or whodunits").genres,
            ["Science Fiction", "Mystery"]
        );
        assert_eq!(
            parsed("thrillers and romances").genres,
            ["Thriller", "Romance"]
        );
        assert_eq!(parsed("a short novel").genres, Vec::<String>::new());
        assert_eq!(parsed("self help").genres, ["Self-help"]);
    }

    #[test]
    fn moods_and_genres_together() {
        let cosy = parsed("a cosy mystery");
        assert_eq!(
            (cosy.genres, cosy.moods),
            (vec!["Mystery".to_string()], vec!["cosy".to_string()])
        );
        assert_eq!(parsed("make me laugh").moods, ["funny"]);
        assert_eq!(parsed("I'm sad").moods, ["uplifting"]);
    }

    #[test]
    fn negated_moods_and_genres_are_excluded() {
        let r = parsed("a thriller, nothing scary, no romance");
        assert_eq!(r.genres, ["Thriller"]);
        assert_eq!(r.exclude_moods, ["scary"]);
        assert_eq!(r.exclude_genres, ["Horror", "Romance"]);
    }
}
