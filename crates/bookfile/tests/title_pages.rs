//! Titles and authors as a librarian would take them from a manuscript: the title page's
//! title when the metadata names none, and never a tool's default ("Enscript Output",
//! "python-docx") taken for the writer's.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use quire_bookfile::{ManuscriptLimits, extract_manuscript};

const PROSE: &str = "A Chancery judge once had the kindness to inform me, as one of a company \
of some hundred and fifty men and women, that the Court of Chancery was almost immaculate. \
There had been, he admitted, a trivial blemish or so in its rate of progress, but this was \
exaggerated, and had been entirely owing to the parsimony of the public.";

fn title_of(name: &str, text: &str) -> Option<String> {
    extract_manuscript(name, text.as_bytes(), &ManuscriptLimits::default())
        .unwrap()
        .title
}

#[test]
fn a_txt_is_titled_by_its_title_page() {
    let page = format!("BLEAK HOUSE\n\nby Charles Dickens\n\n\n\nPREFACE\n\n{PROSE}\n\n{PROSE}\n");
    assert_eq!(
        title_of("scan-0042.txt", &page).as_deref(),
        Some("Bleak House")
    );
    let bracket = format!("[The Tragedie of Hamlet by William Shakespeare 1599]\n\n\n{PROSE}\n");
    assert_eq!(
        title_of("hamlet.txt", &bracket).as_deref(),
        Some("The Tragedie of Hamlet")
    );
    // Its "Title:" line stays first.
    let field = format!("Title: The Bleak House Papers\n\nBLEAK HOUSE\n\n{PROSE}\n");
    assert_eq!(
        title_of("x.txt", &field).as_deref(),
        Some("The Bleak House Papers")
    );
}

#[test]
fn a_text_that_opens_with_prose_has_no_title_of_its_own() {
    let text = format!("{PROSE}\n\n{PROSE}\n");
    assert_eq!(title_of("draft.txt", &text), None);
    let chapter = format!("Chapter 1\n\n{PROSE}\n\nChapter 2\n\n{PROSE}\n");
    assert_eq!(title_of("draft.txt", &chapter), None);
}

#[test]
fn a_markdown_front_matter_default_is_no_title_or_author() {
    let text = format!("---\ntitle: Untitled\nauthor: python-docx\n---\n\n{PROSE}\n");
    let m = extract_manuscript("draft.md", text.as_bytes(), &ManuscriptLimits::default()).unwrap();
    assert_eq!(m.title, None);
    assert!(m.authors.is_empty(), "{:?}", m.authors);
}
