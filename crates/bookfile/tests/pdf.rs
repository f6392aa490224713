#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::manuscripts::{deeply_nested_pdf, with_outline_loop};
use common::pdf;
use lopdf::{Document, dictionary};
use quire_bookfile::{
    Format, InSample, Limits, PDF_MAX_NESTING, extract_text, inspect, sample_marks, trial,
};

fn page_texts(data: &[u8]) -> (usize, String) {
    let doc = Document::load_mem(data).unwrap();
    let pages: Vec<u32> = doc.get_pages().keys().copied().collect();
    (pages.len(), doc.extract_text(&pages).unwrap())
}

#[test]
fn pages_metadata_and_page_range_chapters() {
    let book = pdf(12, None);
    let i = inspect("river.pdf", &book, &Limits::default()).unwrap();
    assert_eq!(i.format, Format::Pdf);
    assert_eq!(i.total_weight, 12);
    assert_eq!(i.title.as_deref(), Some("The River Book"));
    assert_eq!(i.authors, vec!["Ada Lovelace"]);
    let c: Vec<(&str, &str, u64)> = i
        .chapters
        .iter()
        .map(|c| (c.title.as_str(), c.href.as_str(), c.weight))
        .collect();
    assert_eq!(
        c,
        [("Pages 1-10", "page=1", 10), ("Pages 11-12", "page=11", 2)]
    );
}

#[test]
fn chapters_come_from_the_outline() {
    let book = pdf(12, Some(4));
    let i = inspect("river.pdf", &book, &Limits::default()).unwrap();
    let c: Vec<(&str, &str, u64)> = i
        .chapters
        .iter()
        .map(|c| (c.title.as_str(), c.href.as_str(), c.weight))
        .collect();
    assert_eq!(
        c,
        [
            ("Part 1 of the river", "page=1", 4),
            ("Part 2 of the river", "page=5", 4),
            ("Part 3 of the river", "page=9", 4)
        ]
    );
    use InSample::{Opening, Out, Whole};
    assert_eq!(
        sample_marks(Format::Pdf, &i.chapters, 10),
        [Opening, Out, Out]
    );
    assert_eq!(
        sample_marks(Format::Pdf, &i.chapters, 50),
        [Whole, Out, Out]
    );
    assert_eq!(
        sample_marks(Format::Pdf, &i.chapters, 70),
        [Whole, Whole, Out]
    );
}

#[test]
fn a_sample_of_long_chapters_has_a_few_pages_and_whole_chapters_beyond() {
    let book = pdf(12, Some(4));
    let i = inspect("river.pdf", &book, &Limits::default()).unwrap();
    let t = trial(Format::Pdf, &book, &i.chapters, 10).unwrap();
    let (pages, text) = page_texts(&t);
    assert_eq!(pages, 3);
    for page in 1..=3 {
        assert!(text.contains(&format!("PMARK-{page}X")), "{text}");
    }
    let raw = String::from_utf8_lossy(&t);
    for later in 4..=12 {
        assert!(
            !raw.contains(&format!("PMARK-{later}X")),
            "page {later} leaked"
        );
    }
    let ti = inspect("trial.pdf", &t, &Limits::default()).unwrap();
    assert_eq!(ti.total_weight, 3);

    let (pages, _) = page_texts(&trial(Format::Pdf, &book, &i.chapters, 50).unwrap());
    assert_eq!(pages, 4);
    let (pages, _) = page_texts(&trial(Format::Pdf, &book, &i.chapters, 99).unwrap());
    assert_eq!(pages, 8);
    // Chapters that do not describe the file are read from it again.
    let (pages, _) = page_texts(&trial(Format::Pdf, &book, &[], 50).unwrap());
    assert_eq!(pages, 4);
}

#[test]
fn a_one_page_pdf_gets_a_notice() {
    let book = pdf(1, None);
    let i = inspect("one.pdf", &book, &Limits::default()).unwrap();
    let t = trial(Format::Pdf, &book, &i.chapters, 10).unwrap();
    let (pages, text) = page_texts(&t);
    assert_eq!(pages, 1);
    assert!(text.contains("free sample"), "{text}");
    assert!(!String::from_utf8_lossy(&t).contains("PMARK-1X"));
}

#[test]
fn percent_100_is_the_whole_pdf() {
    let book = pdf(3, None);
    let i = inspect("b.pdf", &book, &Limits::default()).unwrap();
    assert_eq!(trial(Format::Pdf, &book, &i.chapters, 100).unwrap(), book);
}

#[test]
fn text_is_extracted_and_bounded() {
    let book = pdf(3, None);
    let text = extract_text(Format::Pdf, &book, 100_000).unwrap();
    assert!(
        text.contains("PMARK-1X") && text.contains("PMARK-3X"),
        "{text}"
    );
    assert_eq!(
        extract_text(Format::Pdf, &book, 10)
            .unwrap()
            .chars()
            .count(),
        10
    );
}

#[test]
fn a_broken_pdf_is_unreadable() {
    let err = inspect(
        "b.pdf",
        b"%PDF-1.7\nthis is not really a pdf",
        &Limits::default(),
    )
    .unwrap_err();
    assert!(
        matches!(err, quire_bookfile::BookFileError::Unreadable(_)),
        "{err:?}"
    );
    assert!(
        err.to_string().starts_with("The pdf is unreadable"),
        "{err}"
    );
}

#[test]
fn links_to_later_pages_do_not_keep_them_in_the_trial() {
    let mut doc = Document::load_mem(&pdf(12, Some(4))).unwrap();
    let pages = doc.get_pages();
    let (first, last) = (pages[&1], pages[&12]);
    let link = doc.add_object(dictionary! {
        "Type" => "Annot", "Subtype" => "Link",
        "Rect" => vec![0.into(), 0.into(), 100.into(), 100.into()],
        "Dest" => vec![last.into(), "Fit".into()],
    });
    doc.get_dictionary_mut(first)
        .unwrap()
        .set("Annots", vec![link.into()]);
    doc.catalog_mut()
        .unwrap()
        .set("OpenAction", vec![last.into(), "Fit".into()]);
    let mut book = Vec::new();
    doc.save_to(&mut book).unwrap();

    let i = inspect("linked.pdf", &book, &Limits::default()).unwrap();
    let t = trial(Format::Pdf, &book, &i.chapters, 10).unwrap();
    let raw = String::from_utf8_lossy(&t);
    assert!(!raw.contains("PMARK-12X") && !raw.contains("PMARK-4X"));
    assert!(!raw.contains("Part 3 of the river"), "the outline survived");
    assert_eq!(page_texts(&t).0, 3);
}

#[test]
fn hostile_pdfs_are_refused_or_read_without_crashing() {
    for deflated in [false, true] {
        let err = inspect(
            "deep.pdf",
            &deeply_nested_pdf(100_000, deflated),
            &Limits::default(),
        )
        .unwrap_err();
        assert!(err.to_string().contains("nested more than"), "{err}");
        // Up to the limit the book is read (its text too) on lopdf's stack, in every profile.
        let book = deeply_nested_pdf(PDF_MAX_NESTING, deflated);
        inspect("nested.pdf", &book, &Limits::default()).unwrap();
        extract_text(Format::Pdf, &book, 10_000).unwrap();
    }
    // A looping outline: chapters by page ranges instead.
    let i = inspect(
        "loop.pdf",
        &with_outline_loop(&pdf(12, Some(4))),
        &Limits::default(),
    )
    .unwrap();
    assert_eq!(i.chapters[0].title, "Pages 1-10");
}
