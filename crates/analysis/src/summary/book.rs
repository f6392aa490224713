//! The book's two summaries: a composed opening (see [`compose`]) and the book's own
//! sentences, chosen by what the whole book is about.
//!
//! A sentence's weight is its TextRank score (see [`Summariser`]) raised when it names the
//! lead (in a story or a play: the lead's scenes) and when it holds the book's tag words
//! (what the whole book is about, so a scene that only one chapter cares for weighs
//! less). The short summary takes the best of the opening part of the book (a story's
//! premise, a play's situation, the argument as a non-fiction book first states it; the
//! poems' best lines from anywhere). The long one takes the best of each third (opening,
//! turn, ending), each led in by a connective so the arc reads as one. Verse is quoted as
//! verse (its lines joined by " / ") and a play's speeches are quoted as speeches.

use super::compose::{self, Known};
use super::facts::Facts;
use super::kind::Kind;
use super::shape::{after_connective, is_shouting_or_a_list, is_stage_direction, prose, verse};
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
    let facts = Facts::gather(doc, about.characters, about.tags);
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
    let short = join([opening, quote(s, kind, &short_sources, None)]);

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
        long: join(parts),
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
    (0..doc.sentences.len())
        .map(|i| {
            let base = s.score[i];
            let sentence = &doc.sentences[i];
            let text = doc.sentence_text(sentence);
            if base == 0.0
                || front_matter == Some(sentence.chapter)
                || is_shouting_or_a_list(doc.sentence_tokens(sentence).iter().map(|t| doc.raw(t)))
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
