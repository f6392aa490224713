#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::{book, classics, index_with, text, titles};
use quire_book_search::SearchQuery;

#[test]
fn a_query_with_typos_finds_the_book() {
    let docs = classics();
    let index = index_with(docs.clone());
    let found = titles(&index, &docs, &text("prid and prejudce"));
    assert_eq!(
        found.first().map(String::as_str),
        Some("Pride and Prejudice")
    );
}

#[test]
fn the_last_word_is_matched_as_a_prefix_while_typing() {
    let docs = classics();
    let index = index_with(docs.clone());
    let found = titles(&index, &docs, &text("moby d"));
    assert_eq!(found.first().map(String::as_str), Some("Moby-Dick"));
    let typing = index.search(&text("moby d")).unwrap();
    assert_eq!(
        typing.hits[0].match_percentage, 85,
        "an exact word and a prefix"
    );
    let found = titles(&index, &docs, &text("pri"));
    assert!(
        found.contains(&"Pride and Prejudice".to_string()),
        "{found:?}"
    );
    assert!(
        found.contains(&"Prime Numbers for Everyone".to_string()),
        "{found:?}"
    );
}

#[test]
fn exact_matches_rank_above_fuzzy_ones() {
    let docs = vec![
        book("The Lost Garden", "A", "Fiction", &[], 100),
        book("The Last Garden", "B", "Fiction", &[], 100),
    ];
    let index = index_with(docs.clone());
    let found = titles(&index, &docs, &text("lost garden"));
    assert_eq!(found, vec!["The Lost Garden", "The Last Garden"]);
}

#[test]
fn accents_and_case_do_not_matter() {
    let docs = vec![book("Les Misérables", "Victor Hugo", "Fiction", &[], 100)];
    let index = index_with(docs.clone());
    assert_eq!(
        titles(&index, &docs, &text("MISERABLES")),
        vec!["Les Misérables"]
    );
}

#[test]
fn summaries_and_tags_are_searched_too() {
    let docs = classics();
    let index = index_with(docs.clone());
    assert_eq!(titles(&index, &docs, &text("pequod")), vec!["Moby-Dick"]);
    assert_eq!(
        titles(&index, &docs, &text("darcy ")),
        vec!["Pride and Prejudice"]
    );
    assert_eq!(
        titles(&index, &docs, &text("physics ")),
        vec!["A Brief History of Time"]
    );
}

#[test]
fn genre_tag_author_and_price_filters_narrow_the_results() {
    let docs = classics();
    let index = index_with(docs.clone());
    let all = index.search(&text("")).unwrap();
    assert_eq!(all.total, 6);

    let science = SearchQuery {
        genre: Some("science".into()),
        ..text("")
    };
    assert_eq!(index.search(&science).unwrap().total, 2);

    let classic_fiction = SearchQuery {
        genre: Some("FICTION".into()),
        tags: vec!["Classic".into()],
        ..text("")
    };
    assert_eq!(index.search(&classic_fiction).unwrap().total, 3);

    let sea = SearchQuery {
        tags: vec!["classic".into(), "sea".into()],
        ..text("")
    };
    assert_eq!(titles(&index, &docs, &sea), vec!["Moby-Dick"]);

    let austen = SearchQuery {
        author: Some("austen".into()),
        ..text("")
    };
    assert_eq!(index.search(&austen).unwrap().total, 2);

    let cheap = SearchQuery {
        price_max_cents: Some(499),
        ..text("")
    };
    assert_eq!(index.search(&cheap).unwrap().total, 3);
    let mid = SearchQuery {
        price_min_cents: Some(400),
        price_max_cents: Some(1299),
        ..text("")
    };
    assert_eq!(index.search(&mid).unwrap().total, 3);

    let austen_cheap_text = SearchQuery {
        author: Some("Jane Austen".into()),
        price_max_cents: Some(450),
        ..text("sense")
    };
    assert_eq!(
        titles(&index, &docs, &austen_cheap_text),
        vec!["Sense and Sensibility"]
    );

    let nothing = SearchQuery {
        genre: Some("poetry".into()),
        ..text("pride")
    };
    assert_eq!(index.search(&nothing).unwrap().total, 0);
}

