//! Tests of [`recommend`] as a whole, on a small shop written here: constraints,
//! exclusions, "more like this", variety, determinism, reasons and speed.

use std::collections::{HashMap, HashSet};

use super::*;
use crate::understanding::{Audience, Length};

/// (id, title, author, genre, tags, summary, price in cents, pages)
type Row = (
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    i64,
    u32,
);

const SHOP: &[Row] = &[
    (
        "m1",
        "Murder at the Winter Library",
        "Margery Pell",
        "Mystery",
        "cosy mystery, library, snowed in",
        "A warm, clever cosy mystery: snowed in at a country-house library.",
        649,
        240,
    ),
    (
        "m2",
        "The Clockmaker's Alibi",
        "Margery Pell",
        "Mystery",
        "detective, victorian, clocks",
        "A pawnbroker is found dead at midnight in Victorian London.",
        549,
        310,
    ),
    (
        "m3",
        "The Case of the Silent Bell",
        "Tobias Wren",
        "Mystery",
        "detective, village, church",
        "The village bell stays silent and the bell-ringer disappears.",
        399,
        150,
    ),
    (
        "m4",
        "A Body in the Orchard",
        "Tobias Wren",
        "Mystery",
        "cider, countryside, family secrets",
        "A stranger is found dead under the oldest apple tree.",
        499,
        280,
    ),
    (
        "m5",
        "Death on the Pier",
        "Margery Pell",
        "Mystery",
        "seaside, detective",
        "A detective on holiday finds a body under the pier.",
        299,
        200,
    ),
    (
        "f1",
        "Ember and the Iron Crown",
        "Morwenna Hale",
        "Fantasy",
        "dragons, kingdom, quest",
        "A blacksmith's apprentice must forge a crown that binds the last dragon.",
        999,
        420,
    ),
    (
        "f2",
        "The Salt Witch",
        "Morwenna Hale",
        "Fantasy",
        "witches, sea, magic",
        "A fisherman's daughter is apprenticed to the salt witch.",
        699,
        300,
    ),
    (
        "r1",
        "Letters to the Lighthouse",
        "Celia Marchetti",
        "Romance",
        "epistolary, lighthouse, second chances",
        "A tender love story in letters about grief and islands.",
        499,
        260,
    ),
    (
        "r2",
        "The Bookshop on Vine Street",
        "Celia Marchetti",
        "Romance",
        "bookshop, rivals to lovers, comedy",
        "A warm, funny romance between rival booksellers.",
        599,
        330,
    ),
    (
        "c1",
        "Pip and the Paper Boat",
        "Hazel Finch",
        "Children",
        "picture book, bedtime, friendship",
        "A gentle bedtime story about a paper boat.",
        0,
        32,
    ),
    (
        "c2",
        "Mo the Moon Mouse",
        "Jonah Reyes",
        "Children",
        "space, bedtime, mice",
        "A funny, cosy bedtime story about a mouse and the moon.",
        0,
        0,
    ),
    (
        "h1",
        "The Devil's Dictionary",
        "Ambrose Bierce",
        "Humour",
        "satire, wit",
        "A cynic's dictionary, defined with merciless wit.",
        199,
        500,
    ),
];

fn shop() -> Index {
    let mut index = Index::new();
    for (id, title, author, genre, tags, summary, price, pages) in SHOP {
        index.upsert(BookDoc {
            book_id: (*id).into(),
            title: (*title).into(),
            author: (*author).into(),
            authors: vec![(*author).into()],
            genre: (*genre).into(),
            tags: tags.split(", ").map(str::to_owned).collect(),
            short_summary: (*summary).into(),
            price_cents: *price,
            pages: *pages,
            publish_date: "2026-01-01".into(),
            assessment_score: 8.0,
            version: 1,
            ..BookDoc::default()
        });
    }
    index
}

struct Fixture {
    bought: HashSet<String>,
    read: HashMap<String, u32>,
    exclude: HashSet<String>,
}

impl Fixture {
    fn new() -> Self {
        Self {
            bought: HashSet::new(),
            read: HashMap::new(),
            exclude: HashSet::new(),
        }
    }

