//! The ranking measured offline on the demo shop: an index built from the demo
//! catalogue's metadata (no search hits, no page counts), each labelled request of
//! `data/requests.jsonl` (see `data/README.md`) run turn by turn through the
//! understanding and `recommend` (each turn sees the books the one before showed, and
//! the last turn's picks are measured), and precision@5 printed and held above a floor
//! so a regression fails, over all requests and apart for the first set and the
//! held-out one (`"split": "heldout"`, written and labelled before they were first run;
//! see the README). When the sentence-embedding model is installed
//! (`deploy/local/fetch-model.sh`), the same runs with vectors are measured too, and
//! must not be worse than the lexical ranking by more than [`SEMANTIC_SLACK`].
//!
//!     cargo test -p quire-chat --release --test ranking_demo -- --nocapture
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::{HashMap, HashSet};

use quire_chat::DEFAULT_NAME;
use quire_chat::ranking::{Ask, BookDoc, Index, Pick, Reader, query_text, recommend};
use quire_chat::understanding::{Reply, Request, Shown, understand};
use quire_embed::{Embedder, MaybeEmbedder};
use serde::Deserialize;

/// Lexical precision@5 must stay at or above this.
const LEXICAL_FLOOR: f64 = 0.6;
/// How much lower precision@5 with vectors may be than without.
const SEMANTIC_SLACK: f64 = 0.05;
const TODAY: &str = "2026-11-25";

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    id: String,
    /// `heldout` for the requests written after the ranking, else the first set.
    #[serde(default)]
    split: Option<String>,
    turns: Vec<String>,
    relevant: Vec<String>,
}

fn cases() -> Vec<Case> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/requests.jsonl");
    let text = std::fs::read_to_string(path).expect("the labelled set is in the repo");
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("bad line {l}: {e}")))
        .collect()
}

/// The demo shop as the service would index it, ids by title order.
fn demo_index() -> Index {
    let mut index = Index::new();
    for (i, book) in quire_demo::catalog::books()
        .unwrap()
        .into_iter()
        .enumerate()
    {
        index.upsert(BookDoc {
            book_id: format!("demo-{i:02}"),
            title: book.title,
            author: book.authors.join(", "),
            authors: book.authors,
            short_summary: book.short_summary,
            long_summary: book.long_summary,
            tags: book.tags,
            genre: book.genre,
            price_cents: book.price_cents,
            publish_date: book.publish_date,
            assessment_score: book.assessment_score,
            language: book.language,
            version: 1,
            ..BookDoc::default()
        });
    }
    index
}

/// What one conversation showed last.
struct Outcome {
    last: Vec<Pick>,
}

fn converse(index: &Index, case: &Case, embedder: Option<&Embedder>) -> Outcome {
    let nobody_bought = HashSet::new();
    let nothing_read = HashMap::new();
    let mut state: Option<Request> = None;
    let mut shown: Vec<Shown> = Vec::new();
    // The measure is of the request each turn leaves, so the last turn may show a book
    // an earlier one showed (the service would not show it twice; that promise is its
    // own test's).
    let exclude: HashSet<String> = HashSet::new();
    let mut outcome = Outcome { last: Vec::new() };
    for say in &case.turns {
        let turn = understand(state.as_ref(), &shown, say, DEFAULT_NAME);
        if turn.request.is_some() {
            state = turn.request.clone();
        }
        let Some(request) = state.as_ref().filter(|_| turn.reply == Reply::Search) else {
            outcome.last = Vec::new();
            continue;
        };
        let vector = embedder.map(|e| e.embed(&query_text(request)).unwrap());
        let ask = Ask {
            request,
            query_vector: vector.as_deref(),
            search_hits: &[],
            reader: Reader {
                bought: &nobody_bought,
                genres_read: &nothing_read,
            },
            exclude: &exclude,
            limit: 5,
            today: TODAY,
        };
        outcome.last = recommend(index, &ask);
        shown = outcome
            .last
            .iter()
            .map(|p| {
                let doc = index.get(&p.book_id).unwrap();
                Shown {
                    id: doc.book_id.clone(),
                    title: doc.title.clone(),
                    price_cents: u32::try_from(doc.price_cents).ok(),
                    pages: None,
                }
            })
            .collect();
    }
    outcome
}

