#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::{EpubSpec, chapters, entry, epub, unzip};
use quick_xml::Reader;
use quick_xml::events::Event;
use quire_bookfile::{
    EPUB_TRIAL_END_TEXT, Format, InSample, Limits, extract_text, inspect, sample_marks, trial,
};

fn assert_well_formed(xml: &str) {
    let mut reader = Reader::from_str(xml);
    loop {
        match reader.read_event() {
            Ok(Event::Eof) => break,
            Ok(_) => {}
            Err(e) => panic!("not well-formed XML: {e}\n{xml}"),
        }
    }
}

/// All text of every entry of a zip, for "is this text anywhere in the file" checks.
/// Chapters the sample shows, whole or in part.
fn shown(chapters: &[quire_bookfile::Chapter], percent: u8) -> usize {
    sample_marks(Format::Epub, chapters, percent)
        .into_iter()
        .filter(|m| *m != InSample::Out)
        .count()
}

fn all_text(data: &[u8]) -> String {
    unzip(data)
        .into_iter()
        .map(|(_, b)| String::from_utf8_lossy(&b).into_owned())
        .collect()
}

#[test]
fn chapters_and_titles_read_back() {
    let book = epub(&EpubSpec::new(chapters(5, 6)));
    let i = inspect("river.epub", &book, &Limits::default()).unwrap();
    assert_eq!(i.format, Format::Epub);
    assert_eq!(i.title.as_deref(), Some("The River & the Rain"));
    assert_eq!(i.authors, vec!["Ada Lovelace", "Mary Shelley"]);
    assert_eq!(i.language.as_deref(), Some("en"));
    let titles: Vec<&str> = i.chapters.iter().map(|c| c.title.as_str()).collect();
    assert_eq!(
        titles,
        [
            "The First Chapter",
            "The Second Chapter",
            "The Third Chapter",
            "The Fourth Chapter",
            "The Fifth Chapter"
        ]
    );
    assert_eq!(i.chapters[2].href, "text/ch3.xhtml");
    assert_eq!(i.chapters[2].index, 2);
    assert!(
        i.chapters.iter().all(|c| c.weight > 300),
        "{:?}",
        i.chapters
    );
    assert_eq!(
        i.total_weight,
        i.chapters.iter().map(|c| c.weight).sum::<u64>()
    );
}

#[test]
fn titles_come_from_the_ncx_then_headings_then_numbers() {
    let mut spec = EpubSpec::new(chapters(3, 2));
    spec.nav = false;
    spec.ncx = true;
    let i = inspect("b.epub", &epub(&spec), &Limits::default()).unwrap();
    assert_eq!(i.chapters[1].title, "The Second Chapter");

    let mut spec = EpubSpec::new(chapters(3, 2));
    spec.nav = false;
    let i = inspect("b.epub", &epub(&spec), &Limits::default()).unwrap();
    assert_eq!(i.chapters[0].title, "The First Chapter");

    let mut spec = EpubSpec::new(chapters(3, 2));
    spec.nav = false;
    spec.headings = false;
    let i = inspect("b.epub", &epub(&spec), &Limits::default()).unwrap();
    assert_eq!(i.chapters[2].title, "Chapter 3");
}

#[test]
fn a_trial_of_30_percent_holds_the_first_chapters_only() {
    let book = epub(&EpubSpec::new(chapters(5, 6)));
    let i = inspect("river.epub", &book, &Limits::default()).unwrap();
    assert_eq!(shown(&i.chapters, 30), 1);
    let t = trial(Format::Epub, &book, &i.chapters, 30).unwrap();

    // mimetype stays the first entry, stored, as OCF requires.
    assert_eq!(&t[30..38], b"mimetype");
    assert_eq!(&t[38..58], b"application/epub+zip");

    let ti = inspect("trial.epub", &t, &Limits::default()).unwrap();
    let titles: Vec<&str> = ti.chapters.iter().map(|c| c.title.as_str()).collect();
    assert_eq!(titles, ["The First Chapter", "End of the free sample"]);
    let text = all_text(&t);
    assert!(text.contains("MARK-c1-p6"));
    assert!(text.contains(EPUB_TRIAL_END_TEXT));
    for later in 2..=5 {
        assert!(
            !text.contains(&format!("MARK-c{later}-")),
            "chapter {later} leaked"
        );
    }
    let nav = entry(&t, "OEBPS/nav.xhtml").unwrap();
    assert!(
        nav.contains("text/ch1.xhtml") && !nav.contains("text/ch2.xhtml"),
        "{nav}"
    );
    assert_well_formed(&nav);
    let opf = entry(&t, "OEBPS/content.opf").unwrap();
    assert_well_formed(&opf);
    assert!(
        !opf.contains("ch2.xhtml") && opf.contains("style.css"),
        "{opf}"
    );
    assert!(entry(&t, "OEBPS/text/style.css").is_some());

    let t45 = trial(Format::Epub, &book, &i.chapters, 45).unwrap();
    let ti = inspect("trial.epub", &t45, &Limits::default()).unwrap();
    assert_eq!(ti.chapters.len(), 3);
    assert_eq!(shown(&i.chapters, 45), 2);
    assert!(!all_text(&t45).contains("MARK-c3-"));
}

