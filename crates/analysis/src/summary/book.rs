//! The book's two summaries: a composed opening (see [`compose`]) and the book's own
//! sentences, chosen by what the whole book is about.
//!
//! A sentence's weight is its TextRank score (see [`Summariser`]) raised when it names the
//! lead (in a story or a play: the lead's scenes) and when it holds the book's tag words
//! (what the whole book is about, so a scene that only one chapter cares for weighs
//! less). None goes to a stage direction, a sentence in capitals or a cast list, a story's
//! sentence spoken inside a quotation (see [`speech`]), or a tiny first chapter (front
//! matter). The short summary takes the best of the opening part of the book (a story's
//! premise, a play's situation, the argument as a non-fiction book first states it; the
//! poems' best lines from anywhere). The long one takes the best of each third (opening,
//! turn, ending), each led in by a connective so the arc reads as one. Verse is quoted as
//! verse (its lines joined by " / ") and a play's speeches are quoted as speeches.

use super::compose::{self, Known};
use super::facts::Facts;
use super::kind::Kind;
use super::shape::{after_connective, is_shouting_or_a_list, is_stage_direction, prose, verse};
use super::speech;
use super::{LONG_WORDS, SHORT_WORDS, Summariser};
use crate::characters::Character;

/// Share of the book the short summary's premise comes from (stories, plays, non-fiction).
const OPENING_SHARE: f32 = 0.3;
/// Fewest words the short summary quotes, however long the composed opening.
const MIN_QUOTED: usize = 25;

/// What the analysis knows of the book beyond its sentences.
pub(crate) struct About<'x> {
    /// The main characters, lead first.
    pub characters: &'x [Character],
    /// The tags, best first.
    pub tags: &'x [String],
    /// The genre judged.
    pub genre: &'x str,
    /// Whether the genre is sure enough to be named (the writer's and kept, or probable).
    pub genre_sure: bool,
    /// Whether the text was read as a play.
    pub play: bool,
}

/// The book's summaries and the sentences each quotes (indices into the document's
/// sentences, in reading order).
pub(crate) struct BookSummaries {
    /// About [`SHORT_WORDS`] words.
    pub short: String,
    /// About [`LONG_WORDS`] words.
    pub long: String,
    /// The sentences the short summary quotes.
    pub short_sources: Vec<usize>,
    /// The sentences the long summary quotes.
    pub long_sources: Vec<usize>,
}

/// The short and long summaries of the book `s` ranks; `stems` maps word ids to stem
/// groups.
pub(crate) fn book_summaries(s: &Summariser, stems: &[u32], about: &About) -> BookSummaries {
    let doc = s.doc;
    let kind = Kind::of(doc.text, about.play, about.genre);
    let facts = Facts::gather(doc, about.characters, about.tags, kind == Kind::Play);
    let known = Known {
        facts: &facts,
        kind,
        genre: about.genre_sure.then_some(about.genre),
        words: doc.tokens.len(),
    };
    let weight = weights(s, stems, about.tags, kind);
    let n = doc.sentences.len();

    let opening = compose::opening(&known);
    let premise_end = match kind {
        Kind::Verse => n,
        _ => ((n as f32 * OPENING_SHARE).ceil() as usize).max(1),
    };
    let target = SHORT_WORDS.saturating_sub(words(&opening)).max(MIN_QUOTED);
    let short_sources = s.choose(0..premise_end, target, &weight);
    // A text without one sentence to quote gets no summary: the composed sentences
    // introduce the book's own, they do not stand for them.
    let short = if short_sources.is_empty() {
        String::new()
    } else {
        join([opening, quote(s, kind, &short_sources, None)])
    };

    let long_opening = compose::long_opening(&known);
    let per_third = LONG_WORDS.saturating_sub(words(&long_opening)) / 3;
    let thirds = [0..n / 3, n / 3..2 * n / 3, 2 * n / 3..n];
    let connectives = match kind {
        Kind::Story => [None, Some("Later,"), Some("In the end,")],
        Kind::NonFiction => [None, Some("Later,"), Some("Finally,")],
        Kind::Play | Kind::Verse => [Some("Early on:"), Some("Later:"), Some("Towards the end:")],
    };
    let mut long_sources = Vec::new();
    let mut parts = vec![long_opening];
    for (third, connective) in thirds.into_iter().zip(connectives) {
        let chosen = s.choose(third, per_third, &weight);
        parts.push(quote(s, kind, &chosen, connective));
        long_sources.extend(chosen);
    }
    BookSummaries {
        short,
        long: if long_sources.is_empty() {
            String::new()
        } else {
            join(parts)
        },
        short_sources,
        long_sources,
    }
}

