//! Pdfs built to exhaust memory or time are refused before lopdf parses them, with a
//! message a writer can act on; ordinary pdfs are still read. Refusing is the proof that
//! nothing was allocated: the guard refuses before it inflates past the budget.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::io::Read;

use common::hostile_pdfs::{
    deflated, object_stream, one_page_with, repeated_content, stream, with_filtered_stream, zlib,
};
use common::pdf;
use flate2::Compression;
use lopdf::{Document, SaveOptions};
use quire_bookfile::{
    BookFileError, Format, Limits, ManuscriptLimits, extract_manuscript, extract_text, inspect,
};
use quire_fixtures::hostile::{many_objects, zeros_zlib};

fn too_large(result: Result<impl std::fmt::Debug, BookFileError>) -> String {
    match result {
        Err(BookFileError::TooLarge(m)) => m,
        other => panic!("expected TooLarge, got {other:?}"),
    }
}

fn unreadable(result: Result<impl std::fmt::Debug, BookFileError>) -> String {
    match result {
        Err(BookFileError::Unreadable(m)) => m,
        other => panic!("expected Unreadable, got {other:?}"),
    }
}

/// Limits small enough for bombs of a few MiB.
fn small() -> Limits {
    Limits {
        max_unpacked_bytes: 4 << 20,
        ..Limits::default()
    }
}

#[test]
fn the_zeros_bomb_builder_makes_valid_zlib_data() {
    let mut out = Vec::new();
    flate2::read::ZlibDecoder::new(zeros_zlib(3).as_slice())
        .read_to_end(&mut out)
        .unwrap();
    assert_eq!(out.len(), 3 << 20);
    assert!(out.iter().all(|b| *b == 0));
}

#[test]
fn a_stream_filtered_twice_is_refused_before_its_second_inflation() {
    // The attack: zlib of zlib of 300 MiB, a few KB to upload.
    let bomb = with_filtered_stream("/FlateDecode /FlateDecode", &deflated(&zeros_zlib(300)));
    assert!(bomb.len() < 20_000, "{}", bomb.len());
    let message = too_large(extract_manuscript(
        "bomb.pdf",
        &bomb,
        &ManuscriptLimits::default(),
    ));
    assert_eq!(
        message,
        "The pdf is too large once unpacked: one of its streams, compressed 2 times over, \
         inflates past 209715200 bytes"
    );
    too_large(inspect("bomb.pdf", &bomb, &Limits::default()));
}

#[test]
fn a_triple_chain_and_a_bomb_behind_a_stored_first_filter_are_refused() {
    let triple = deflated(&deflated(&zeros_zlib(8)));
    let message = too_large(inspect(
        "t.pdf",
        &with_filtered_stream("/FlateDecode /FlateDecode /FlateDecode", &triple),
        &small(),
    ));
    assert!(message.contains("compressed 3 times over"), "{message}");
    // The first filter stores its data as it is: the bomb is all in the second.
    let second = zlib(&zeros_zlib(8), Compression::none());
    let message = too_large(inspect(
        "s.pdf",
        &with_filtered_stream("/FlateDecode /FlateDecode", &second),
        &small(),
    ));
    assert!(message.contains("compressed 2 times over"), "{message}");
    // A dictionary claiming one filter does not hide the second level.
    let one = one_page_with(vec![stream(
        "/Filter /FlateDecode",
        &deflated(&zeros_zlib(8)),
    )]);
    too_large(inspect("o.pdf", &one, &small()));
}

#[test]
fn chains_that_no_writer_makes_are_refused() {
    let five = "/FlateDecode /FlateDecode /FlateDecode /FlateDecode /FlateDecode";
    let err = inspect("f.pdf", &with_filtered_stream(five, b"x"), &small()).unwrap_err();
    assert!(
        matches!(&err, BookFileError::Unsupported(m) if m.contains("through 5 filters")),
        "{err:?}"
    );
    let between = stream(
        "/Filter [/FlateDecode /FlateDecode] /DecodeParms << /Predictor 12 /Columns 4 >>",
        &deflated(b"x"),
    );
    let err = inspect("p.pdf", &one_page_with(vec![between]), &small()).unwrap_err();
    assert!(
        matches!(&err, BookFileError::Unsupported(m) if m.contains("predictor")),
        "{err:?}"
    );
    // Filters lopdf leaves undecoded are fine after a Flate stage.
    let image = with_filtered_stream("/FlateDecode /DCTDecode", &deflated(b"jpeg bytes"));
    assert!(inspect("i.pdf", &image, &small()).is_ok());
}

#[test]
fn all_streams_together_are_bounded_not_only_each_one() {
    let half = deflated(&zeros_zlib(3));
    let streams = (0..3)
        .map(|_| stream("/Filter /FlateDecode", &half))
        .collect();
    let message = too_large(inspect("many.pdf", &one_page_with(streams), &small()));
    assert!(message.contains("its streams inflate past"), "{message}");
}