    fn ask<'a>(&'a self, request: &'a Request, limit: usize) -> Ask<'a> {
        Ask {
            request,
            query_vector: None,
            search_hits: &[],
            reader: Reader {
                bought: &self.bought,
                genres_read: &self.read,
            },
            exclude: &self.exclude,
            limit,
            today: "2026-11-25",
        }
    }
}

fn ids(picks: &[Pick]) -> Vec<&str> {
    picks.iter().map(|p| p.book_id.as_str()).collect()
}

fn genre(g: &str) -> Request {
    Request {
        genres: vec![g.into()],
        ..Request::default()
    }
}

#[test]
fn a_genre_gives_its_books_and_a_price_bound_keeps_to_it() {
    let index = shop();
    let f = Fixture::new();
    let mystery = genre("Mystery");
    let picks = recommend(&index, &f.ask(&mystery, 5));
    assert_eq!(picks.len(), 5);
    assert!(
        picks.iter().all(|p| p.book_id.starts_with('m')),
        "{picks:?}"
    );
    assert!(picks.iter().all(|p| p.match_percentage == 100));

    let cheap = Request {
        max_price_cents: Some(500),
        ..mystery
    };
    let picks = recommend(&index, &f.ask(&cheap, 5));
    assert_eq!(ids(&picks), ["m3", "m4", "m5"]);
    assert!(
        picks
            .iter()
            .all(|p| p.reason.starts_with("A mystery under $5")),
        "{picks:?}"
    );
}

#[test]
fn free_books_for_children_are_all_the_free_childrens_books() {
    let index = shop();
    let f = Fixture::new();
    let request = Request {
        max_price_cents: Some(0),
        audience: Some(Audience::Children),
        ..Request::default()
    };
    let picks = recommend(&index, &f.ask(&request, 5));
    assert_eq!(ids(&picks), ["c1", "c2"]);
    assert_eq!(picks[0].reason, "A free children's book");
}

#[test]
fn short_keeps_short_books_and_unknown_lengths_rank_lower() {
    let index = shop();
    let f = Fixture::new();
    let request = Request {
        audience: Some(Audience::Children),
        length: Some(Length::Short),
        ..Request::default()
    };
    let picks = recommend(&index, &f.ask(&request, 5));
    assert_eq!(ids(&picks), ["c1", "c2"]);
    assert!(picks[0].match_percentage > picks[1].match_percentage);
    let long = Request {
        length: Some(Length::Long),
        ..genre("Fantasy")
    };
    assert_eq!(ids(&recommend(&index, &f.ask(&long, 5))), ["f1"]);
}

#[test]
fn shown_bought_turned_down_and_excluded_books_never_come_back() {
    let index = shop();
    let mut f = Fixture::new();
    f.exclude.insert("m1".into());
    f.bought.insert("m2".into());
    let request = Request {
        exclude_books: vec!["m3".into()],
        ..genre("Mystery")
    };
    let picks = recommend(&index, &f.ask(&request, 5));
    assert_eq!(ids(&picks), ["m4", "m5"]);

    let no_romance = Request {
        moods: vec!["cosy".into()],
        exclude_genres: vec!["Romance".into()],
        ..Request::default()
    };
    let picks = recommend(&index, &Fixture::new().ask(&no_romance, 12));
    assert!(!picks.is_empty() && picks.iter().all(|p| !p.book_id.starts_with('r')));

    let no_dragons = Request {
        exclude_keywords: vec!["dragons".into()],
        ..genre("Fantasy")
    };
    assert_eq!(
        ids(&recommend(&index, &Fixture::new().ask(&no_dragons, 5))),
        ["f2"]
    );
}