/// Every sentence's weight for the book summaries: 0 where it may not be used.
fn weights(s: &Summariser, stems: &[u32], tags: &[String], kind: Kind) -> Vec<f32> {
    let doc = s.doc;
    let mut focus: Vec<u32> = tags
        .iter()
        .flat_map(|t| t.split(' '))
        .filter_map(|w| doc.vocab.id(w))
        .map(|id| stems.get(id as usize).copied().unwrap_or(id))
        .collect();
    focus.sort_unstable();
    focus.dedup();
    let (lead_boost, focus_boost) = match kind {
        Kind::Story => (1.8, 0.2),
        Kind::Play => (1.4, 0.2),
        Kind::Verse => (1.0, 0.3),
        Kind::NonFiction => (1.0, 0.4),
    };
    // A first chapter of a few per cent of a book of several is its title page, cast
    // list, contents or preface, not the story.
    let front_matter = doc
        .chapters
        .first()
        .filter(|c| doc.chapters.len() >= 3 && c.tokens.len() * 100 < 3 * doc.tokens.len())
        .map(|_| 0);
    // A story tells its premise in the narrator's words, not a character's.
    let spoken = match kind {
        Kind::Story | Kind::NonFiction => speech::starts_inside_quotes(doc),
        Kind::Play | Kind::Verse => Vec::new(),
    };
    (0..doc.sentences.len())
        .map(|i| {
            let base = s.score[i];
            let sentence = &doc.sentences[i];
            let text = doc.sentence_text(sentence);
            let words = doc.sentence_tokens(sentence).iter().map(|t| doc.raw(t));
            if base == 0.0
                || front_matter == Some(sentence.chapter)
                || spoken.get(i).copied().unwrap_or(false)
                || is_shouting_or_a_list(words)
                || (matches!(kind, Kind::Play | Kind::Verse) && is_stage_direction(text))
            {
                return 0.0;
            }
            let hits = s.content[i]
                .iter()
                .filter(|w| focus.binary_search(w).is_ok())
                .count()
                .min(3);
            let lead = if s.lead[i] { lead_boost } else { 1.0 };
            base * lead * (1.0 + focus_boost * hits as f32)
        })
        .collect()
}

/// The chosen sentences as the summary prints them, after `connective` if given: prose,
/// or a quotation of verse or of a play's speeches.
fn quote(s: &Summariser, kind: Kind, chosen: &[usize], connective: Option<&str>) -> String {
    if chosen.is_empty() {
        return String::new();
    }
    let text = |i: usize| s.doc.sentence_text(&s.doc.sentences[i]);
    match kind {
        Kind::Verse => {
            let body = chosen
                .iter()
                .map(|&i| verse(text(i)))
                .collect::<Vec<_>>()
                .join(" / ");
            match connective {
                Some(c) => format!("{c} \u{201C}{body}\u{201D}"),
                None => format!("\u{201C}{body}\u{201D}"),
            }
        }
        Kind::Play => {
            // Each speech its own quotation: the speakers may differ.
            let body = chosen
                .iter()
                .map(|&i| format!("\u{201C}{}\u{201D}", prose(text(i))))
                .collect::<Vec<_>>()
                .join(" ");
            match connective {
                Some(c) => format!("{c} {body}"),
                None => body,
            }
        }
        Kind::Story | Kind::NonFiction => {
            let mut out: Vec<String> = chosen.iter().map(|&i| prose(text(i))).collect();
            if let (Some(c), Some(first)) = (connective, out.first_mut()) {
                *first = after_connective(c, first);
            }
            out.join(" ")
        }
    }
}

fn words(text: &str) -> usize {
    text.split_whitespace().count()
}