#[test]
fn the_ncx_of_a_trial_loses_the_later_entries() {
    let mut spec = EpubSpec::new(chapters(5, 3));
    spec.ncx = true;
    let book = epub(&spec);
    let i = inspect("b.epub", &book, &Limits::default()).unwrap();
    let t = trial(Format::Epub, &book, &i.chapters, 50).unwrap();
    let ncx = entry(&t, "OEBPS/toc.ncx").unwrap();
    assert_well_formed(&ncx);
    assert!(
        ncx.contains("ch2.xhtml") && !ncx.contains("ch3.xhtml"),
        "{ncx}"
    );
}

#[test]
fn a_single_chapter_trial_is_cut_and_stays_well_formed() {
    let book = epub(&EpubSpec::new(chapters(1, 40)));
    let i = inspect("one.epub", &book, &Limits::default()).unwrap();
    assert_eq!(i.chapters.len(), 1);
    assert_eq!(
        sample_marks(Format::Epub, &i.chapters, 10),
        [InSample::Opening]
    );
    let t = trial(Format::Epub, &book, &i.chapters, 10).unwrap();
    let ch = entry(&t, "OEBPS/text/ch1.xhtml").unwrap();
    assert_well_formed(&ch);
    assert!(ch.contains("MARK-c1-p1 "), "{ch}");
    assert!(
        !ch.contains("MARK-c1-p40 "),
        "the whole chapter is in the trial"
    );
    assert!(ch.trim_end().ends_with("</html>"));
    let ti = inspect("trial.epub", &t, &Limits::default()).unwrap();
    // A few pages of story, never more than half of the book.
    assert!(
        ti.chapters[0].weight <= i.total_weight / 2,
        "{} of {}",
        ti.chapters[0].weight,
        i.total_weight
    );
    assert!(ti.chapters[0].weight > 0);
    assert_eq!(ti.chapters.last().unwrap().title, "End of the free sample");
}

#[test]
fn a_long_first_chapter_is_cut_and_the_rest_dropped() {
    let mut chs = chapters(3, 2);
    chs[0] = chapters(1, 60).remove(0);
    let book = epub(&EpubSpec::new(chs));
    let i = inspect("b.epub", &book, &Limits::default()).unwrap();
    let t = trial(Format::Epub, &book, &i.chapters, 10).unwrap();
    let text = all_text(&t);
    assert!(text.contains("MARK-c1-p1 "));
    assert!(
        !text.contains("MARK-c1-p60 ") && !text.contains("MARK-c2-") && !text.contains("MARK-c3-")
    );
}

#[test]
fn percent_100_is_the_whole_book() {
    let book = epub(&EpubSpec::new(chapters(5, 2)));
    let i = inspect("b.epub", &book, &Limits::default()).unwrap();
    assert_eq!(trial(Format::Epub, &book, &i.chapters, 100).unwrap(), book);
    assert_eq!(shown(&i.chapters, 100), 5);
}

#[test]
fn a_trial_with_stale_chapters_still_follows_the_file() {
    let book = epub(&EpubSpec::new(chapters(5, 4)));
    let t = trial(Format::Epub, &book, &[], 30).unwrap();
    let text = all_text(&t);
    assert!(text.contains("MARK-c1-") && !text.contains("MARK-c2-"));
}

#[test]
fn text_is_extracted_in_reading_order_and_bounded() {
    let book = epub(&EpubSpec::new(chapters(3, 2)));
    let text = extract_text(Format::Epub, &book, 1_000_000).unwrap();
    let a = text.find("MARK-c1-p1").unwrap();
    let b = text.find("MARK-c3-p2").unwrap();
    assert!(a < b);
    assert!(text.starts_with("The First Chapter"));
    let short = extract_text(Format::Epub, &book, 50).unwrap();
    assert_eq!(short.chars().count(), 50);
}

#[test]
fn a_cover_without_text_is_front_matter_and_the_first_chapter_comes_whole() {
    let mut chs = chapters(3, 12);
    chs.insert(
        0,
        common::FixtureChapter {
            title: String::new(),
            paragraphs: Vec::new(),
        },
    );
    let book = epub(&EpubSpec::new(chs));
    let i = inspect("b.epub", &book, &Limits::default()).unwrap();
    assert_eq!(i.chapters[0].weight, 0);
    use InSample::{FrontMatter, Out, Whole};
    assert_eq!(
        sample_marks(Format::Epub, &i.chapters, 10),
        [FrontMatter, Whole, Out, Out]
    );
    let t = trial(Format::Epub, &book, &i.chapters, 10).unwrap();
    let text = all_text(&t);
    assert!(text.contains("MARK-c1-p1 "), "the sample shows no text");
    assert!(text.contains("MARK-c1-p12 ") && !text.contains("MARK-c2-"));
    assert_well_formed(&entry(&t, "OEBPS/text/ch2.xhtml").unwrap());
}