#[test]
fn more_like_a_book_leaves_it_out_and_prefers_its_author_and_genre() {
    let index = shop();
    let f = Fixture::new();
    let request = Request {
        like_title: Some("the clockmakers alibi".into()),
        ..Request::default()
    };
    let picks = recommend(&index, &f.ask(&request, 3));
    assert!(!ids(&picks).contains(&"m2"));
    assert!(
        picks.iter().all(|p| p.book_id.starts_with('m')),
        "{picks:?}"
    );
    assert!(
        ["m1", "m5"].contains(&picks[0].book_id.as_str()),
        "{picks:?}"
    );
    assert_eq!(
        picks[0].reason,
        "Because you liked The Clockmaker's Alibi: the same author, also a mystery, also about detective"
    );

    let by_id = Request {
        like_book: Some("r1".into()),
        ..Request::default()
    };
    let picks = recommend(&index, &f.ask(&by_id, 1));
    assert_eq!(ids(&picks), ["r2"]);
}

#[test]
fn one_author_fills_at_most_two_places_unless_asked_for() {
    let index = shop();
    let f = Fixture::new();
    let mystery = genre("Mystery");
    let picks = recommend(&index, &f.ask(&mystery, 3));
    let pell = picks
        .iter()
        .filter(|p| ["m1", "m2", "m5"].contains(&p.book_id.as_str()));
    assert_eq!(pell.count(), 2, "{picks:?}");

    let by_pell = Request {
        author: Some("Margery Pell".into()),
        ..Request::default()
    };
    let picks = recommend(&index, &f.ask(&by_pell, 3));
    assert_eq!(ids(&picks), ["m1", "m2", "m5"]);
    assert!(
        picks.iter().all(|p| p.reason == "A book by Margery Pell"),
        "{picks:?}"
    );
}

#[test]
fn a_mood_ranks_the_books_that_say_it_first_with_a_reason_naming_it() {
    let index = shop();
    let f = Fixture::new();
    let cosy = Request {
        moods: vec!["cosy".into()],
        ..Request::default()
    };
    let picks = recommend(&index, &f.ask(&cosy, 5));
    assert_eq!(picks[0].book_id, "m1", "{picks:?}");
    assert_eq!(picks[0].reason, "A cosy mystery");
    let funny = Request {
        moods: vec!["funny".into()],
        ..Request::default()
    };
    let picks = recommend(&index, &f.ask(&funny, 3));
    assert_eq!(picks[0].book_id, "h1", "{picks:?}");
}

#[test]
fn topic_words_match_plurals_and_name_themselves_in_the_reason() {
    let index = shop();
    let f = Fixture::new();
    let request = Request {
        keywords: vec!["dragon".into()],
        ..genre("Fantasy")
    };
    let picks = recommend(&index, &f.ask(&request, 2));
    assert_eq!(picks[0].book_id, "f1");
    assert_eq!(picks[0].reason, "Fantasy about dragon");
    assert_eq!(picks[0].match_percentage, 100);
    assert!(picks[1].match_percentage < 100);
}

#[test]
fn sales_and_the_readers_genres_break_ties_and_say_so() {
    let mut index = shop();
    index.set_sales("m4", 10);
    let f = Fixture::new();
    let request = Request {
        max_price_cents: Some(500),
        ..genre("Mystery")
    };
    let picks = recommend(&index, &f.ask(&request, 3));
    assert_eq!(picks[0].book_id, "m4");
    assert_eq!(picks[0].reason, "A mystery under $5, popular with readers");

    let index = shop();
    let mut f = Fixture::new();
    f.read.insert("Romance".into(), 3);
    let free_of_words = Request {
        max_price_cents: Some(600),
        min_price_cents: Some(450),
        ..Request::default()
    };
    let picks = recommend(&index, &f.ask(&free_of_words, 1));
    assert_eq!(ids(&picks), ["r1"]);
    assert!(
        picks[0].reason.ends_with("a genre you read often"),
        "{picks:?}"
    );
}

#[test]
fn the_same_ask_gives_the_same_answer_and_ties_go_by_id() {
    let index = shop();
    let f = Fixture::new();
    let request = Request {
        moods: vec!["cosy".into()],
        ..Request::default()
    };
    let first = recommend(&index, &f.ask(&request, 6));
    for _ in 0..5 {
        assert_eq!(recommend(&index, &f.ask(&request, 6)), first);
    }
    let mut twin = shop();
    for id in ["z2", "z1"] {
        twin.upsert(BookDoc {
            book_id: id.into(),
            title: "Twin".into(),
            author: format!("Author {id}"),
            genre: "Poetry".into(),
            version: 1,
            ..BookDoc::default()
        });
    }
    let picks = recommend(&twin, &f.ask(&genre("Poetry"), 2));
    assert_eq!(ids(&picks), ["z1", "z2"]);
}