/// The non-empty parts, joined by spaces.
fn join(parts: impl IntoIterator<Item = String>) -> String {
    parts
        .into_iter()
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::doc::Doc;

    fn person(doc: &Doc, name: &str) -> Character {
        Character {
            name: name.to_owned(),
            words: vec![doc.vocab.id(&name.to_lowercase()).unwrap()],
        }
    }

    /// The summaries of `text` cut into chapters at blank lines.
    fn summarise(
        text: &str,
        people: &[&str],
        tags: &[&str],
        genre: &str,
        play: bool,
    ) -> BookSummaries {
        let mut spans = Vec::new();
        let mut at = 0;
        for part in text.split("\n\n") {
            spans.push(("", at..at + part.len()));
            at += part.len() + 2;
        }
        let doc = Doc::new(text, &spans);
        let stems = doc.vocab.stem_groups();
        let characters: Vec<Character> = people.iter().map(|p| person(&doc, p)).collect();
        let words: Vec<u32> = characters.iter().flat_map(|c| c.words.clone()).collect();
        let lead = characters
            .first()
            .map(|c| c.words.clone())
            .unwrap_or_default();
        let s = Summariser::new(&doc, &stems, &words, &lead);
        let tags: Vec<String> = tags.iter().map(|t| t.to_string()).collect();
        book_summaries(
            &s,
            &stems,
            &About {
                characters: &characters,
                tags: &tags,
                genre,
                genre_sure: true,
                play,
            },
        )
    }

    const STORY: &str = "Mara kept the lighthouse above the harbour of Tarrow for twenty years. \
        Her brother Oren fished the cold water off Tarrow every morning of the year. \
        The harbour master of Tarrow wanted the old lighthouse pulled down for a new pier.\n\n\
        A storm came in from the north and broke the great lamp of the lighthouse. \
        Mara climbed the tower through the night while Oren rowed out to the stranded boats. \
        Mara and Oren had kept the boats of the village safe through many winters. \
        The fishermen of the village watched the dark water and waited for the light.\n\n\
        Mara mended the lamp with glass from her own windows before the dawn, and Oren saw it. \
        The boats came home to Tarrow by the light, and Oren brought the last of them in. \
        The harbour master never spoke of the new pier again, and the lighthouse still stands.";

    #[test]
    fn a_story_opens_with_its_lead_and_tells_its_arc() {
        let b = summarise(
            STORY,
            &["Mara", "Oren"],
            &["lighthouse", "harbour"],
            "Literary Fiction",
            false,
        );
        assert!(
            b.short.starts_with("This literary story follows Mara")
                || b.short
                    .starts_with("Mara is at the centre of this literary story")
                || b.short.starts_with("This literary story tells of Mara"),
            "{}",
            b.short
        );
        assert!(b.short.contains("Oren"), "{}", b.short);
        assert!(b.short.split_whitespace().count() <= 80, "{}", b.short);
        assert!(!b.short_sources.is_empty());
        // The long summary quotes the opening, the middle and the end.
        let doc = Doc::single(STORY);
        let n = doc.sentences.len();
        for third in [0..n / 3, n / 3..2 * n / 3, 2 * n / 3..n] {
            assert!(
                b.long_sources.iter().any(|i| third.contains(i)),
                "{:?}",
                b.long_sources
            );
        }
        assert!(
            b.long.contains("Mara's scenes are shared most with Oren."),
            "{}",
            b.long
        );
    }

    #[test]
    fn a_play_names_its_largest_part_and_quotes_speeches_not_directions() {
        let play = "Enter Mara and Oren upon the walls of the lighthouse tower.\n\
            MARA. The lamp is broken and the boats are still out on the water.\n\
            OREN. Then I shall row out to them while you mend the light above.\n\
            Exeunt Mara and Oren into the storm together.\n\n\
            Enter the Harbour Master with his clerks and a lantern.\n\
            MASTER. This old tower of Mara's shall come down for my new pier.\n\
            MARA. Not while one boat of Tarrow is out on the sea at night.\n\n\
            Enter Oren with the fishermen from the boats.\n\
            OREN. Every boat is home, and Mara's light brought every one of them in.\n\
            MARA. Then let the tower stand as long as the sea comes to Tarrow.";
        let b = summarise(
            play,
            &["Mara", "Oren"],
            &["tower", "boats"],
            "Literary Fiction",
            true,
        );
        assert!(
            b.short
                .starts_with("Mara has the largest part in this play, with Oren"),
            "{}",
            b.short
        );
        assert!(
            b.short.contains('\u{201C}') && !b.short.contains("Enter"),
            "{}",
            b.short
        );
        assert!(b.long.contains("Early on:"), "{}", b.long);
    }

    #[test]
    fn verse_is_quoted_as_verse_and_non_fiction_by_its_subjects() {
        let verse = "Upon the cape the lighthouse stands alone,\n\
            Its lamp a star the fishermen have known;\n\
            When storms come down and every sail is blind,\n\
            It sends its light to those the sea would find.\n\n\
            The keeper climbs the stair at fall of night,\n\
            And trims the wick and tends the turning light;\n\
            No bell, no song, no word of thanks is said,\n\
            Yet every boat comes home and none is dead.";
        let b = summarise(verse, &[], &["lighthouse", "storms"], "Poetry", false);
        assert!(
            b.short
                .starts_with("The verse of this book turns on lighthouse and storms."),
            "{}",
            b.short
        );
        assert!(b.short.contains(" / "), "{}", b.short);

        let essay = "Lighthouses were built along the northern coast in the eighteenth century. \
            Each lighthouse cost the harbour towns a great deal of money and labour. \
            The towns paid for them because the trade of the harbour depended on safe ships. \
            Records of the harbour dues show how the lighthouses repaid their cost within years.";
        let b = summarise(
            essay,
            &[],
            &["lighthouses", "harbour dues"],
            "History",
            false,
        );
        assert!(
            b.short
                .starts_with("This is a history about lighthouses and harbour dues."),
            "{}",
            b.short
        );
    }
}
