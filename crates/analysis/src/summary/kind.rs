//! What kind of book a summary is written for: a story, a play, verse or non-fiction.
//! Each gets a summary of its own kind (a story's premise and arc, a play's speakers and
//! situation, what the poems are about in their own lines, a non-fiction book's
//! argument).
//!
//! A play is what the genre reading found (speakers' names before speeches, stage
//! directions). Verse is a text printed mostly in short lines that do not end a
//! sentence, or one whose genre is Poetry. Non-fiction is a genre of the taxonomy that
//! is not fiction: quire-genres lists the genres but not which are fiction, so the list
//! is here ([`NON_FICTION`]).

/// The genres of quire-genres that are not fiction.
pub(super) const NON_FICTION: &[&str] = &[
    "History",
    "Politics",
    "Biography",
    "Science",
    "Self-help",
    "Cookery",
];

/// A line of verse has at most this many words (as the genre's style measure counts).
const VERSE_LINE_WORDS: usize = 10;
/// A text is verse when at least this share of its lines are verse lines...
const VERSE_SHARE: f32 = 0.6;
/// ... or this share are verse lines starting with a capital, as most printed verse does.
const CAPITAL_VERSE_SHARE: f32 = 0.45;
/// Verse is told from this many stretches of lines...
const SAMPLE_STRETCHES: usize = 16;
/// ... of this many lines each.
const STRETCH_LINES: usize = 250;
/// A story of at least this many words is a novel.
const NOVEL_WORDS: usize = 40_000;

/// The kind of book.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    /// Prose fiction: novels, stories, tales for children.
    Story,
    /// A play: speeches and stage directions.
    Play,
    /// Poems, or a poem.
    Verse,
    /// Prose that argues, explains or recounts: history, politics, science...
    NonFiction,
}

impl Kind {
    /// The kind of a book whose full text is `text`, read as a play or not, of `genre`.
    pub fn of(text: &str, play: bool, genre: &str) -> Kind {
        if play {
            Kind::Play
        } else if genre == "Poetry" || is_verse(text) {
            Kind::Verse
        } else if NON_FICTION.contains(&genre) {
            Kind::NonFiction
        } else {
            Kind::Story
        }
    }
}

/// Whether a text is printed as verse: short lines that mostly do not end a sentence.
fn is_verse(text: &str) -> bool {
    let (mut lines, mut verse, mut capital) = (0usize, 0usize, 0usize);
    // Stretches of lines spread over the text tell as well as all of them (a novel has
    // tens of thousands); whole stretches, so a stanza's shape cannot alias a sample.
    let total = text.lines().count();
    let every = (total / SAMPLE_STRETCHES).max(STRETCH_LINES);
    for line in text
        .lines()
        .enumerate()
        .filter(|(i, _)| i % every < STRETCH_LINES)
        .map(|(_, l)| l.trim())
        .filter(|l| !l.is_empty())
    {
        lines += 1;
        let short = line.split_whitespace().take(VERSE_LINE_WORDS + 1).count() <= VERSE_LINE_WORDS;
        let ends = line
            .trim_end_matches(['"', '\'', '\u{201D}', '\u{2019}', ')', '*', '_'])
            .ends_with(['.', '!', '?', '\u{2026}']);
        if short && !ends {
            verse += 1;
            capital += usize::from(line.chars().next().is_some_and(char::is_uppercase));
        }
    }
    let lines = lines.max(1) as f32;
    lines >= 20.0
        && (verse as f32 / lines >= VERSE_SHARE || capital as f32 / lines >= CAPITAL_VERSE_SHARE)
}

/// How a summary names a story of `genre` and `words` words: "mystery novel",
/// "children's story"; with no genre it is sure of, "novel" or "story".
pub(super) fn story_noun(genre: Option<&str>, words: usize) -> String {
    let form = if words >= NOVEL_WORDS {
        "novel"
    } else {
        "story"
    };
    let adjective = match genre {
        Some("Mystery") => "mystery",
        Some("Thriller") => "thriller",
        Some("Romance") => "romantic",
        Some("Fantasy") => "fantasy",
        Some("Science Fiction") => "science-fiction",
        Some("Horror") => "horror",
        Some("Literary Fiction") => "literary",
        Some("Historical Fiction") => "historical",
        Some("Children") => "children's",
        Some("Young Adult") => "young-adult",
        Some("Humour") => "comic",
        _ => "",
    };
    if adjective.is_empty() {
        form.to_owned()
    } else {
        format!("{adjective} {form}")
    }
}

/// How a summary names a non-fiction book of `genre`: "history", "book on politics".
pub(super) fn non_fiction_noun(genre: Option<&str>) -> &'static str {
    match genre {
        Some("History") => "history",
        Some("Politics") => "book on politics",
        Some("Biography") => "biography",
        Some("Science") => "book of science",
        Some("Self-help") => "book of advice",
        Some("Cookery") => "cookery book",
        _ => "book",
    }
}

/// How a summary names a play of `genre`: "comedy", "history play", or "play".
pub(super) fn play_noun(genre: Option<&str>) -> &'static str {
    match genre {
        Some("Humour") => "comedy",
        Some("Historical Fiction") => "history play",
        _ => "play",
    }
}

/// "a" or "an" before `word`.
pub(super) fn article(word: &str) -> &'static str {
    if word.starts_with(['a', 'e', 'i', 'o', 'u', 'A', 'E', 'I', 'O', 'U']) {
        "an"
    } else {
        "a"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plays_verse_non_fiction_and_stories_are_told_apart() {
        let verse = "The heron stands in the shallows\nLike a question no one asked,\n\
            And the river keeps its counsel\nWhere the willows dip and bend,\n"
            .repeat(10);
        let prose = "The ship left the harbour at dawn, and the town watched it go \
            until the sails were gone.\n"
            .repeat(30);
        assert_eq!(Kind::of(&verse, false, "Fantasy"), Kind::Verse);
        assert_eq!(Kind::of(&verse, true, "Poetry"), Kind::Play);
        assert_eq!(Kind::of(&prose, false, "History"), Kind::NonFiction);
        assert_eq!(Kind::of(&prose, false, "Poetry"), Kind::Verse);
        assert_eq!(Kind::of(&prose, false, "Mystery"), Kind::Story);
    }

    #[test]
    fn stories_are_named_by_genre_and_length() {
        assert_eq!(story_noun(Some("Mystery"), 80_000), "mystery novel");
        assert_eq!(story_noun(Some("Horror"), 5_000), "horror story");
        assert_eq!(story_noun(None, 5_000), "story");
        assert_eq!(
            story_noun(Some("Literary Fiction"), 90_000),
            "literary novel"
        );
        assert_eq!(non_fiction_noun(Some("History")), "history");
        assert_eq!(play_noun(Some("Humour")), "comedy");
        assert_eq!(article("apple"), "an");
    }
}
