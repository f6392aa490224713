//! Shared helpers of the integration tests.
// Each test binary uses a different part of this module.
#![allow(dead_code)]

use quire_analysis::ChapterText;

/// The committed Moby-Dick excerpt (see tests/data/README.md).
pub const MOBY_EXCERPT: &str = include_str!("../data/moby-dick-excerpt.txt");

/// Chapters of a plain text: each "CHAPTER" line starts one and is its title; text
/// before the first is a chapter of its own.
pub fn chapters(text: &str) -> Vec<ChapterText> {
    let mut out: Vec<ChapterText> = Vec::new();
    let mut current = ChapterText {
        title: String::new(),
        text: String::new(),
    };
    for line in text.lines() {
        if line.starts_with("CHAPTER") {
            if !current.text.trim().is_empty() {
                out.push(current);
            }
            current = ChapterText {
                title: line.trim().to_owned(),
                text: String::new(),
            };
            continue;
        }
        current.text.push_str(line);
        current.text.push('\n');
    }
    if !current.text.trim().is_empty() {
        out.push(current);
    }
    out
}

/// A whole-manuscript analysis of `chapters` with no metadata and no genre hint.
pub fn analyse(chapters: &[ChapterText]) -> quire_analysis::Analysis {
    quire_analysis::analyse(&quire_analysis::Input {
        title: "Test",
        chapters,
        metadata_authors: &[],
        genre_hint: None,
    })
}
