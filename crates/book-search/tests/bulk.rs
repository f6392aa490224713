#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::{book, text};
use quire_book_search::{SearchIndex, SearchQuery};

const WORDS: &[&str] = &[
    "river", "shadow", "garden", "empire", "winter", "secret", "ocean", "silver", "forest",
    "crown", "letters", "journey", "midnight", "harbor", "library", "storm",
];
const GENRES: &[&str] = &["Fiction", "Science", "History", "Fantasy", "Poetry"];

#[test]
fn apply_many_indexes_ten_thousand_generated_books() {
    let docs: Vec<_> = (0..10_000usize)
        .map(|i| {
            let title = format!(
                "The {} of the {} {i}",
                WORDS[i % WORDS.len()],
                WORDS[(i / 7) % WORDS.len()]
            );
            let mut b = book(
                &title,
                &format!("Author {}", i % 97),
                GENRES[i % 5],
                &[WORDS[i % 3]],
                i as i64,
            );
            b.short_summary = format!(
                "A tale of {} and {}",
                WORDS[(i / 3) % 16],
                WORDS[(i / 5) % 16]
            );
            b.published_at = Some(i as i64);
            b
        })
        .collect();
    let index = SearchIndex::open(None).unwrap();
    assert_eq!(index.apply_many(docs).unwrap(), 10_000);
    assert_eq!(index.doc_count(), 10_000);

    let all = index.search(&text("")).unwrap();
    assert_eq!(all.total, 10_000);
    assert_eq!(all.genre_counts.values().sum::<u64>(), 10_000);
    assert_eq!(all.genre_counts.get("Poetry"), Some(&2_000));

    let typo = index
        .search(&SearchQuery {
            limit: 20,
            ..text("midnigth harbr")
        })
        .unwrap();
    assert!(typo.total > 0);
    assert_eq!(typo.hits.len(), 20);
    assert_eq!(typo.genre_counts.values().sum::<u64>(), typo.total);

    let filtered = index
        .search(&SearchQuery {
            genre: Some("history".into()),
            price_max_cents: Some(999),
            ..text("")
        })
        .unwrap();
    assert_eq!(filtered.total, 200);
}

#[test]
fn the_small_segments_of_many_commits_are_merged_in_the_background() {
    let index = SearchIndex::open(None).unwrap();
    let rebuilt: Vec<_> = (0..2_000)
        .map(|i| book(&format!("Shelf {i}"), "Ann Author", "Fiction", &[], 100))
        .collect();
    index.apply_many(rebuilt).unwrap();
    // The indexer commits each batch of book events: one small segment each.
    for i in 0..20 {
        index
            .apply(book(
                &format!("Late arrival {i}"),
                "Bo Writer",
                "Poetry",
                &[],
                100,
            ))
            .unwrap();
        index.commit().unwrap();
    }
    let started = std::time::Instant::now();
    while index.segments() > 2 {
        assert!(
            started.elapsed() < std::time::Duration::from_secs(30),
            "still {} segments after 30 s",
            index.segments()
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    // Merging loses nothing.
    assert_eq!(index.search(&text("")).unwrap().total, 2_020);
    assert_eq!(index.search(&text("late arrival")).unwrap().total, 20);
}
