//! Greetings, requests for help, thanks and goodbyes. They are what an utterance says only
//! when it asks for no books: "hi, a cosy mystery please" is a request.

use serde::{Deserialize, Serialize};

use super::price::longest;
use super::text::{Token, mark_used};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Social {
    Greeting,
    Help,
    Thanks,
    Goodbye,
}

const PHRASES: &[(Social, &[&str])] = &[
    (
        Social::Help,
        &[
            "help",
            "help me",
            "what can you do",
            "what do you do",
            "how does this work",
            "how do i use this",
            "how does it work",
            "who are you",
            "what are you",
            "what can i ask",
            "what can i say",
            "how do you work",
            "what is this",
            "options",
        ],
    ),
    (
        Social::Thanks,
        &[
            "thanks",
            "thank you",
            "thank u",
            "thx",
            "ty",
            "cheers",
            "ta",
            "much appreciated",
            "that's perfect",
            "perfect",
            "great",
            "awesome",
            "brilliant",
            "lovely",
            "that's great",
            "that's helpful",
            "helpful",
        ],
    ),
    (
        Social::Goodbye,
        &[
            "bye",
            "goodbye",
            "good bye",
            "see you",
            "see ya",
            "later",
            "good night",
            "goodnight",
            "that's all",
        ],
    ),
    (
        Social::Greeting,
        &[
            "hi",
            "hello",
            "hey",
            "hiya",
            "heya",
            "howdy",
            "yo",
            "greetings",
            "good morning",
            "good afternoon",
            "good evening",
            "morning",
            "evening",
            "what's up",
            "whats up",
            "sup",
            "hi there",
            "hello there",
            "hey there",
            "how are you",
        ],
    ),
];

/// The social phrases of `tokens`, marked used; the first kind said wins, except that help
/// outweighs a greeting ("hi, what can you do?" asks for help).
pub(crate) fn parse(tokens: &mut [Token]) -> Option<Social> {
    let mut found: Vec<Social> = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        let best = PHRASES
            .iter()
            .filter_map(|(kind, phrases)| longest(tokens, i, phrases).map(|len| (*kind, len)))
            .max_by_key(|(_, len)| *len);
        if let Some((kind, len)) = best {
            found.push(kind);
            mark_used(tokens, i, len);
            i += len;
        } else {
            i += 1;
        }
    }
    let first_other = found.iter().copied().find(|k| *k != Social::Greeting);
    first_other.or(found.first().copied())
}

#[cfg(test)]
mod tests {
    use super::super::text::tokenize;
    use super::*;

    #[test]
    fn help_outweighs_a_greeting() {
        assert_eq!(
            parse(&mut tokenize("Hi! What can you do?")),
            Some(Social::Help)
        );
        assert_eq!(parse(&mut tokenize("hello there")), Some(Social::Greeting));
        assert_eq!(parse(&mut tokenize("thanks, bye")), Some(Social::Thanks));
        assert_eq!(parse(&mut tokenize("dragons")), None);
    }
}
