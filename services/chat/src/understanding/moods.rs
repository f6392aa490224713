//! The mood table: the feelings a reader may ask for, the words that say each, and the
//! genres and keywords each suggests to the search and the ranking. The opening panel of
//! the chat screen shows the same table, so what it offers is what Quinn understands.
//!
//! | mood        | said as (some of)                                  | genres                              |
//! |-------------|----------------------------------------------------|-------------------------------------|
//! | cosy        | cosy, cozy, comforting, heartwarming, feel good    | Romance, Mystery, Humour            |
//! | thrilling   | thrill, exciting, gripping, page turner, suspense  | Thriller, Mystery                   |
//! | funny       | make me laugh, funny, hilarious, witty             | Humour                              |
//! | uplifting   | I'm sad, feeling down, cheer me up, hopeful        | Humour, Self-help, Romance          |
//! | moving      | make me cry, a sad book, tearjerker, emotional     | Literary Fiction, Romance           |
//! | scary       | scary, spooky, creepy, terrifying, haunting        | Horror, Thriller                    |
//! | romantic    | romantic, swoon, fall in love                      | Romance                             |
//! | adventurous | adventure, escape, epic, quest, journey            | Fantasy, Science Fiction, Historical Fiction |
//! | thoughtful  | thought provoking, make me think, philosophical    | Literary Fiction, Science, Politics |
//! | curious     | learn something, educational, fascinating facts    | Science, History, Biography         |
//! | inspired    | motivate me, inspiring, improve myself             | Self-help, Biography                |
//! | dark        | dark, gritty, bleak, twisted                       | Thriller, Horror, Literary Fiction  |
//! | magical     | magical, whimsical, enchanting, wonder             | Fantasy, Children                   |
//! | hungry      | hungry, something to cook, recipes tonight         | Cookery                             |
//!
//! Said negatively ("nothing scary"), a mood is excluded along with its first genre.

/// One mood of the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mood {
    pub id: &'static str,
    /// What the opening panel shows.
    pub label: &'static str,
    /// Lowercase phrases that ask for it, as tokens joined by single spaces.
    pub phrases: &'static [&'static str],
    /// Taxonomy genres it suggests, the one most meant first.
    pub genres: &'static [&'static str],
    /// Words a fitting book's summary or tags tend to contain.
    pub keywords: &'static [&'static str],
}

