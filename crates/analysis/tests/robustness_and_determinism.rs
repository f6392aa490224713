//! Whatever a writer uploads, analysis finishes with sane output, and the same input
//! always gives the same output.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test stops at the first surprise

mod common;

use quire_analysis::{ChapterText, ai_check, near_dup};

fn one_chapter(text: String) -> Vec<ChapterText> {
    vec![ChapterText {
        title: "Only".to_owned(),
        text,
    }]
}

/// Checks the invariants every analysis must keep, whatever the text.
fn assert_sane(chapters: &[ChapterText]) -> quire_analysis::Analysis {
    let analysis = common::analyse(chapters);
    assert!(analysis.quality.overall_score <= 100);
    // Every part is scored, or left out for the text's kind with a note saying why.
    assert_eq!(
        analysis.quality.parts.len() + analysis.quality.notes.len(),
        10
    );
    for part in &analysis.quality.parts {
        assert!(part.score <= 100 && !part.measure.is_empty() && !part.advice.is_empty());
    }
    assert!((0.0..=1.0).contains(&analysis.ai_check.probability));
    assert!(!analysis.ai_check.notice.is_empty());
    for signal in &analysis.ai_check.signals {
        assert!(signal.value.is_finite(), "{}", signal.key);
        assert!((-1.0..=1.0).contains(&signal.leaning), "{}", signal.key);
    }
    assert!(analysis.tags.len() <= 12);
    assert_eq!(analysis.chapters.len(), chapters.len());
    assert!(analysis.short_summary.split_whitespace().count() <= 120);
    serde_json::to_string(&analysis).expect("analysis serialises");
    analysis
}

#[test]
fn empty_text_gives_an_empty_but_complete_analysis() {
    let analysis = assert_sane(&one_chapter(String::new()));
    assert_eq!(analysis.words, 0);
    assert!(analysis.short_summary.is_empty() && analysis.tags.is_empty());
    assert!(analysis.characters.is_empty() && analysis.authors.is_empty());
    assert_eq!(analysis.ai_check.verdict, "too short to judge");
    assert_sane(&[]);
}

#[test]
fn one_word_is_analysed() {
    let analysis = assert_sane(&one_chapter("Hello".to_owned()));
    assert_eq!(analysis.words, 1);
    assert_eq!(ai_check("Hello").verdict, "too short to judge");
}

#[test]
fn a_megabyte_of_one_repeated_word_is_analysed() {
    let analysis = assert_sane(&one_chapter("buffalo ".repeat(131_072)));
    assert_eq!(analysis.words, 131_072);
    assert!(analysis.short_summary.is_empty());
    let richness = analysis
        .quality
        .parts
        .iter()
        .find(|p| p.key == "lexical_richness");
    assert!(richness.is_some_and(|p| p.score == 0));
}

#[test]
fn binary_junk_is_analysed() {
    // A fixed linear congruential sequence: arbitrary bytes, the same on every run.
    let mut state: u32 = 12_345;
    let bytes: Vec<u8> = (0..200_000)
        .map(|_| {
            state = state.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            (state >> 16) as u8
        })
        .collect();
    let text = String::from_utf8_lossy(&bytes).into_owned();
    assert_sane(&one_chapter(text.clone()));
    assert!(near_dup::signature(&text) == near_dup::signature(&text));
}

#[test]
fn a_very_long_sentence_is_analysed() {
    let sentence = "and the sea rolled on under a grey sky while the ship ".repeat(5_000);
    let analysis = assert_sane(&one_chapter(format!("The captain slept {sentence}.")));
    let length = analysis
        .quality
        .parts
        .iter()
        .find(|p| p.key == "sentence_length");
    assert!(length.is_some_and(|p| p.score == 0));
}

#[test]
fn many_tiny_chapters_and_odd_whitespace_are_analysed() {
    let chapters: Vec<ChapterText> = (0..500)
        .map(|i| ChapterText {
            title: format!("{i}"),
            text: if i % 3 == 0 {
                "\r\n\t \u{a0}".to_owned()
            } else {
                format!("Chapter {i} is short. Ann said so.")
            },
        })
        .collect();
    assert_sane(&chapters);
}

#[test]
fn the_same_input_gives_the_same_analysis() {
    let chapters = common::chapters(common::MOBY_EXCERPT);
    let first = serde_json::to_string(&common::analyse(&chapters)).expect("serialises");
    let second = serde_json::to_string(&common::analyse(&chapters)).expect("serialises");
    assert_eq!(first, second);
    assert_eq!(
        ai_check(common::MOBY_EXCERPT),
        ai_check(common::MOBY_EXCERPT)
    );
    assert_eq!(
        near_dup::signature(common::MOBY_EXCERPT).to_bytes(),
        near_dup::signature(common::MOBY_EXCERPT).to_bytes()
    );
}
