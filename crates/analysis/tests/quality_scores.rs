//! Quality scores move the right way.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test stops at the first surprise

mod common;

use quire_analysis::{ChapterText, Quality};

fn quality(text: &str) -> Quality {
    common::analyse(&[ChapterText {
        title: String::new(),
        text: text.to_owned(),
    }])
    .quality
}

fn score(quality: &Quality, key: &str) -> u8 {
    quality
        .parts
        .iter()
        .find(|p| p.key == key)
        .map_or(0, |p| p.score)
}

const CLEAN: &str = "Maria opened the shop at seven. She swept the floor, stacked the bread and \
    lit the old oven. A boy came in for rolls. He paid with coins from his pocket and ran to \
    school. At noon the baker's brother brought flour from the mill. They carried the sacks \
    to the back room together. Maria counted the money after lunch. The day had gone well, \
    and she locked the door at six.";

const HEAVY: &str = "The shop was quietly opened at seven. The floor was carefully swept and \
    the bread was neatly stacked. The old oven was slowly lit. Rolls were eagerly bought by a \
    boy, who was clearly hurried and who was seriously worried. Flour was finally brought from \
    the mill at noon. The sacks were really carried to the back room. The money was \
    thoroughly counted after lunch. The door was firmly locked at six, and the day was \
    generally considered successful.";

#[test]
fn adverbs_and_passives_score_lower_than_clean_prose() {
    let clean = quality(CLEAN);
    let heavy = quality(HEAVY);
    assert!(score(&heavy, "adverbs") < score(&clean, "adverbs"));
    assert!(score(&heavy, "passive_voice") < score(&clean, "passive_voice"));
    assert!(score(&heavy, "passive_voice") <= 20);
    assert_eq!(score(&clean, "passive_voice"), 100);
    assert!(heavy.overall_score < clean.overall_score);
}

#[test]
fn misspellings_lower_the_spelling_score() {
    let misspelt = CLEAN
        .replace("opened", "opend")
        .replace("counted", "countted")
        .replace("brother", "brohter");
    assert!(score(&quality(&misspelt), "spelling") < score(&quality(CLEAN), "spelling"));
    assert_eq!(score(&quality(CLEAN), "spelling"), 100);
}

#[test]
fn long_sentences_lower_readability_and_length_scores() {
    let long = CLEAN.replace(
        ". ",
        ", and then, after a considerable interval of deliberation, ",
    );
    let (a, b) = (quality(CLEAN), quality(&long));
    assert!(score(&b, "readability") < score(&a, "readability"));
    assert!(score(&b, "sentence_length") < score(&a, "sentence_length"));
}

#[test]
fn the_overall_score_is_the_weighted_mean_of_the_parts() {
    let q = quality(CLEAN);
    let (sum, weights) = q.parts.iter().fold((0.0, 0.0), |(s, w), p| {
        let weight = quire_analysis::quality::WEIGHTS
            .iter()
            .find(|(k, _)| *k == p.key)
            .map_or(0.0, |(_, w)| *w);
        (s + weight * f64::from(p.score), w + weight)
    });
    assert_eq!(q.overall_score, (sum / weights).round() as u8);
}

/// Verse of our own, in stanzas whose sentences run across the lines.
const VERSE: &str = "The river keeps no count of years,\nbut carries down the weight of rain\n\
    from hills the morning never clears\nto fields that will not flood again.\n\n\
    The miller's wheel, that turned for bread\nthrough every winter of the town,\n\
    stands silent now, its paddles dead,\nand ivy pulls the sluice-gate down.\n\n\
    Yet children, crossing on the stones\nwhere once the carts went slow and deep,\n\
    still hear the river's patient tones\nand carry them at night to sleep.\n";

#[test]
fn verse_is_read_in_sentences_however_its_lines_are_printed() {
    let stanzas = quality(&VERSE.repeat(4));
    // One line to a paragraph, as some epub and pdf files give verse.
    let spaced = quality(&VERSE.repeat(4).replace('\n', "\n\n"));
    for q in [&stanzas, &spaced] {
        assert_eq!(q.kind, quire_analysis::quality::Kind::Verse);
        assert!(
            q.notes.iter().any(|n| n.starts_with("Dialogue")),
            "{:?}",
            q.notes
        );
    }
    let measure = |q: &Quality| {
        q.parts
            .iter()
            .find(|p| p.key == "readability")
            .map(|p| p.measure.clone())
            .unwrap()
    };
    assert_eq!(measure(&stanzas), measure(&spaced));
    assert!(
        measure(&stanzas).contains("published verse"),
        "{}",
        measure(&stanzas)
    );
    assert_eq!(
        score(&stanzas, "readability"),
        score(&spaced, "readability")
    );
}