pub const MOODS: &[Mood] = &[
    Mood {
        id: "cosy",
        label: "Something cosy",
        phrases: &[
            "cosy",
            "cozy",
            "comforting",
            "comfort read",
            "heartwarming",
            "heart warming",
            "feel good",
            "feelgood",
            "wholesome",
            "gentle",
            "relaxing",
            "soothing",
            "light read",
            "something light",
            "snuggle up",
        ],
        genres: &["Romance", "Mystery", "Humour"],
        keywords: &["cosy", "heartwarming", "village", "friendship"],
    },
    Mood {
        id: "thrilling",
        label: "I need a thrill",
        phrases: &[
            "thrill",
            "thrills",
            "thrilling",
            "exciting",
            "excitement",
            "adrenaline",
            "gripping",
            "page turner",
            "page turners",
            "edge of my seat",
            "suspenseful",
            "action packed",
            "fast paced",
            "heart pounding",
            "can't put down",
        ],
        genres: &["Thriller", "Mystery"],
        keywords: &["suspense", "chase", "twist"],
    },
    Mood {
        id: "funny",
        label: "Make me laugh",
        phrases: &[
            "make me laugh",
            "laugh",
            "laughs",
            "funny",
            "hilarious",
            "humorous",
            "amusing",
            "witty",
            "lighthearted",
            "light hearted",
            "silly",
            "laugh out loud",
        ],
        genres: &["Humour"],
        keywords: &["funny", "comic", "wit"],
    },
    Mood {
        id: "uplifting",
        label: "Cheer me up",
        phrases: &[
            "i'm sad",
            "im sad",
            "i am sad",
            "i feel sad",
            "feeling sad",
            "feeling down",
            "i'm down",
            "i feel down",
            "feeling low",
            "i'm lonely",
            "feeling lonely",
            "bad day",
            "rough day",
            "cheer me up",
            "pick me up",
            "uplifting",
            "hopeful",
            "happy",
            "positive",
            "i'm depressed",
            "feeling blue",
        ],
        genres: &["Humour", "Self-help", "Romance"],
        keywords: &["hope", "uplifting", "kindness"],
    },
    Mood {
        id: "moving",
        label: "Make me cry",
        phrases: &[
            "make me cry",
            "cry",
            "sad",
            "tearjerker",
            "tear jerker",
            "moving",
            "emotional",
            "bittersweet",
            "heartbreaking",
            "poignant",
            "touching",
        ],
        genres: &["Literary Fiction", "Romance"],
        keywords: &["grief", "loss", "love"],
    },
    Mood {
        id: "scary",
        label: "Scare me",
        phrases: &[
            "scary",
            "scare me",
            "spooky",
            "creepy",
            "chilling",
            "frightening",
            "terrifying",
            "haunting",
            "eerie",
            "nightmares",
            "scared",
        ],
        genres: &["Horror", "Thriller"],
        keywords: &["ghost", "haunted", "dark"],
    },
    Mood {
        id: "romantic",
        label: "Something romantic",
        phrases: &[
            "romantic",
            "swoon",
            "swoony",
            "fall in love",
            "falling in love",
        ],
        genres: &["Romance"],
        keywords: &["love", "romance"],
    },
    Mood {
        id: "adventurous",
        label: "Take me on an adventure",
        phrases: &[
            "adventure",
            "adventures",
            "adventurous",
            "escape",
            "escapist",
            "escapism",
            "epic",
            "quest",
            "journey",
            "swashbuckling",
        ],
        genres: &["Fantasy", "Science Fiction", "Historical Fiction"],
        keywords: &["quest", "journey", "voyage"],
    },
    Mood {
        id: "thoughtful",
        label: "Make me think",
        phrases: &[
            "thought provoking",
            "thoughtful",
            "make me think",
            "makes me think",
            "profound",
            "philosophical",
            "deep",
            "big ideas",
            "challenging",
            "clever",
        ],
        genres: &["Literary Fiction", "Science", "Politics"],
        keywords: &["ideas", "meaning"],
    },
    Mood {
        id: "curious",
        label: "Teach me something",
        phrases: &[
            "learn something",
            "learn",
            "teach me",
            "educational",
            "fascinating",
            "curious",
            "informative",
            "interesting facts",
        ],
        genres: &["Science", "History", "Biography"],
        keywords: &["discovery", "facts"],
    },
    Mood {
        id: "inspired",
        label: "Inspire me",
        phrases: &[
            "inspire me",
            "inspiring",
            "inspirational",
            "motivate me",
            "motivating",
            "motivation",
            "motivational",
            "improve myself",
            "better myself",
            "productive",
        ],
        genres: &["Self-help", "Biography"],
        keywords: &["habits", "success"],
    },
    Mood {
        id: "dark",
        label: "Something dark",
        phrases: &["dark", "gritty", "bleak", "twisted", "disturbing", "noir"],
        genres: &["Thriller", "Horror", "Literary Fiction"],
        keywords: &["dark", "crime"],
    },
    Mood {
        id: "magical",
        label: "Something magical",
        phrases: &["magical", "magic", "whimsical", "enchanting", "enchanted"],
        genres: &["Fantasy", "Children"],
        keywords: &["magic", "wonder"],
    },
    Mood {
        id: "hungry",
        label: "I'm hungry",
        phrases: &[
            "hungry",
            "i'm hungry",
            "something to cook",
            "want to cook",
            "what to cook",
        ],
        genres: &["Cookery"],
        keywords: &["recipes"],
    },
];

/// The mood with this id.
pub fn mood(id: &str) -> Option<&'static Mood> {
    MOODS.iter().find(|m| m.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use quire_genres::GENRES;

    #[test]
    fn every_mood_suggests_taxonomy_genres_and_no_phrase_is_said_twice() {
        let mut phrases = Vec::new();
        for m in MOODS {
            assert!(!m.genres.is_empty() && !m.keywords.is_empty(), "{}", m.id);
            for g in m.genres {
                assert!(GENRES.contains(g), "{}: {g} is not in the taxonomy", m.id);
            }
            for p in m.phrases {
                assert_eq!(p.to_lowercase(), *p);
                assert!(!p.contains("  ") && !p.contains('-'), "{p}");
                phrases.push(*p);
            }
        }
        let n = phrases.len();
        phrases.sort_unstable();
        phrases.dedup();
        assert_eq!(phrases.len(), n, "a phrase names two moods");
    }

    #[test]
    fn ids_are_unique_and_found() {
        for m in MOODS {
            assert_eq!(mood(m.id), Some(m));
        }
    }
}
