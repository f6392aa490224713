//! Indexes generated books and prints search latencies (no assertions; a rough local check).
//! `cargo run --release -p quire-book-search --example latency -- 100000 [settle_secs] [one-core]`
//! (`one-core`: as if another request were under way, so no search spreads over the cores)
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::{Duration, Instant};

use quire_book_search::{BookDoc, SearchIndex, SearchQuery};
use uuid::Uuid;

const SYLLABLES: &[&str] = &[
    "ka", "lo", "mi", "ren", "sta", "vor", "el", "din", "tha", "gro", "pe", "lan", "qui", "so",
    "mar", "bel", "ton", "ri", "ash", "wen",
];
const GENRES: &[&str] = &[
    "Fiction", "Science", "History", "Fantasy", "Poetry", "Romance", "Crime",
];

/// A small deterministic generator: the example needs variety, not randomness.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as usize
    }
    fn word(&mut self) -> String {
        // Zipf-like: low indices far more common, as in real text.
        let bound = self.next(5000) + 1;
        let rank = self.next(bound);
        let mut w = String::new();
        let mut r = rank + 7;
        while r > 0 {
            w.push_str(SYLLABLES[r % SYLLABLES.len()]);
            r /= SYLLABLES.len();
        }
        w
    }
    fn words(&mut self, n: usize) -> String {
        (0..n).map(|_| self.word()).collect::<Vec<_>>().join(" ")
    }
}

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(100_000);
    let mut g = Lcg(42);
    let docs: Vec<BookDoc> = (0..n)
        .map(|i| BookDoc {
            book_id: Uuid::new_v4(),
            title: g.words(3),
            author: g.words(2),
            short_summary: g.words(20),
            long_summary: g.words(120),
            tags: vec![g.word(), g.word()],
            genre: GENRES[i % GENRES.len()].into(),
            price_cents: (i % 5000) as i64,
            published_at: Some(i as i64),
            assessment_score: 3.5,
            listed: i % 50 != 0,
            version: 1,
        })
        .collect();
    let index = SearchIndex::open(None).unwrap();
    let t = Instant::now();
    index.apply_many(docs).unwrap();
    println!("indexed {n} books in {:?}", t.elapsed());
    if let Some(secs) = std::env::args().nth(2).and_then(|a| a.parse().ok()) {
        // Lets background merges land before measuring.
        std::thread::sleep(Duration::from_secs(secs));
    }

    let sample = |g: &mut Lcg| {
        let words = 1 + g.next(3);
        let mut text = g.words(words);
        match g.next(3) {
            0 => text.truncate(text.len().saturating_sub(2)), // still typing
            1 => text.insert(text.len() / 2, 'x'),            // a typo
            _ => text.push(' '),
        }
        text
    };
    // Two requests marked: each search then runs on its caller's thread alone.
    let _busy = (std::env::args().nth(3).as_deref() == Some("one-core"))
        .then(|| (index.request(), index.request()));
    let mut g = Lcg(7);
    for (name, filtered) in [("text", false), ("text+filters", true), ("browse", true)] {
        let mut times: Vec<Duration> = (0..300)
            .map(|_| {
                let mut q = SearchQuery {
                    limit: 10,
                    ..SearchQuery::default()
                };
                if name != "browse" {
                    q.text = sample(&mut g);
                }
                if filtered {
                    q.genre = Some("fantasy".into());
                    q.price_max_cents = Some(2500);
                }
                let t = Instant::now();
                let r = index.search(&q).unwrap();
                std::hint::black_box(r);
                t.elapsed()
            })
            .collect();
        times.sort();
        println!(
            "{name:>13}: p50 {:?} p95 {:?} max {:?}",
            times[times.len() / 2],
            times[times.len() * 95 / 100],
            times[times.len() - 1]
        );
    }
}