#[test]
fn genre_counts_cover_every_match_and_add_up_to_the_total() {
    let docs = classics();
    let index = index_with(docs);
    let page = SearchQuery {
        limit: 2,
        ..text("")
    };
    let results = index.search(&page).unwrap();
    assert_eq!(results.hits.len(), 2);
    assert_eq!(results.total, 6);
    assert_eq!(results.genre_counts.values().sum::<u64>(), results.total);
    assert_eq!(results.genre_counts.get("Fiction"), Some(&3));
    assert_eq!(results.genre_counts.get("Science"), Some(&2));

    let classic = index.search(&text("classic ")).unwrap();
    assert_eq!(classic.total, 4);
    assert_eq!(classic.genre_counts.values().sum::<u64>(), 4);
}

#[test]
fn genre_counts_follow_books_that_change_genre_or_arrive_after_a_search() {
    let docs = classics();
    let index = index_with(docs.clone());
    let before = index.search(&text("")).unwrap();
    assert_eq!(before.genre_counts.get("Fiction"), Some(&3));

    // One book moves to another genre and a new one arrives, each in a commit of its own
    // (new segments while the first one's genres were already read).
    let mut moved = docs[0].clone();
    moved.genre = "Romance".into();
    moved.version += 1;
    index.apply(moved).unwrap();
    index.commit().unwrap();
    index
        .apply(book("Dune", "Frank Herbert", "Science Fiction", &[], 999))
        .unwrap();
    index.commit().unwrap();

    let after = index.search(&text("")).unwrap();
    assert_eq!(after.total, 7);
    assert_eq!(after.genre_counts.get("Fiction"), Some(&2));
    assert_eq!(after.genre_counts.get("Romance"), Some(&1));
    assert_eq!(after.genre_counts.get("Science Fiction"), Some(&1));
    assert_eq!(after.genre_counts.values().sum::<u64>(), 7);
}

#[test]
fn match_percentage_is_full_for_an_exact_match_and_lower_for_a_partial_one() {
    let docs = classics();
    let index = index_with(docs.clone());

    let one_word = index.search(&text("darwin")).unwrap();
    assert_eq!(one_word.hits[0].match_percentage, 100);

    let full = index.search(&text("pride prejudice")).unwrap();
    assert_eq!(full.hits[0].match_percentage, 100);

    let partial = index.search(&text("pride whales")).unwrap();
    assert!(partial.hits[0].match_percentage < 100, "{:?}", partial.hits);
    assert!(partial.hits[0].match_percentage > 0);

    let typo = index.search(&text("prid prejudce ")).unwrap();
    let top = &typo.hits[0];
    assert!(
        top.match_percentage < 100 && top.match_percentage >= 50,
        "{top:?}"
    );
    assert!(top.score > 0.0);
}

#[test]
fn browsing_lists_newest_published_first_and_pages() {
    let mut docs = classics();
    for (i, d) in docs.iter_mut().enumerate() {
        d.published_at = Some(1_000 + i as i64);
    }
    docs[0].published_at = None;
    let index = index_with(docs.clone());
    let first = titles(
        &index,
        &docs,
        &SearchQuery {
            limit: 2,
            ..text("")
        },
    );
    assert_eq!(
        first,
        vec!["Prime Numbers for Everyone", "The Origin of Species"]
    );
    let rest = titles(
        &index,
        &docs,
        &SearchQuery {
            offset: 4,
            limit: 10,
            ..text("  ")
        },
    );
    assert_eq!(rest, vec!["Moby-Dick", "Pride and Prejudice"]);
    let past_the_end = index
        .search(&SearchQuery {
            offset: usize::MAX,
            ..text("")
        })
        .unwrap();
    assert!(past_the_end.hits.is_empty());
    assert_eq!(past_the_end.total, 6);
    let no_page = index
        .search(&SearchQuery {
            limit: 0,
            ..text("classic")
        })
        .unwrap();
    assert!(no_page.hits.is_empty());
    assert_eq!(no_page.total, 4);
}

#[test]
fn a_query_matching_nothing_is_empty() {
    let index = index_with(classics());
    let results = index.search(&text("zzzzqqqq")).unwrap();
    assert_eq!(results.total, 0);
    assert!(results.hits.is_empty());
    assert!(results.genre_counts.is_empty());
}
