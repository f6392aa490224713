#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::io::{Cursor, Write};
use std::time::{Duration, Instant};

use common::{CONTAINER, EpubSpec, chapters, epub, lie_about_size, pdf, zip_with_mimetype};
use quire_bookfile::{BookFileError, Limits, inspect};
use zip::ZipWriter;
use zip::write::SimpleFileOptions;

#[test]
fn an_entry_inflating_past_its_declared_size_is_refused_without_inflating_it() {
    let bomb = vec![0u8; 16 * 1024 * 1024];
    let spec = EpubSpec::new(chapters(2, 2));
    // Replace chapter 1 with a lying bomb: 16 MiB of zeros declared as 300 bytes.
    let files: Vec<(String, Vec<u8>)> = vec![
        (
            "META-INF/container.xml".into(),
            CONTAINER.as_bytes().to_vec(),
        ),
        (
            "OEBPS/content.opf".into(),
            entry_of(&epub(&spec), "OEBPS/content.opf"),
        ),
        ("OEBPS/text/ch1.xhtml".into(), bomb),
        (
            "OEBPS/text/ch2.xhtml".into(),
            entry_of(&epub(&spec), "OEBPS/text/ch2.xhtml"),
        ),
    ];
    let mut data = zip_with_mimetype(&files);
    lie_about_size(&mut data, "OEBPS/text/ch1.xhtml", 300);
    let started = Instant::now();
    let err = inspect("bomb.epub", &data, &Limits::default()).unwrap_err();
    assert!(
        matches!(&err, BookFileError::Unreadable(m) if m.contains("more than it declares")),
        "{err:?}"
    );
    assert!(started.elapsed() < Duration::from_secs(5));
}

fn entry_of(data: &[u8], name: &str) -> Vec<u8> {
    common::entry(data, name).unwrap().into_bytes()
}

#[test]
fn declared_sizes_over_the_unpacked_limit_are_too_large() {
    let mut spec = EpubSpec::new(chapters(2, 2));
    spec.extra
        .push(("OEBPS/images/big.bin".into(), vec![0u8; 4 * 1024 * 1024]));
    let data = epub(&spec);
    let limits = Limits {
        max_unpacked_bytes: 1024 * 1024,
        ..Limits::default()
    };
    let err = inspect("big.epub", &data, &limits).unwrap_err();
    assert!(
        matches!(&err, BookFileError::TooLarge(m) if m.contains("unpacked")),
        "{err:?}"
    );
    assert!(inspect("big.epub", &data, &Limits::default()).is_ok());
}

#[test]
fn too_many_entries_are_refused() {
    let mut spec = EpubSpec::new(chapters(1, 1));
    for i in 0..200 {
        spec.extra
            .push((format!("OEBPS/fill/{i}.txt"), b"x".to_vec()));
    }
    let data = epub(&spec);
    let limits = Limits {
        max_entries: 100,
        ..Limits::default()
    };
    let err = inspect("many.epub", &data, &limits).unwrap_err();
    assert!(
        matches!(&err, BookFileError::TooLarge(m) if m.contains("too many files")),
        "{err:?}"
    );
}

#[test]
fn path_traversal_entries_are_refused() {
    for evil in [
        "../escape.xhtml",
        "OEBPS/../../escape.xhtml",
        "/etc/cron.d/x",
        "OEBPS\\..\\x",
    ] {
        let mut spec = EpubSpec::new(chapters(1, 1));
        spec.extra.push((evil.into(), b"<p>x</p>".to_vec()));
        let err = inspect("evil.epub", &epub(&spec), &Limits::default()).unwrap_err();
        assert!(
            matches!(&err, BookFileError::Unreadable(m) if m.contains("unsafe file name")),
            "{evil}: {err:?}"
        );
    }
}

#[test]
fn the_extension_must_agree_with_the_content() {
    let book = epub(&EpubSpec::new(chapters(1, 1)));
    let err = inspect("book.pdf", &book, &Limits::default()).unwrap_err();
    assert_eq!(
        err,
        BookFileError::Unsupported("The file name says .pdf but the content is an epub".into())
    );
    assert!(matches!(
        inspect("book.txt", &book, &Limits::default()),
        Err(BookFileError::Unsupported(_))
    ));
    assert!(matches!(
        inspect("book.epub", &pdf(1, None), &Limits::default()),
        Err(BookFileError::Unsupported(_))
    ));
    assert!(matches!(
        inspect("book.epub", b"just some words", &Limits::default()),
        Err(BookFileError::Unsupported(_))
    ));
    assert!(matches!(
        inspect("book.docx", &book, &Limits::default()),
        Err(BookFileError::Unsupported(_))
    ));
}

#[test]
fn a_zip_that_is_not_an_epub_is_unsupported() {
    let mut w = ZipWriter::new(Cursor::new(Vec::new()));
    w.start_file("word/document.xml", SimpleFileOptions::default())
        .unwrap();
    w.write_all(b"<doc/>").unwrap();
    let data = w.finish().unwrap().into_inner();
    let err = inspect("fake.epub", &data, &Limits::default()).unwrap_err();
    assert!(
        matches!(&err, BookFileError::Unsupported(m) if m.contains("not an epub")),
        "{err:?}"
    );
}

#[test]
fn a_missing_container_is_unreadable_with_a_clear_message() {
    let data = zip_with_mimetype(&[("OEBPS/content.opf".into(), b"<package/>".to_vec())]);
    let err = inspect("b.epub", &data, &Limits::default()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "The epub is unreadable: container.xml is missing"
    );
}

#[test]
fn oversized_files_are_too_large() {
    let book = epub(&EpubSpec::new(chapters(1, 1)));
    let limits = Limits {
        max_file_bytes: 100,
        ..Limits::default()
    };
    assert!(matches!(
        inspect("b.epub", &book, &limits),
        Err(BookFileError::TooLarge(_))
    ));
}

#[test]
fn drm_protected_chapters_are_unreadable_but_obfuscated_fonts_are_fine() {
    let encryption = |uri: &str| {
        format!(
            "<encryption xmlns=\"urn:oasis:names:tc:opendocument:xmlns:container\" \
xmlns:enc=\"http://www.w3.org/2001/04/xmlenc#\"><enc:EncryptedData><enc:CipherData>\
<enc:CipherReference URI=\"{uri}\"/></enc:CipherData></enc:EncryptedData></encryption>"
        )
        .into_bytes()
    };
    let mut spec = EpubSpec::new(chapters(2, 2));
    spec.extra.push((
        "META-INF/encryption.xml".into(),
        encryption("OEBPS/text/ch2.xhtml"),
    ));
    let err = inspect("drm.epub", &epub(&spec), &Limits::default()).unwrap_err();
    assert!(
        matches!(&err, BookFileError::Unreadable(m) if m.contains("DRM")),
        "{err:?}"
    );

    let mut spec = EpubSpec::new(chapters(2, 2));
    spec.extra.push((
        "META-INF/encryption.xml".into(),
        encryption("OEBPS/fonts/a.otf"),
    ));
    assert!(inspect("fonts.epub", &epub(&spec), &Limits::default()).is_ok());
}
