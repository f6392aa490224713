//! Typos of the words Quinn knows: "fantsy", "mistery", "romanse", "scarey". A word of
//! five letters or more that is no word Quinn knows already (no stop word, no word that
//! carries no topic, no genre or mood word) is read as the genre or mood word (of six
//! letters or more) it is one edit away from (two for words of eight letters or more), counting a swap of two
//! letters as one edit. A word two known words are equally near is left as it is, and so
//! are names and titles (they are understood before, with the reader's spelling).

use std::sync::OnceLock;

use quire_genres::GENRES;

use super::moods::MOODS;
use super::text::Token;

/// The shortest word that may be a typo.
const MIN_LETTERS: usize = 5;
/// The shortest word a typo is read as: shorter ones are one edit from too many English
/// words ("thank" is not "think").
const MIN_KNOWN_LETTERS: usize = 6;
/// From this many letters on, two edits are allowed.
const TWO_EDITS_FROM: usize = 8;

/// The words typos are read against: every word of the genres' names (and their plurals)
/// and of the moods' phrases, five letters or more (only those of six or more are read
/// into, see [`MIN_KNOWN_LETTERS`]).
fn vocabulary() -> &'static [String] {
    static WORDS: OnceLock<Vec<String>> = OnceLock::new();
    WORDS.get_or_init(|| {
        let genre_words = GENRES.iter().flat_map(|g| g.split([' ', '-']));
        let mood_words = MOODS
            .iter()
            .flat_map(|m| m.phrases.iter().flat_map(|p| p.split(' ')));
        let mut words: Vec<String> = Vec::new();
        for word in genre_words.map(str::to_lowercase) {
            let plural = match word.strip_suffix('y') {
                Some(stem) => format!("{stem}ies"),
                None => format!("{word}s"),
            };
            words.push(word);
            words.push(plural);
        }
        words.extend(mood_words.map(str::to_owned));
        words.retain(|w| w.chars().count() >= MIN_LETTERS);
        words.sort();
        words.dedup();
        words
    })
}

/// Rewrites the free words of `tokens` that are typos of a known word as that word.
pub(crate) fn correct(tokens: &mut [Token]) {
    for t in tokens.iter_mut().filter(|t| t.is_free_word()) {
        if let Some(word) = meant(&t.lower) {
            t.lower = word.to_owned();
        }
    }
}

/// The known word `word` is a typo of, when it is one.
fn meant(word: &str) -> Option<&'static str> {
    let letters = word.chars().count();
    if letters < MIN_LETTERS
        || !word.chars().all(char::is_alphabetic)
        || super::keywords::is_stop(word)
    {
        return None;
    }
    let vocabulary = vocabulary();
    if vocabulary.iter().any(|w| w == word) {
        return None;
    }
    let allowed = if letters >= TWO_EDITS_FROM { 2 } else { 1 };
    let mut best: Option<(usize, &'static str)> = None;
    let mut tied = false;
    for known in vocabulary
        .iter()
        .filter(|w| w.chars().count() >= MIN_KNOWN_LETTERS)
    {
        let distance = strsim::damerau_levenshtein(word, known);
        if distance > allowed {
            continue;
        }
        match best {
            Some((d, _)) if d < distance => {}
            Some((d, _)) if d == distance => tied = true,
            _ => {
                best = Some((distance, known.as_str()));
                tied = false;
            }
        }
    }
    best.filter(|_| !tied).map(|(_, w)| w)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typos_of_genres_and_moods_are_read_as_them() {
        assert_eq!(meant("fantsy"), Some("fantasy"));
        assert_eq!(meant("mistery"), Some("mystery"));
        assert_eq!(meant("romanse"), Some("romance"));
        assert_eq!(meant("thriler"), Some("thriller"));
        assert_eq!(meant("mysteries"), None, "a known word stays");
        assert_eq!(meant("mistries"), None, "as near histories as mysteries");
    }

    #[test]
    fn short_words_and_other_words_stay() {
        assert_eq!(meant("cosi"), None, "too short to guess");
        assert_eq!(meant("dragons"), None);
        assert_eq!(meant("winter"), None);
        assert_eq!(meant("lighthouse"), None);
        assert_eq!(meant("history"), None);
        assert_eq!(meant("please"), None, "a word of any request");
        assert_eq!(meant("thank"), None, "not think");
    }
}
