//! quire-analysis: what Quire finds in a manuscript, offline and deterministic (the same
//! text always gives the same analysis, with no network and no hosted model).
//!
//! It must never reach the network, read the clock or a random source, or panic on any
//! text: every function takes whatever text a writer uploads.
//!
//! - [`analyse`]: the whole analysis of a manuscript (summaries, authors, tags, genre,
//!   main characters, quality scores, AI check, per-chapter reports), in well under a
//!   second for a novel.
//! - [`ai_check`]: the advisory AI check of one text.
//! - [`near_dup`]: MinHash signatures and LSH band keys to find copies of a book.
//! - [`text`]: the tokenising every part shares (sentences, words, stop words, syllables).
//! - [`genre`]: the genre classifier (into the taxonomy of quire-genres).
//!
//! Everything it knows is compiled in: an English word list and a language model trained
//! at build time from public-domain text (see `data/*/SOURCES.md` and `build.rs`), and the
//! AI check's fitted weights (see `data/ai_check/README.md`). It never reads a file at run
//! time, and hash maps use fixed hashers, so results never depend on the process.
#![forbid(unsafe_code)]
#![cfg_attr(test, allow(clippy::unwrap_used, clippy::expect_used))]

pub mod ai;
mod authors;
mod characters;
mod doc;
pub mod genre;
mod lm;
mod lm_key;
pub mod near_dup;
pub mod quality;
mod summary;
mod tags;
pub mod text;
mod words;

use serde::Serialize;

pub use ai::{AiCheck, ChapterAiCheck, Signal};
pub use quality::{Quality, QualityPart};

/// One chapter of a manuscript.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ChapterText {
    /// The chapter's title (may be empty).
    pub title: String,
    /// The chapter's plain text.
    pub text: String,
}

/// What `analyse` reads.
#[derive(Debug, Clone, Copy)]
pub struct Input<'a> {
    /// The book's title (callers keep it with the analysis; the analysis reads it only to
    /// put first the character the book is named after).
    pub title: &'a str,
    /// The chapters, in reading order.
    pub chapters: &'a [ChapterText],
    /// Authors named in the file's metadata (used before guessing from the title page).
    pub metadata_authors: &'a [String],
    /// The writer's own genre, if given.
    pub genre_hint: Option<&'a str>,
}

/// The whole analysis of a manuscript.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Analysis {
    /// About 60 words: a sentence composed from what the analysis found (the lead and the
    /// main characters, the place, the subjects, the genre when sure), then the book's own
    /// sentences on its premise (a play's situation, a poem's lines, a book's argument).
    pub short_summary: String,
    /// About 300 words: the composed opening, who the lead is with, then the book's own
    /// sentences from its opening, middle and ending thirds.
    pub long_summary: String,
    /// The passages of the book the summaries are made of, in reading order.
    pub summary_sources: Vec<SummarySource>,
    /// Authors, from metadata or else the title page.
    pub authors: Vec<String>,
    /// 5 to 12 lowercase keyphrases.
    pub tags: Vec<String>,
    /// The genre: the writer's own (the hint) unless the text clearly says otherwise (see
    /// `genre_evidence`), else the most probable one.
    pub genre: String,
    /// All genre probabilities, best first.
    pub genre_scores: Vec<GenreScore>,
    /// Why the genre is what it is: what became of the writer's genre, and the passages,
    /// words and style traits that decided it.
    pub genre_evidence: GenreEvidence,
    /// Main characters, most prominent first.
    pub characters: Vec<String>,
    /// Writing-quality scores.
    pub quality: Quality,
    /// The advisory AI check.
    pub ai_check: AiCheck,
    /// Per-chapter reports.
    pub chapters: Vec<ChapterReport>,
    /// Words in the whole manuscript.
    pub words: usize,
}

/// A genre and its probability.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GenreScore {
    /// Genre name.
    pub genre: String,
    /// Probability, 0..=1.
    pub probability: f32,
}

/// Why the classifier gave its genre (see [`genre::judge`]).
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct GenreEvidence {
    /// The writer's genre (its canonical name), when the hint named a genre of the
    /// taxonomy.
    pub hint: Option<String>,
    /// Whether the text overruled the writer's genre: it reads clearly as another genre,
    /// which comes out at least three times as probable as the writer's even with the
    /// prior the writer's choice is given.
    pub hint_overruled: bool,
    /// One sentence for the writer: the genre, and what became of their own.
    pub reason: String,
    /// How many passages were read, spread evenly over the whole text (a short text is one
    /// passage).
    pub passages_read: usize,
    /// Whether the text was read as a play (speakers' names and stage directions set
    /// aside, the speeches counted as dialogue, the lines not taken for verse).
    pub play: bool,
    /// The passages that spoke most for the genre (against the writer's genre when it was
    /// overruled), strongest first, at most three.
    pub passages: Vec<GenrePassage>,
    /// The words and style traits that pushed most towards the genre (against the
    /// writer's genre when it was overruled, else against the average genre), strongest
    /// first, at most ten.
    pub features: Vec<GenreFeature>,
}

/// A passage the genre rests on.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GenrePassage {
    /// The chapter it is in, from 0.
    pub chapter: usize,
    /// Where it starts in that chapter's text, in bytes.
    pub offset: usize,
    /// Its first words.
    pub excerpt: String,
    /// The genre's probability from this passage alone (without the writer's genre).
    pub probability: f32,
}

/// A passage of the book a summary is made of.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SummarySource {
    /// The chapter it is in, from 0.
    pub chapter: usize,
    /// Where it starts in that chapter's text, in bytes.
    pub offset: usize,
    /// The passage as the book writes it.
    pub excerpt: String,
    /// Whether the short summary uses it (else only the long one does).
    pub in_short: bool,
}

