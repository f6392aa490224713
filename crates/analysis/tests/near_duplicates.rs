//! Near-duplicate signatures find lightly edited copies and nothing else.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test stops at the first surprise

mod common;

use quire_analysis::near_dup::{self, Signature};

#[test]
fn a_lightly_edited_copy_is_similar_and_an_unrelated_book_is_not() {
    let original = common::MOBY_EXCERPT;
    // A few words changed, different line breaks and punctuation.
    let edited = original
        .replace("Captain Ahab", "Captain  Ahab")
        .replace("monomaniac", "obsessed")
        .replace("quarter-deck", "quarterdeck")
        .replace("Starbuck", "Starbuck,")
        .replace(";", ",")
        .replace("\n", " ")
        .replace(" whale ", " whale\n");
    let unrelated = include_str!("../data/ai_check/train/machine/tech-01.txt").repeat(3)
        + include_str!("../data/ai_check/train/human/sotu-01.txt");
    let a = near_dup::signature(original);
    let b = near_dup::signature(&edited);
    let c = near_dup::signature(&unrelated);
    assert!(
        near_dup::similarity(&a, &b) > 0.8,
        "{}",
        near_dup::similarity(&a, &b)
    );
    assert!(
        near_dup::similarity(&a, &c) < 0.2,
        "{}",
        near_dup::similarity(&a, &c)
    );
    let keys_a = near_dup::band_keys(&a);
    assert!(near_dup::band_keys(&b).iter().any(|k| keys_a.contains(k)));
    assert!(!near_dup::band_keys(&c).iter().any(|k| keys_a.contains(k)));
}

#[test]
fn signatures_survive_storage() {
    let sig = near_dup::signature(common::MOBY_EXCERPT);
    let back = Signature::from_bytes(&sig.to_bytes()).expect("round trip");
    assert_eq!(near_dup::similarity(&sig, &back), 1.0);
    assert!(Signature::from_bytes(&[1, 2, 3]).is_err());
}
