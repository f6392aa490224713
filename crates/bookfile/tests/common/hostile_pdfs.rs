//! Hostile pdfs built in the tests: decompression bombs behind filter chains, files of
//! very many objects, object streams and cross-reference streams that lie, pages that
//! repeat their content. Each is small to store and cheap to build.
#![allow(dead_code)]

use std::io::Write;

use flate2::Compression;
use flate2::write::ZlibEncoder;
use lopdf::content::{Content, Operation};
use lopdf::{Document, Object, Stream, dictionary};

use super::manuscripts::raw_pdf;

pub fn zlib(bytes: &[u8], level: Compression) -> Vec<u8> {
    let mut enc = ZlibEncoder::new(Vec::new(), level);
    enc.write_all(bytes).unwrap();
    enc.finish().unwrap()
}

pub fn deflated(bytes: &[u8]) -> Vec<u8> {
    zlib(bytes, Compression::best())
}

/// zlib data of `mib` MiB of zero bytes, made without compressing them all: the deflate
/// blocks of one MiB, flushed to a byte boundary with zeros behind them, repeated; then
/// a final empty block and the Adler-32 of the zeros (1, and the count modulo 65521).
pub fn zeros_zlib(mib: usize) -> Vec<u8> {
    let zeros = vec![0u8; 1 << 20];
    let mut enc = ZlibEncoder::new(Vec::new(), Compression::best());
    enc.write_all(&zeros).unwrap();
    enc.flush().unwrap();
    let first = enc.get_ref().len();
    enc.write_all(&zeros).unwrap();
    enc.flush().unwrap();
    let mut out = enc.get_ref()[..first].to_vec();
    let again = enc.get_ref()[first..].to_vec();
    for _ in 1..mib {
        out.extend_from_slice(&again);
    }
    out.extend_from_slice(&[0x03, 0x00]);
    let adler = ((mib as u64 * (1 << 20)) % 65521) << 16 | 1;
    out.extend_from_slice(&(adler as u32).to_be_bytes());
    out
}

const TEXT: &str = "BT /F1 12 Tf 72 720 Td (Page 1 PMARK-1X) Tj ET";

/// A one-page pdf (text "Page 1 PMARK-1X") with `extra` objects after its own five,
/// numbered from 6.
pub fn one_page_with(extra: Vec<Vec<u8>>) -> Vec<u8> {
    let mut objects = vec![
        b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 /Resources << /Font << /F1 4 0 R >> >> >>"
            .to_vec(),
        b"<< /Type /Page /Parent 2 0 R /Contents 5 0 R /MediaBox [0 0 595 842] >>".to_vec(),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>".to_vec(),
        stream("", TEXT.as_bytes()),
    ];
    objects.extend(extra);
    raw_pdf(&objects)
}

/// A stream object's body: `dict` entries, then `data`, its length direct.
pub fn stream(dict: &str, data: &[u8]) -> Vec<u8> {
    let mut body = format!("<< /Length {} {dict} >>\nstream\n", data.len()).into_bytes();
    body.extend_from_slice(data);
    body.extend_from_slice(b"\nendstream");
    body
}

/// A one-page pdf holding a stream of `data` behind `filters` (their names).
pub fn with_filtered_stream(filters: &str, data: &[u8]) -> Vec<u8> {
    one_page_with(vec![stream(&format!("/Filter [{filters}]"), data)])
}

/// A pdf of `count` tiny objects (`null`), each listed in the cross-reference table,
/// after `padding` bytes of comment.
pub fn many_objects(count: usize, padding: usize) -> Vec<u8> {
    let mut objects = vec![b"<< /Type /Catalog /Pad (x) >>".to_vec()];
    if padding > 0 {
        objects[0] = [
            b"%".as_slice(),
            &vec![b'x'; padding],
            b"\n<< /Type /Catalog >>",
        ]
        .concat();
    }
    objects.extend((1..count).map(|_| b"null".to_vec()));
    raw_pdf(&objects)
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
