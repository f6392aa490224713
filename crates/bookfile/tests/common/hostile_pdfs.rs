//! Hostile pdfs built in the tests: decompression bombs behind filter chains, files of
//! very many objects, object streams and cross-reference streams that lie, pages that
//! repeat their content. Each is small to store and cheap to build.
#![allow(dead_code)]

use flate2::Compression;
use lopdf::content::{Content, Operation};
use lopdf::{Document, Object, Stream, dictionary};

pub use quire_fixtures::hostile::{one_page_with, pdf_stream as stream};

pub fn zlib(bytes: &[u8], level: Compression) -> Vec<u8> {
    quire_fixtures::hostile::zlib(bytes, level.level())
}

pub fn deflated(bytes: &[u8]) -> Vec<u8> {
    zlib(bytes, Compression::best())
}

/// A one-page pdf holding a stream of `data` behind `filters` (their names).
pub fn with_filtered_stream(filters: &str, data: &[u8]) -> Vec<u8> {
    one_page_with(vec![stream(&format!("/Filter [{filters}]"), data)])
}

/// An object stream (flate compressed) holding `objects` at the offsets `offsets` lists
/// (relative to its first object); the index names them from object 100 on.
pub fn object_stream(offsets: &[usize], objects: &[u8]) -> Vec<u8> {
    let mut index = String::new();
    for (i, offset) in offsets.iter().enumerate() {
        index.push_str(&format!("{} {offset} ", 100 + i));
    }
    let content = [index.as_bytes(), objects].concat();
    let dict = format!(
        "/Type /ObjStm /N {} /First {} /Filter /FlateDecode",
        offsets.len(),
        index.len()
    );
    one_page_with(vec![stream(&dict, &zlib(&content, Compression::fast()))])
}

/// A one-page pdf whose page lists the same content stream `times` times, the stream
/// showing `lines` lines of text.
pub fn repeated_content(times: usize, lines: usize) -> Vec<u8> {
    let mut doc = Document::with_version("1.5");
    let pages_id = doc.new_object_id();
    let font = doc.add_object(dictionary! {
        "Type" => "Font", "Subtype" => "Type1", "BaseFont" => "Helvetica",
    });
    let resources = doc.add_object(dictionary! { "Font" => dictionary! { "F1" => font } });
    let mut operations = vec![
        Operation::new("BT", vec![]),
        Operation::new("Tf", vec!["F1".into(), 12.into()]),
    ];
    for line in 0..lines {
        operations.push(Operation::new("Td", vec![0.into(), (-14).into()]));
        let text = format!("a repeated line of the drawing RMARK-{line}");
        operations.push(Operation::new("Tj", vec![Object::string_literal(text)]));
    }
    operations.push(Operation::new("ET", vec![]));
    let content = Content { operations }.encode().unwrap();
    let repeated = doc.add_object(Stream::new(dictionary! {}, content));
    let first = Content {
        operations: vec![
            Operation::new("BT", vec![]),
            Operation::new("Tf", vec!["F1".into(), 12.into()]),
            Operation::new("Td", vec![72.into(), 720.into()]),
            Operation::new(
                "Tj",
                vec![Object::string_literal("The first page is read PMARK-1X.")],
            ),
            Operation::new("ET", vec![]),
        ],
    };
    let first_content = doc.add_object(Stream::new(dictionary! {}, first.encode().unwrap()));
    let page1 = doc.add_object(dictionary! {
        "Type" => "Page", "Parent" => pages_id, "Contents" => first_content,
    });
    let page2 = doc.add_object(dictionary! {
        "Type" => "Page", "Parent" => pages_id,
        "Contents" => vec![Object::Reference(repeated); times],
    });
    doc.objects.insert(
        pages_id,
        Object::Dictionary(dictionary! {
            "Type" => "Pages", "Kids" => vec![page1.into(), page2.into()], "Count" => 2,
            "Resources" => resources,
            "MediaBox" => vec![0.into(), 0.into(), 595.into(), 842.into()],
        }),
    );
    let catalog = doc.add_object(dictionary! { "Type" => "Catalog", "Pages" => pages_id });
    doc.trailer.set("Root", catalog);
    let mut out = Vec::new();
    doc.save_to(&mut out).unwrap();
    out
}
