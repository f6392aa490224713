#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::thread;

use common::{book, text};
use quire_book_search::{BookDoc, SearchIndex};
use uuid::Uuid;

fn found(index: &SearchIndex, q: &str, id: Uuid) -> bool {
    index
        .search(&text(q))
        .unwrap()
        .hits
        .iter()
        .any(|h| h.book_id == id)
}

#[test]
fn an_applied_book_is_searchable_right_after_commit() {
    let index = SearchIndex::open(None).unwrap();
    let b = book("Wuthering Heights", "Emily Bronte", "Fiction", &[], 100);
    assert!(index.apply(b.clone()).unwrap());
    index.commit().unwrap();
    assert!(found(&index, "wuthering", b.book_id));
    assert_eq!(index.doc_count(), 1);
}

#[test]
fn an_older_version_is_ignored() {
    let index = SearchIndex::open(None).unwrap();
    let mut b = book("Emma", "Jane Austen", "Fiction", &[], 100);
    b.version = 5;
    assert!(index.apply(b.clone()).unwrap());
    let old = BookDoc {
        title: "Persuasion".into(),
        version: 4,
        ..b.clone()
    };
    assert!(!index.apply(old).unwrap());
    index.commit().unwrap();
    assert!(found(&index, "emma", b.book_id));
    assert!(!found(&index, "persuasion", b.book_id));
    let same = BookDoc {
        title: "Emma Revised".into(),
        ..b.clone()
    };
    assert!(index.apply(same).unwrap(), "the same version is re-applied");
    index.commit().unwrap();
    assert!(found(&index, "revised", b.book_id));
    assert_eq!(index.doc_count(), 1);
    assert_eq!(index.search(&text("")).unwrap().total, 1);
}

#[test]
fn a_tombstone_hides_the_book_and_only_a_newer_listing_brings_it_back() {
    let index = SearchIndex::open(None).unwrap();
    let mut b = book("Middlemarch", "George Eliot", "Fiction", &[], 100);
    b.version = 1;
    index.apply(b.clone()).unwrap();
    index.commit().unwrap();
    assert!(found(&index, "middlemarch", b.book_id));

    let off = BookDoc {
        listed: false,
        version: 2,
        ..b.clone()
    };
    assert!(index.apply(off).unwrap());
    index.commit().unwrap();
    assert!(!found(&index, "middlemarch", b.book_id));
    assert_eq!(index.search(&text("")).unwrap().total, 0);
    assert_eq!(index.doc_count(), 1, "the tombstone is still held");

    let stale = BookDoc {
        listed: true,
        version: 1,
        ..b.clone()
    };
    assert!(!index.apply(stale).unwrap());
    index.commit().unwrap();
    assert!(!found(&index, "middlemarch", b.book_id));

    let on = BookDoc {
        listed: true,
        version: 3,
        ..b.clone()
    };
    assert!(index.apply(on).unwrap());
    index.commit().unwrap();
    assert!(found(&index, "middlemarch", b.book_id));
}

#[test]
fn a_persisted_index_keeps_its_books_and_versions_when_reopened() {
    let dir = common::TempDir::new();
    let path = dir.0.join("nested").join("index");
    let mut b = book("Dracula", "Bram Stoker", "Horror", &["vampires"], 100);
    b.version = 7;
    let gone = BookDoc {
        listed: false,
        version: 9,
        ..book("Carmilla", "Sheridan Le Fanu", "Horror", &[], 100)
    };
    {
        let index = SearchIndex::open(Some(&path)).unwrap();
        index.apply_many(vec![b.clone(), gone.clone()]).unwrap();
        index.commit().unwrap();
    }
    let index = SearchIndex::open(Some(&path)).unwrap();
    assert_eq!(index.doc_count(), 2);
    assert!(found(&index, "dracula", b.book_id));
    let older = BookDoc {
        title: "Nosferatu".into(),
        version: 6,
        ..b.clone()
    };
    assert!(!index.apply(older).unwrap());
    let stale = BookDoc {
        listed: true,
        version: 8,
        ..gone.clone()
    };
    assert!(!index.apply(stale).unwrap());
    index.commit().unwrap();
    assert!(!found(&index, "carmilla", gone.book_id));
    assert!(found(&index, "dracula", b.book_id));
}

#[test]
fn many_threads_search_while_one_applies() {
    let index = SearchIndex::open(None).unwrap();
    let writer = {
        let index = index.clone();
        thread::spawn(move || {
            for i in 0..200 {
                index
                    .apply(book(
                        &format!("Volume {i} of the saga"),
                        "Anon",
                        "Fiction",
                        &[],
                        i,
                    ))
                    .unwrap();
                if i % 20 == 0 {
                    index.commit().unwrap();
                }
            }
            index.commit().unwrap();
        })
    };
    let readers: Vec<_> = (0..4)
        .map(|_| {
            let index = index.clone();
            thread::spawn(move || {
                for _ in 0..50 {
                    let r = index.search(&text("saga")).unwrap();
                    assert!(r.total <= 200);
                }
            })
        })
        .collect();
    writer.join().unwrap();
    for r in readers {
        r.join().unwrap();
    }
    assert_eq!(index.search(&text("saga")).unwrap().total, 200);
}

#[test]
fn an_index_left_by_another_schema_is_started_afresh_and_refilled() {
    let dir = common::TempDir::new();
    let path = dir.0.join("index");
    std::fs::create_dir_all(&path).unwrap();
    {
        // What an older build left behind: an index with another schema.
        let mut schema = tantivy::schema::Schema::builder();
        schema.add_text_field("title", tantivy::schema::TEXT);
        tantivy::Index::create_in_dir(&path, schema.build()).unwrap();
    }
    let index = SearchIndex::open(Some(&path)).unwrap();
    assert_eq!(
        index.doc_count(),
        0,
        "the old index is gone, so the catalog rebuilds it"
    );
    let b = book("Dracula", "Bram Stoker", "Horror", &["vampires"], 100);
    index.apply_many(vec![b.clone()]).unwrap();
    assert!(found(&index, "dracula", b.book_id));
    drop(index);
    let reopened = SearchIndex::open(Some(&path)).unwrap();
    assert_eq!(reopened.doc_count(), 1);
}
