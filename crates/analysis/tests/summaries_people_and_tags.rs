//! Summaries, characters, authors and tags on a real novel excerpt.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test stops at the first surprise

mod common;

use quire_analysis::text;

#[test]
fn the_excerpt_names_ahab_as_the_main_character_and_the_summaries_keep_him() {
    let chapters = common::chapters(common::MOBY_EXCERPT);
    assert_eq!(chapters.len(), 4);
    let analysis = common::analyse(&chapters);
    assert_eq!(
        analysis.characters.first().map(String::as_str),
        Some("Ahab"),
        "{:?}",
        analysis.characters
    );
    assert!(
        analysis.characters.iter().any(|c| c == "Starbuck"),
        "{:?}",
        analysis.characters
    );
    assert!(
        analysis.characters.iter().any(|c| c == "Moby Dick"),
        "{:?}",
        analysis.characters
    );
    for not_a_person in ["God", "Nantucket", "Captain", "Sperm Whale"] {
        assert!(
            !analysis.characters.iter().any(|c| c == not_a_person),
            "{:?}",
            analysis.characters
        );
    }
    assert!(
        analysis.short_summary.contains("Ahab"),
        "{}",
        analysis.short_summary
    );
    assert!(
        analysis.long_summary.contains("Ahab"),
        "{}",
        analysis.long_summary
    );
}

#[test]
fn summaries_are_about_the_asked_length_and_read_as_prose() {
    let analysis = common::analyse(&common::chapters(common::MOBY_EXCERPT));
    let short = analysis.short_summary.split_whitespace().count();
    let long = analysis.long_summary.split_whitespace().count();
    assert!(
        (30..=80).contains(&short),
        "{short}: {}",
        analysis.short_summary
    );
    assert!(
        (200..=380).contains(&long),
        "{long}: {}",
        analysis.long_summary
    );
    for summary in [&analysis.short_summary, &analysis.long_summary] {
        assert!(
            !summary.contains(['"', '\u{201C}', '\u{201D}', '\n', '_']),
            "{summary}"
        );
        assert!(!summary.contains("CHAPTER"), "{summary}");
        assert!(summary.ends_with('.'), "{summary}");
        // One or two sentences composed from what the analysis found open it, naming
        // the lead; every other sentence is one of the book's own, in the book's order,
        // perhaps after a connective ("Later, ...").
        let book = flat(common::MOBY_EXCERPT).to_lowercase();
        let sentences = text::sentences(summary);
        let composed = sentences
            .iter()
            .take_while(|s| !book.contains(&s.trim_end_matches('.').to_lowercase()))
            .count();
        assert!((1..=2).contains(&composed), "{summary}");
        assert!(sentences[0].contains("Ahab"), "{summary}");
        let mut at = 0;
        for sentence in &sentences[composed..] {
            let own = ["Later, ", "In the end, "]
                .iter()
                .fold(*sentence, |s, c| s.strip_prefix(c).unwrap_or(s));
            let found = book[at..].find(&own.trim_end_matches('.').to_lowercase());
            assert!(
                found.is_some(),
                "not in order or not from the book: {sentence}"
            );
            at += found.unwrap_or(0);
        }
    }
    // The title page has no sentence to quote; every real chapter has a summary.
    for chapter in analysis.chapters.iter().filter(|c| c.words > 200) {
        let words = chapter.summary.split_whitespace().count();
        assert!(
            (10..=60).contains(&words),
            "{}: {words}: {}",
            chapter.title,
            chapter.summary
        );
    }
}

/// The text with line breaks as spaces and italics marks dropped, as summaries print it.
fn flat(text: &str) -> String {
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace('_', "")
}

#[test]
fn tags_are_keyphrases_without_stop_words_names_or_inflected_twins() {
    let analysis = common::analyse(&common::chapters(common::MOBY_EXCERPT));
    let tags = &analysis.tags;
    assert!((5..=12).contains(&tags.len()), "{tags:?}");
    assert!(tags.iter().any(|t| t.contains("whale")), "{tags:?}");
    let names: Vec<String> = analysis
        .characters
        .iter()
        .map(|c| c.to_lowercase())
        .collect();
    let mut stems = Vec::new();
    for tag in tags {
        assert_eq!(*tag, tag.to_lowercase());
        let words: Vec<&str> = tag.split(' ').collect();
        assert!((1..=3).contains(&words.len()), "{tag}");
        assert!(words.iter().all(|w| !text::is_stop_word(w)), "{tag}");
        assert!(!names.contains(tag), "{tag} is a character");
        stems.push(
            words
                .iter()
                .map(|w| text::stem(w))
                .collect::<Vec<_>>()
                .join(" "),
        );
    }
    let count = stems.len();
    stems.sort();
    stems.dedup();
    assert_eq!(stems.len(), count, "{tags:?}");
}

#[test]
fn authors_come_from_metadata_first_then_the_title_page() {
    let chapters = common::chapters(common::MOBY_EXCERPT);
    assert_eq!(common::analyse(&chapters).authors, vec!["Herman Melville"]);
    let metadata = vec!["H. Melville".to_owned()];
    let analysis = quire_analysis::analyse(&quire_analysis::Input {
        title: "Moby-Dick",
        chapters: &chapters,
        metadata_authors: &metadata,
        genre_hint: Some("literary fiction"),
    });
    assert_eq!(analysis.authors, metadata);
    assert!(!analysis.genre.is_empty());
    assert_eq!(
        analysis.genre_scores.first().map(|g| g.genre.as_str()),
        Some(analysis.genre.as_str())
    );
}

#[test]
fn chapter_reports_match_the_chapters() {
    let chapters = common::chapters(common::MOBY_EXCERPT);
    let analysis = common::analyse(&chapters);
    assert_eq!(analysis.chapters.len(), chapters.len());
    assert_eq!(analysis.chapters[1].title, "CHAPTER 28. Ahab.");
    let total: usize = analysis.chapters.iter().map(|c| c.words).sum();
    assert_eq!(total, analysis.words);
    assert!(analysis.words > 7_000);
    assert_eq!(analysis.ai_check.chapters.len(), chapters.len());
    for (report, check) in analysis.chapters.iter().zip(&analysis.ai_check.chapters) {
        assert_eq!(report.ai_probability, check.probability);
    }
}
