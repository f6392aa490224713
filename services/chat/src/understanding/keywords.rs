//! Topic words: what is left of an utterance once everything else is understood, less
//! the words that carry no topic ("I", "want", "book", "please"...). "only ones set in
//! winter" leaves "winter"; "a mystery in Venice without dogs" leaves "venice" and,
//! excluded, "dogs".

use super::request::{Request, push_unique};
use super::text::{Kind, Token};

/// Words of a request that name no topic and are no English function words (those are
/// quire-english's stop words, dropped too): what any request says ("want", "recommend",
/// "book", "please"), chat ("hi", "ok", "gonna"), when and where one reads ("tonight",
/// "beach") and contractions typed without the apostrophe ("im").
const NOT_TOPICS: &[&str] = &[
    "im",
    "id",
    "want",
    "wants",
    "wanted",
    "need",
    "needs",
    "likes",
    "loves",
    "love",
    "looking",
    "look",
    "find",
    "get",
    "give",
    "show",
    "recommend",
    "recommendation",
    "recommendations",
    "suggest",
    "suggestion",
    "suggestions",
    "please",
    "pls",
    "plz",
    "ones",
    "book",
    "books",
    "novel",
    "novels",
    "read",
    "reads",
    "reading",
    "story",
    "stories",
    "title",
    "titles",
    "stuff",
    "thing",
    "things",
    "kind",
    "sort",
    "type",
    "onto",
    "set",
    "really",
    "bit",
    "little",
    "lot",
    "lots",
    "good",
    "great",
    "nice",
    "best",
    "better",
    "well",
    "maybe",
    "today",
    "tonight",
    "right",
    "ok",
    "okay",
    "yes",
    "yeah",
    "yep",
    "sure",
    "hmm",
    "um",
    "uh",
    "ah",
    "mood",
    "feel",
    "feeling",
    "feels",
    "fancy",
    "go",
    "going",
    "got",
    "lets",
    "make",
    "try",
    "take",
    "something's",
    "idea",
    "ideas",
    "option",
    "reader",
    "readers",
    "author",
    "authors",
    "writer",
    "written",
    "wrote",
    "write",
    "genre",
    "genres",
    "shop",
    "buy",
    "bought",
    "purchase",
    "available",
    "way",
    "time",
    "day",
    "week",
    "weekend",
    "holiday",
    "vacation",
    "trip",
    "flight",
    "train",
    "beach",
    "bed",
    "evening",
    "morning",
    "night",
    "currently",
    "actually",
    "especially",
    "particular",
    "particularly",
    "probably",
    "kinda",
    "sorta",
    "enjoy",
    "enjoyed",
    "liked",
    "loved",
    "prefer",
    "preferably",
    "instead",
    "different",
    "suggested",
    "showed",
    "shown",
    "list",
    "new",
    "old",
    "mean",
    "meant",
    "think",
    "know",
    "guess",
    "say",
    "said",
    "tell",
    "ask",
    "asking",
    "wondering",
    "hoping",
    "hope",
    "wanna",
    "gonna",
    "gimme",
    "lemme",
    "bring",
    "pick",
    "choose",
    "select",
    "search",
    "lookin",
    "seek",
    "seeking",
    "hey",
    "hi",
    "cool",
    "fine",
    "number",
    "first",
    "second",
    "third",
    "last",
    "finished",
    "already",
];

/// Sets the topic words of the unused tokens on `request`; `name` is the assistant's name,
/// never a topic ("hi Quinn").
pub(crate) fn parse(tokens: &mut [Token], request: &mut Request, name: &str) {
    let name_words: Vec<String> = name.split_whitespace().map(str::to_lowercase).collect();
    for t in tokens
        .iter_mut()
        .filter(|t| !t.used && matches!(t.kind, Kind::Word | Kind::Number))
    {
        let word = t.lower.as_str();
        if is_stop(word) || name_words.iter().any(|n| n == word) || word.chars().count() < 2 {
            continue;
        }
        t.used = true;
        if t.negated {
            push_unique(&mut request.exclude_keywords, word);
        } else {
            push_unique(&mut request.keywords, word);
        }
    }
}

/// Whether `word` (lowercase) names no topic.
pub(crate) fn is_stop(word: &str) -> bool {
    quire_english::is_stop_word(word) || NOT_TOPICS.contains(&word)
}

#[cfg(test)]
mod tests {
    use super::super::{negation, text::tokenize};
    use super::*;

    #[test]
    fn leftover_words_are_topics_and_negated_ones_are_excluded() {
        let mut tokens = tokenize("a story set in Venice without dogs, Quinn");
        negation::mark(&mut tokens);
        let mut request = Request::default();
        parse(&mut tokens, &mut request, "Quinn");
        assert_eq!(request.keywords, ["venice"]);
        assert_eq!(request.exclude_keywords, ["dogs"]);
    }
}