/// Precision@5 over all cases, over the first set and over the held-out one.
#[derive(Debug, Clone, Copy)]
struct Figures {
    all: f64,
    first: f64,
    heldout: f64,
}

impl std::fmt::Display for Figures {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{:.3} (first set {:.3}, held-out {:.3})",
            self.all, self.first, self.heldout
        )
    }
}

fn is_heldout(case: &Case) -> bool {
    case.split.as_deref() == Some("heldout")
}

/// The mean precision@5 of the cases, with a line per case for the log.
fn measure(index: &Index, cases: &[Case], embedder: Option<&Embedder>) -> (Figures, Vec<String>) {
    let by_title: HashMap<&str, &str> = cases
        .iter()
        .flat_map(|c| c.relevant.iter())
        .map(|t| {
            let id = (0..index.len())
                .map(|i| format!("demo-{i:02}"))
                .find(|id| index.get(id).is_some_and(|d| d.title == *t))
                .unwrap_or_else(|| panic!("{t:?} is not a demo title"));
            (t.as_str(), index.get(&id).unwrap().book_id.as_str())
        })
        .collect();
    let mut totals = [(0.0, 0usize); 2];
    let mut lines = Vec::new();
    for case in cases {
        let outcome = converse(index, case, embedder);
        let relevant: HashSet<&str> = case.relevant.iter().map(|t| by_title[t.as_str()]).collect();
        let shown: Vec<String> = outcome
            .last
            .iter()
            .map(|p| {
                let mark = if relevant.contains(p.book_id.as_str()) {
                    "+"
                } else {
                    "-"
                };
                let title = &index.get(&p.book_id).unwrap().title;
                format!("{mark} {title} ({}%: {})", p.match_percentage, p.reason)
            })
            .collect();
        let hits = outcome
            .last
            .iter()
            .take(5)
            .filter(|p| relevant.contains(p.book_id.as_str()))
            .count();
        let precision = hits as f64 / relevant.len().min(5) as f64;
        let split = &mut totals[usize::from(is_heldout(case))];
        split.0 += precision;
        split.1 += 1;
        lines.push(format!(
            "{:28} {precision:.2}\n    {}",
            case.id,
            shown.join("\n    ")
        ));
    }
    let mean = |(sum, n): (f64, usize)| sum / n.max(1) as f64;
    let all = (totals[0].0 + totals[1].0, totals[0].1 + totals[1].1);
    let figures = Figures {
        all: mean(all),
        first: mean(totals[0]),
        heldout: mean(totals[1]),
    };
    (figures, lines)
}

#[test]
fn the_demo_shop_answers_the_labelled_requests() {
    let cases = cases();
    assert!(cases.len() >= 30, "{} cases", cases.len());
    let ids: HashSet<&str> = cases.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(ids.len(), cases.len(), "ids are unique");
    let heldout = cases.iter().filter(|c| is_heldout(c)).count();
    assert!(heldout >= 19, "{heldout} held-out requests");
    assert!(
        cases
            .iter()
            .all(|c| c.split.as_deref().is_none_or(|s| s == "heldout")
                && c.id.starts_with("ho-") == is_heldout(c)),
        "a held-out request is marked so and its id starts with ho-"
    );

    let mut index = demo_index();
    assert_eq!(index.len(), 64);
    let (lexical, lines) = measure(&index, &cases, None);
    for line in &lines {
        eprintln!("{line}");
    }
    eprintln!(
        "precision@5, lexical: {lexical} over {} requests ({heldout} held out)",
        cases.len()
    );

    let maybe = MaybeEmbedder::from_env();
    if let Some(embedder) = maybe.embedder() {
        let texts: Vec<(String, String)> = index.missing_vectors(index.len());
        for (id, text) in texts {
            index.set_vector(&id, embedder.embed(&text).unwrap());
        }
        let (semantic, lines) = measure(&index, &cases, Some(embedder));
        for line in &lines {
            eprintln!("[semantic] {line}");
        }
        eprintln!("precision@5, lexical: {lexical}, with vectors: {semantic}");
        assert!(
            semantic.all >= lexical.all - SEMANTIC_SLACK,
            "with vectors {semantic}, lexical {lexical}"
        );
    } else {
        eprintln!("no model ({}): lexical only", maybe.status());
    }
    assert!(
        lexical.all >= LEXICAL_FLOOR,
        "lexical precision@5 {lexical}"
    );
}
