//! How well a book fits a mood of the understanding's table ([`MOODS`]): its genre
//! (the mood's first genre counts most) and the words in its tags and summaries that
//! say the feeling. The table's own keywords are few ("cosy", "heartwarming"), so the
//! ranking adds common words summaries use for each feeling ("warm", "gentle"), an
//! adjective for the reason line ("A cosy mystery") and a phrase for the query's sentence
//! embedding. Words here are general English, not taken from any shop's books.

use crate::understanding::{MOODS, Mood};

/// What the ranking adds to a mood: (id, adjective, phrase to embed, more cue words).
const EXTRA: &[(&str, &str, &str, &[&str])] = &[
    (
        "cosy",
        "cosy",
        "a cosy, warm and gentle story",
        &[
            "warm", "gentle", "tender", "bedtime", "comfort", "charming", "home",
        ],
    ),
    (
        "thrilling",
        "gripping",
        "a gripping, tense story full of suspense",
        &[
            "tense", "danger", "murder", "hunt", "race", "secret", "suspect", "dead",
        ],
    ),
    (
        "funny",
        "funny",
        "a funny, witty and comic book",
        &[
            "comedy",
            "humour",
            "humor",
            "satire",
            "satirical",
            "laugh",
            "silly",
            "hilarious",
        ],
    ),
    (
        "uplifting",
        "uplifting",
        "an uplifting, hopeful and warm story",
        &[
            "hopeful",
            "warm",
            "joy",
            "funny",
            "comedy",
            "friend",
            "friendship",
            "kind",
        ],
    ),
    (
        "moving",
        "moving",
        "a moving, bittersweet story about love, grief and loss",
        &[
            "bittersweet",
            "tender",
            "mourning",
            "died",
            "death",
            "memory",
            "tearjerker",
        ],
    ),
    (
        "scary",
        "scary",
        "a scary, creepy story of ghosts and dread",
        &[
            "horror",
            "creepy",
            "dread",
            "terror",
            "nightmare",
            "haunting",
            "monster",
        ],
    ),
    (
        "romantic",
        "romantic",
        "a romantic love story",
        &[
            "lover",
            "kiss",
            "first love",
            "slow burn",
            "wedding",
            "heart",
        ],
    ),
    (
        "adventurous",
        "adventurous",
        "an adventure: a quest, a journey or a voyage",
        &[
            "adventure",
            "exploration",
            "expedition",
            "explore",
            "sea",
            "sail",
            "epic",
        ],
    ),
    (
        "thoughtful",
        "thought-provoking",
        "a thought-provoking book about big ideas and what they mean",
        &[
            "philosophy",
            "question",
            "identity",
            "memory",
            "existence",
            "truth",
        ],
    ),
    (
        "curious",
        "fascinating",
        "a fascinating book to learn from, full of facts and discoveries",
        &["history", "science", "explained", "learn", "knowledge"],
    ),
    (
        "inspired",
        "inspiring",
        "an inspiring book about courage and success",
        &["courage", "inspiring", "dream", "achievement", "motivation"],
    ),
    (
        "dark",
        "dark",
        "a dark, gritty story of crime and violence",
        &["murder", "violence", "bleak", "noir", "revenge"],
    ),
    (
        "magical",
        "magical",
        "a magical, enchanting story full of wonder",
        &[
            "witch",
            "spell",
            "enchanted",
            "fairy",
            "dragon",
            "wizard",
            "folklore",
        ],
    ),
    (
        "hungry",
        "mouth-watering",
        "a book about food, cooking and recipes",
        &["food", "cooking", "recipe", "kitchen", "bread", "baking"],
    ),
];

/// The mood with this id, with what the ranking adds to it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct MoodCues {
    pub mood: &'static Mood,
    pub adjective: &'static str,
    pub phrase: &'static str,
    extra: &'static [&'static str],
}

impl MoodCues {
    pub fn of(id: &str) -> Option<Self> {
        let mood = MOODS.iter().find(|m| m.id == id)?;
        let (adjective, phrase, extra) = EXTRA
            .iter()
            .find(|(m, ..)| *m == id)
            .map_or((mood.id, mood.label, &[][..]), |(_, a, p, e)| (*a, *p, *e));
        Some(Self {
            mood,
            adjective,
            phrase,
            extra,
        })
    }

    /// Every word or phrase that says the mood in a book's text: the table's keywords,
    /// its phrases, and the ranking's cues.
    pub fn cue_words(&self) -> impl Iterator<Item = &'static str> + use<> {
        let m = self.mood;
        m.keywords
            .iter()
            .chain(m.phrases.iter())
            .chain(self.extra.iter())
            .copied()
    }

    /// How much a book of genre `genre` (lowercase) fits by genre: 1 for the mood's first
    /// genre, a little less for each later one, 0 for others.
    pub fn genre_fit(&self, genre: &str) -> f32 {
        self.mood
            .genres
            .iter()
            .position(|g| g.eq_ignore_ascii_case(genre))
            .map_or(0.0, |i| 1.0 - 0.2 * i as f32)
    }
}

/// How well a book fits a mood (0-1), from its genre fit and how much its text says the
/// feeling (`cue`, 0-1). The text counts more: a cosy mystery says it is cosy.
pub(crate) fn fit(genre_fit: f32, cue: f32) -> f32 {
    (0.45 * genre_fit + 0.55 * cue).min(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_mood_of_the_table_has_an_adjective_and_a_phrase() {
        for m in MOODS {
            let cues = MoodCues::of(m.id).unwrap();
            assert!(EXTRA.iter().any(|(id, ..)| *id == m.id), "{}", m.id);
            assert!(!cues.adjective.is_empty() && cues.phrase.len() > 10);
            assert!(cues.cue_words().count() > m.keywords.len());
        }
        assert!(MoodCues::of("no such mood").is_none());
    }

    #[test]
    fn the_first_genre_of_a_mood_fits_best() {
        let cosy = MoodCues::of("cosy").unwrap();
        assert_eq!(cosy.genre_fit("romance"), 1.0);
        assert!(cosy.genre_fit("mystery") < 1.0 && cosy.genre_fit("mystery") > 0.0);
        assert_eq!(cosy.genre_fit("horror"), 0.0);
        assert!(fit(0.0, 1.0) > fit(1.0, 0.0));
    }
}