/// A word, a pair of words or a style trait, and how much it pushed the genre.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GenreFeature {
    /// The word or pair as the text writes it (lowercased), or `style: ` and the trait.
    pub feature: String,
    /// Its share of the genre's score, in nats (averaged over the passages read).
    pub weight: f32,
}

/// What the analysis found in one chapter.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ChapterReport {
    /// Chapter index, from 0.
    pub index: usize,
    /// Chapter title.
    pub title: String,
    /// Words in the chapter.
    pub words: usize,
    /// About 40 words of the chapter's own sentences.
    pub summary: String,
    /// Probability (0..=1) that the chapter is machine-written.
    pub ai_probability: f32,
}

/// Analyses a whole manuscript.
pub fn analyse(input: &Input) -> Analysis {
    let (full, spans) = join_chapters(input.chapters);
    // The genre walks the text on its own: done before the document is tokenised, its
    // spelling tables are gone before the tokens arrive (a novel's peak memory is lower).
    let genre::Judgement {
        genre,
        scores: genre_scores,
        evidence: mut genre_evidence,
    } = genre::judge(&full, input.genre_hint);
    for passage in &mut genre_evidence.passages {
        // From the joined text to its chapter.
        let chapter = spans
            .iter()
            .rposition(|(_, range)| range.start <= passage.offset)
            .unwrap_or(0);
        passage.chapter = chapter;
        passage.offset -= spans.get(chapter).map_or(0, |(_, range)| range.start);
    }
    let doc = doc::Doc::new(&full, &spans);
    let stems = doc.vocab.stem_groups();
    let people = characters::main_characters(&doc, input.title);
    let character_words: Vec<u32> = people
        .iter()
        .flat_map(|c| c.words.iter().copied())
        .collect();
    let lead_words = people.first().map(|c| c.words.clone()).unwrap_or_default();
    let summariser = summary::Summariser::new(&doc, &stems, &character_words, &lead_words);
    let ai_check = ai::check(&doc);
    let ai_probabilities = ai::chapter_probabilities(&ai_check, doc.chapters.len());
    let chapters = doc
        .chapters
        .iter()
        .enumerate()
        .map(|(index, c)| ChapterReport {
            index,
            title: c.title.to_owned(),
            words: c.tokens.len(),
            summary: summariser.summary(c.sentences.clone(), summary::CHAPTER_WORDS),
            ai_probability: ai_probabilities.get(index).copied().unwrap_or(0.5),
        })
        .collect();
    let tags = tags::tags(&doc, &stems, &character_words);
    let book = summary::book_summaries(
        &summariser,
        &stems,
        &summary::About {
            characters: &people,
            tags: &tags,
            genre: &genre,
            genre_sure: genre_is_sure(&genre_evidence, &genre_scores),
            play: genre_evidence.play,
        },
    );
    let summary_sources = summary_sources(&doc, &spans, &book.short_sources, &book.long_sources);
    let kind = quality::Kind::detect(&full, genre_evidence.play);
    Analysis {
        short_summary: book.short,
        long_summary: book.long,
        summary_sources,
        authors: authors::authors(input.metadata_authors, &full),
        tags,
        genre,
        genre_scores,
        genre_evidence,
        characters: people.into_iter().map(|c| c.name).collect(),
        quality: quality::assess(&doc, kind),
        ai_check,
        chapters,
        words: doc.tokens.len(),
    }
}

/// Whether the genre is sure enough for a summary to name it: the writer's own, kept, or
/// one the text makes clearly probable.
fn genre_is_sure(evidence: &GenreEvidence, scores: &[GenreScore]) -> bool {
    (evidence.hint.is_some() && !evidence.hint_overruled)
        || scores.first().is_some_and(|g| g.probability >= 0.6)
}

/// The sentences either summary uses (indices into `doc`'s sentences), in reading order,
/// each placed in its chapter's own text.
fn summary_sources(
    doc: &doc::Doc,
    spans: &[(&str, std::ops::Range<usize>)],
    short: &[usize],
    long: &[usize],
) -> Vec<SummarySource> {
    let mut used: Vec<usize> = short.iter().chain(long).copied().collect();
    used.sort_unstable();
    used.dedup();
    used.into_iter()
        .filter_map(|i| doc.sentences.get(i).map(|s| (i, s)))
        .map(|(i, s)| {
            let chapter_start = spans.get(s.chapter).map_or(0, |(_, range)| range.start);
            SummarySource {
                chapter: s.chapter,
                offset: s.span.start.saturating_sub(chapter_start),
                excerpt: doc.sentence_text(s).to_owned(),
                in_short: short.contains(&i),
            }
        })
        .collect()
}

/// The chapters' texts joined by blank lines, and each chapter's title and byte range.
fn join_chapters(chapters: &[ChapterText]) -> (String, Vec<(&str, std::ops::Range<usize>)>) {
    let mut full = String::with_capacity(chapters.iter().map(|c| c.text.len() + 2).sum());
    let mut spans = Vec::with_capacity(chapters.len());
    for chapter in chapters {
        if !full.is_empty() {
            full.push_str("\n\n");
        }
        let start = full.len();
        full.push_str(&chapter.text);
        spans.push((chapter.title.as_str(), start..full.len()));
    }
    (full, spans)
}

/// The AI check of one text (for `POST /api/v1/ai_checker`).
pub fn ai_check(text: &str) -> AiCheck {
    ai::check(&doc::Doc::single(text))
}