#[test]
fn a_search_hit_is_a_candidate_even_without_a_matching_word() {
    let index = shop();
    let f = Fixture::new();
    let request = Request {
        keywords: vec!["pawnbroker".into(), "zeppelin".into()],
        ..Request::default()
    };
    let hits = [SearchHit {
        book_id: "h1".into(),
        score: 3.0,
    }];
    let ask = Ask {
        search_hits: &hits,
        ..f.ask(&request, 5)
    };
    let picks = recommend(&index, &ask);
    assert_eq!(ids(&picks), ["m2", "h1"]);
    assert!(picks[0].match_percentage > 0 && picks[1].match_percentage == 0);
    assert!(recommend(&index, &f.ask(&request, 0)).is_empty());
    assert!(recommend(&Index::new(), &f.ask(&request, 5)).is_empty());
}

#[test]
fn the_query_vector_finds_books_no_word_matches() {
    let mut index = shop();
    let unit =
        |i: usize| -> Vec<f32> { (0..384).map(|j| if j == i { 1.0 } else { 0.0 }).collect() };
    index.set_vector("f2", unit(7));
    index.set_vector("m1", unit(8));
    let f = Fixture::new();
    let request = Request {
        keywords: vec!["selkies".into()],
        ..Request::default()
    };
    let query = unit(7);
    let ask = Ask {
        query_vector: Some(&query),
        ..f.ask(&request, 5)
    };
    let picks = recommend(&index, &ask);
    assert_eq!(ids(&picks), ["f2"]);
    assert!(
        picks[0]
            .reason
            .starts_with("Close to what you asked for: fantasy"),
        "{picks:?}"
    );
}

#[test]
fn ten_thousand_books_rank_fast() {
    let mut index = Index::new();
    for i in 0..10_000usize {
        let (_, title, author, genre, tags, summary, price, pages) = SHOP[i % SHOP.len()];
        let mut vector: Vec<f32> = (0..384).map(|j| ((i * 31 + j * 7) % 97) as f32).collect();
        let norm = vector.iter().map(|x| x * x).sum::<f32>().sqrt();
        vector.iter_mut().for_each(|x| *x /= norm);
        let id = format!("b{i:05}");
        index.upsert(BookDoc {
            book_id: id.clone(),
            title: format!("{title} {i}"),
            author: format!("{author} {}", i % 300),
            genre: genre.into(),
            tags: tags.split(", ").map(str::to_owned).collect(),
            short_summary: summary.into(),
            price_cents: price,
            pages,
            version: 1,
            ..BookDoc::default()
        });
        index.set_vector(&id, vector);
    }
    let f = Fixture::new();
    let request = Request {
        moods: vec!["cosy".into()],
        genres: vec!["Mystery".into()],
        keywords: vec!["winter".into(), "library".into()],
        max_price_cents: Some(700),
        ..Request::default()
    };
    let query: Vec<f32> = (0..384)
        .map(|j| if j % 2 == 0 { 0.07 } else { 0.0 })
        .collect();
    let ask = Ask {
        query_vector: Some(&query),
        ..f.ask(&request, 10)
    };
    recommend(&index, &ask);
    let runs = 20;
    let start = std::time::Instant::now();
    for _ in 0..runs {
        assert_eq!(recommend(&index, &ask).len(), 10);
    }
    let each = start.elapsed() / runs;
    // The aim is well under 5 ms in a release build on an idle machine; the assertion
    // leaves room for a loaded test machine (and a debug build is some ten times slower),
    // so it catches an order-of-magnitude regression without failing on a busy CI box.
    let budget = if cfg!(debug_assertions) { 400 } else { 50 };
    eprintln!("one call over 10,000 books: {each:?}");
    assert!(each.as_millis() < budget, "{each:?}");
}
