//! Understanding one reader utterance in a conversation: a pure, deterministic function
//! from the last request, the books last shown and what the reader says now, to the new
//! request and the kind of reply ([`understand`]). The parts run in a fixed order, each
//! marking the words it understood so later parts skip them:
//!
//! 1. [`text`]: tokens (quoted titles, numbers, currency signs, phrase breaks);
//! 2. [`refine`]: follow-ups about the shown books and comparatives ("not that one",
//!    "more like the second", "shorter", "cheaper", "instead");
//! 3. [`names`]: authors and titles ("by ...", "books like ...", quotes);
//! 4. [`price`]: prices and page counts ("under $5", "free", "cheap", "over 300 pages");
//! 5. [`typos`]: misspelt genre and mood words ("fantsy", "mistery");
//! 6. [`negation`]: which words a "not"/"no"/"nothing" covers;
//! 7. [`age`]: a reader's age ("for a 12 year old", "my son is 8");
//! 8. [`filters`]: audience, length and recency;
//! 9. [`phrases`]: topics of several words ("the cold war");
//! 10. [`topics`]: moods ([`moods::MOODS`]) and genres (the platform's taxonomy);
//! 11. [`social`]: greetings, help, thanks, goodbyes;
//! 12. [`keywords`]: the topic words left.
//!
//! Then [`understand`] decides: a request with a subject is searched (merged into the
//! last request when it is a follow-up), a social utterance gets a social reply, anything
//! else one clarifying question ([`reply`] words them).

mod age;
mod filters;
mod keywords;
pub mod moods;
mod names;
mod negation;
mod phrases;
mod price;
mod refine;
pub mod reply;
pub mod request;
mod social;
#[cfg(test)]
mod test_support;
mod text;
mod topics;
mod turn;
mod typos;

pub use moods::{MOODS, Mood};
pub use price::CHEAP_CENTS;
pub use reply::reply_text;
pub use request::{Audience, Length, Request, Shown};
pub use social::Social;
pub use turn::{Intent, Question, Reply, Turn, understand};
