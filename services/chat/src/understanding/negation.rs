//! Which words a negation covers. "not romance", "no horror or gore", "nothing scary",
//! "I don't want anything sad", "without violence": the negator covers the words after
//! it up to the end of the phrase: punctuation, a word that turns the sentence ("but",
//! "and", "instead", "just", "only"...) or a word that starts a new request ("something",
//! "set", "under"...). "or"/"nor" keep the scope open ("no horror or romance").

use super::text::{Kind, Token};

const NEGATORS: &[&str] = &[
    "not",
    "no",
    "nothing",
    "without",
    "never",
    "avoid",
    "except",
    "excluding",
    "none",
    "don't",
    "dont",
    "doesn't",
    "isn't",
    "aren't",
    "hate",
    "dislike",
    "skip",
    "exclude",
    "neither",
    "nor",
    "nope",
    "minus",
];

/// Words that close a negation's scope (the phrase after them is said positively).
const SCOPE_ENDS: &[&str] = &[
    "but",
    "and",
    "though",
    "although",
    "instead",
    "just",
    "only",
    "rather",
    "please",
    "something",
    "anything",
    "maybe",
    "prefer",
    "preferably",
    "set",
    "under",
    "below",
    "over",
    "above",
    "less",
    "cheaper",
    "by",
    "like",
    "for",
    "that",
    "which",
    "so",
    "i",
    "i'm",
    "give",
    "show",
    "want",
    "need",
    "would",
    "love",
    "then",
    "with",
];

/// Scope ends that close even a negation that covered nothing yet ("nothing but horror").
const HARD_ENDS: &[&str] = &[
    "but",
    "and",
    "instead",
    "just",
    "only",
    "something",
    "rather",
];

/// Words a negation skips over without ending ("I don't want anything too long").
const FILLERS: &[&str] = &[
    "want", "like", "need", "any", "anything", "too", "very", "more", "really", "a", "an", "the",
    "of", "into", "about", "so", "overly", "that's", "is", "are", "be", "in", "to", "read",
    "books", "book", "stuff", "things", "much",
];

/// How many words a negation reaches at most, fillers not counted.
const MAX_SCOPE: usize = 4;

/// Marks the words each negator covers as `negated`, and the negators themselves used.
pub(crate) fn mark(tokens: &mut [Token]) {
    let mut i = 0;
    while i < tokens.len() {
        if !(tokens[i].is_free_word() && NEGATORS.contains(&tokens[i].lower.as_str())) {
            i += 1;
            continue;
        }
        tokens[i].used = true;
        let mut reach = 0;
        let mut j = i + 1;
        let mut started = false;
        while j < tokens.len() && reach < MAX_SCOPE {
            let t = &tokens[j];
            if t.kind == Kind::Break {
                break;
            }
            let word = t.lower.as_str();
            if NEGATORS.contains(&word) {
                break;
            }
            // Fillers right after the negator belong to it ("don't want any ..."); a
            // scope-ending word closes it once something was negated ("not for kids"
            // negates "kids"), a hard end at once.
            if HARD_ENDS.contains(&word) || (started && SCOPE_ENDS.contains(&word)) {
                break;
            }
            let filler = !started && FILLERS.contains(&word);
            if word != "or" && word != "nor" && !filler {
                started = true;
                reach += 1;
            }
            tokens[j].negated = true;
            j += 1;
        }
        i = j.max(i + 1);
    }
}

#[cfg(test)]
mod tests {
    use super::super::text::tokenize;
    use super::*;

    fn negated(s: &str) -> Vec<String> {
        let mut tokens = tokenize(s);
        mark(&mut tokens);
        tokens
            .into_iter()
            .filter(|t| t.negated && t.is_word())
            .map(|t| t.lower)
            .collect()
    }

    #[test]
    fn a_negation_covers_the_phrase_after_it() {
        assert_eq!(negated("not romance"), ["romance"]);
        assert_eq!(
            negated("no horror or romance please"),
            ["horror", "or", "romance"]
        );
        assert_eq!(negated("nothing scary"), ["scary"]);
        assert_eq!(
            negated("I don't want anything too long"),
            ["want", "anything", "too", "long"]
        );
    }

    #[test]
    fn a_negation_stops_at_punctuation_and_turning_words() {
        assert_eq!(negated("not romance, a mystery"), ["romance"]);
        assert_eq!(negated("no horror but something funny"), ["horror"]);
        assert_eq!(negated("nothing scary and something short"), ["scary"]);
        assert_eq!(negated("not sad just cosy"), ["sad"]);
        assert_eq!(negated("no romance set in winter"), ["romance"]);
    }

    #[test]
    fn a_negation_may_start_with_a_preposition() {
        assert_eq!(negated("not for kids"), ["for", "kids"]);
        assert_eq!(negated("nothing but horror"), Vec::<String>::new());
    }

    #[test]
    fn a_negation_reaches_a_few_words_at_most() {
        assert_eq!(
            negated("no one two three four five"),
            ["one", "two", "three", "four"]
        );
        assert!(negated("no, a mystery").is_empty());
    }
}
