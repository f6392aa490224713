//! Topics of more than one word: "the cold war", "the great war", "world war two",
//! "time travel", "outer space". (Genres of two words, "science fiction", are
//! [`super::topics`]'s.) Each is one topic word of the request (a book must be
//! about both of its words), not two that any book with "cold" or "war" would meet.

use super::request::{Request, push_unique};
use super::text::{Token, mark_used, phrase_at};

/// The topics, lowercase, as tokens joined by single spaces; the longest that matches wins.
const TOPICS: &[&str] = &[
    "cold war",
    "great war",
    "world war",
    "first world war",
    "second world war",
    "civil war",
    "american civil war",
    "spanish civil war",
    "hundred years war",
    "trojan war",
    "napoleonic wars",
    "vietnam war",
    "time travel",
    "middle ages",
    "wild west",
    "climate change",
    "artificial intelligence",
    "coming of age",
    "road trip",
    "high seas",
    "french revolution",
    "industrial revolution",
    "ancient rome",
    "ancient greece",
    "ancient egypt",
    "north pole",
    "south pole",
];
/// What may follow "world war": its number.
const WAR_NUMBERS: &[&str] = &["one", "two", "i", "ii", "1", "2"];

/// Finds the topics of more than one word in `tokens` and adds them to `request`.
pub(crate) fn parse(tokens: &mut [Token], request: &mut Request) {
    let mut i = 0;
    while i < tokens.len() {
        let Some((topic, len)) = TOPICS
            .iter()
            .filter_map(|p| phrase_at(tokens, i, p).map(|len| (*p, len)))
            .max_by_key(|(_, len)| *len)
        else {
            i += 1;
            continue;
        };
        let numbered = topic == "world war"
            && tokens
                .get(i + len)
                .is_some_and(|t| !t.used && WAR_NUMBERS.contains(&t.lower.as_str()));
        let len = len + usize::from(numbered);
        if tokens[i].negated {
            push_unique(&mut request.exclude_keywords, topic);
        } else {
            push_unique(&mut request.keywords, topic);
        }
        mark_used(tokens, i, len);
        i += len;
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::run;
    use super::*;

    fn keywords(s: &str) -> Vec<String> {
        run(s, true, parse).keywords
    }

    #[test]
    fn a_topic_of_two_words_is_one_topic() {
        assert_eq!(keywords("a novel about the cold war"), ["cold war"]);
        assert_eq!(keywords("something set in world war two"), ["world war"]);
        assert_eq!(keywords("the Great War"), ["great war"]);
        assert!(keywords("a cold winter and a war").is_empty());
        assert_eq!(
            run("nothing about time travel", true, parse).exclude_keywords,
            ["time travel"]
        );
    }
}