#[test]
fn very_many_tiny_objects_are_refused_before_lopdf_parses_them() {
    let message = too_large(extract_manuscript(
        "objects.pdf",
        &many_objects(300_000, 0),
        &ManuscriptLimits::default(),
    ));
    assert!(message.contains("too many objects"), "{message}");
}

#[test]
fn objects_spread_over_a_large_file_are_refused() {
    // 40,000 objects after 13 MB: lopdf would re-read 13 MB before each one.
    let message = too_large(inspect(
        "spread.pdf",
        &many_objects(40_000, 13 << 20),
        &Limits::default(),
    ));
    assert!(
        message.contains("too many objects for its size"),
        "{message}"
    );
}

#[test]
fn object_streams_holding_too_many_or_overlapping_objects_are_refused() {
    let offsets: Vec<usize> = (0..300_000).map(|i| i * 5).collect();
    let nulls = b"null ".repeat(300_000);
    let message = too_large(inspect(
        "objstm.pdf",
        &object_stream(&offsets, &nulls),
        &Limits::default(),
    ));
    assert!(message.contains("too many objects"), "{message}");
    // One large array listed ten thousand times: lopdf would copy it each time.
    let array = [b"[".as_slice(), &b"0 ".repeat(50_000), b"]"].concat();
    let message = unreadable(inspect(
        "overlap.pdf",
        &object_stream(&[0; 10_000], &array),
        &Limits::default(),
    ));
    assert!(message.contains("overlap"), "{message}");
    // A few ordinary objects are fine.
    let fine = object_stream(&[0, 5, 11], b"null [1 2] << /A 1 >>");
    assert!(inspect("fine.pdf", &fine, &Limits::default()).is_ok());
}

#[test]
fn cross_reference_streams_that_would_loop_or_allocate_are_refused() {
    let zero_width = stream("/Type /XRef /Size 1 /W [0 0 0] /Index [0 4000000000]", b"");
    let message = too_large(inspect(
        "xref.pdf",
        &one_page_with(vec![zero_width]),
        &Limits::default(),
    ));
    assert!(message.contains("too many objects"), "{message}");
    let wide = stream("/Type /XRef /Size 1 /W [1 1099511627776 1]", b"");
    let message = unreadable(inspect(
        "wide.pdf",
        &one_page_with(vec![wide]),
        &Limits::default(),
    ));
    assert!(message.contains("fields"), "{message}");
}

#[test]
fn a_length_pointing_at_another_stream_is_refused() {
    // lopdf would look each length up through the other stream, recursively.
    let looped = vec![
        b"<< /Length 7 0 R >>\nstream\nabc\nendstream".to_vec(),
        b"<< /Length 6 0 R >>\nstream\nabc\nendstream".to_vec(),
    ];
    let message = unreadable(inspect(
        "len.pdf",
        &one_page_with(looped),
        &Limits::default(),
    ));
    assert!(message.contains("not a number"), "{message}");
    let number = vec![
        b"<< /Length 7 0 R >>\nstream\nabc\nendstream".to_vec(),
        b"3".to_vec(),
    ];
    assert!(inspect("ok.pdf", &one_page_with(number), &Limits::default()).is_ok());
}

#[test]
fn a_page_repeating_its_content_is_read_without_it() {
    // 2,000 times a stream of 100 lines (about 5 KB): 10 MB of content for one page.
    let data = repeated_content(2000, 100);
    let m = extract_manuscript("drawing.pdf", &data, &ManuscriptLimits::default()).unwrap();
    let text: String = m.chapters.iter().map(|c| c.text.as_str()).collect();
    assert!(text.contains("PMARK-1X"), "{text}");
    assert!(!text.contains("RMARK"), "{text}");
    let text = extract_text(Format::Pdf, &data, 100_000).unwrap();
    assert!(
        text.contains("PMARK-1X") && !text.contains("RMARK"),
        "{text}"
    );
    // Repeated a few times, the page is read.
    let m = extract_manuscript(
        "few.pdf",
        &repeated_content(3, 10),
        &ManuscriptLimits::default(),
    )
    .unwrap();
    let text: String = m.chapters.iter().map(|c| c.text.as_str()).collect();
    assert!(text.contains("RMARK-9"), "{text}");
}

#[test]
fn ordinary_pdfs_with_object_and_cross_reference_streams_are_still_read() {
    let mut doc = Document::load_mem(&pdf(12, Some(4))).unwrap();
    let options = SaveOptions::builder()
        .use_object_streams(true)
        .use_xref_streams(true)
        .build();
    let mut modern = Vec::new();
    doc.save_with_options(&mut modern, options).unwrap();
    assert!(String::from_utf8_lossy(&modern).contains("/ObjStm"));
    let i = inspect("modern.pdf", &modern, &Limits::default()).unwrap();
    assert_eq!(i.total_weight, 12);
    assert_eq!(i.chapters.len(), 3);
    let m = extract_manuscript("modern.pdf", &modern, &ManuscriptLimits::default()).unwrap();
    let text: String = m.chapters.iter().map(|c| c.text.as_str()).collect();
    assert!(text.contains("PMARK-12X"), "{text}");
}
