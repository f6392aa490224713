//! What the fuzz targets share: valid containers (docx, epub, pdf) around fuzzed parts,
//! so that mutations reach the readers behind the container checks, and the checks every
//! extraction result must pass.
//!
//! It must never hide a panic of quire-bookfile's own code: only panics inside lopdf,
//! which quire-bookfile catches by design, are kept quiet.
#![forbid(unsafe_code)]

use std::io::{Cursor, Write};
use std::sync::Once;

use flate2::Compression;
use flate2::write::ZlibEncoder;
use lopdf::content::{Content, Operation};
use lopdf::{Document, Object, Stream, dictionary};
use quire_bookfile::{BookFileError, Manuscript, ManuscriptLimits, extract_manuscript};
use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, ZipWriter};

/// Extracts `data` as a whole file when its first byte is even, else the rest placed in
/// a valid container by `wrap`.
pub fn run_whole_or_wrapped(file_name: &str, data: &[u8], wrap: fn(&[u8]) -> Vec<u8>) {
    let Some((first, rest)) = data.split_first() else {
        return;
    };
    if first % 2 == 0 {
        run(file_name, rest);
    } else {
        run(file_name, &wrap(rest));
    }
}

/// Extracts with the default limits and checks the result.
pub fn run(file_name: &str, data: &[u8]) {
    quiet_lopdf_panics();
    let limits = ManuscriptLimits::default();
    check(&extract_manuscript(file_name, data, &limits), &limits);
}

/// What every result must be: an error with a message, or chapters with titles and text
/// whose paragraphs are trimmed and separated by exactly one blank line, within the limit.
pub fn check(result: &Result<Manuscript, BookFileError>, limits: &ManuscriptLimits) {
    let m = match result {
        Err(e) => {
            assert!(!e.to_string().is_empty(), "an error without a message");
            return;
        }
        Ok(m) => m,
    };
    assert!(!m.chapters.is_empty(), "a manuscript without chapters");
    let mut chars = 0usize;
    for c in &m.chapters {
        assert!(!c.title.trim().is_empty(), "a chapter without a title");
        assert!(
            !c.text.trim().is_empty(),
            "a chapter without text: {}",
            c.title
        );
        for p in c.text.split("\n\n") {
            assert!(
                !p.is_empty() && p.trim() == p,
                "a paragraph not trimmed: {p:?}"
            );
        }
        chars += c.text.chars().count();
    }
    assert!(chars <= limits.max_text_chars, "{chars} characters kept");
}

/// lopdf panics on some malformed pdfs; quire-bookfile catches those panics and reports
/// the file as unreadable. libFuzzer's hook would abort on them before the catch, so
/// panics raised inside lopdf are let through quietly; any other panic aborts (a crash).
fn quiet_lopdf_panics() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let fuzzer_hook = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let in_lopdf = info.location().is_some_and(|l| l.file().contains("lopdf"));
            if !in_lopdf {
                fuzzer_hook(info);
            }
        }));
    });
}

/// A zip of `files` (name, bytes), deflated.
pub fn zip(files: &[(&str, &[u8])]) -> Vec<u8> {
    let mut w = ZipWriter::new(Cursor::new(Vec::new()));
    for (name, bytes) in files {
        let stored = *name == "mimetype";
        let method = if stored {
            CompressionMethod::Stored
        } else {
            CompressionMethod::Deflated
        };
        if w.start_file(
            *name,
            SimpleFileOptions::default().compression_method(method),
        )
        .is_err()
            || w.write_all(bytes).is_err()
        {
            return Vec::new();
        }
    }
    w.finish().map(Cursor::into_inner).unwrap_or_default()
}

/// A docx whose word/document.xml is `document` (styles and core properties included).
pub fn docx_around(document: &[u8]) -> Vec<u8> {
    zip(&[
        ("[Content_Types].xml", b"<Types/>"),
        ("word/document.xml", document),
        (
            "word/styles.xml",
            br#"<w:styles xmlns:w="w"><w:style w:styleId="H"><w:name w:val="heading 1"/></w:style></w:styles>"#,
        ),
        (
            "docProps/core.xml",
            br#"<cp:coreProperties xmlns:cp="c" xmlns:dc="d"><dc:title>T</dc:title><dc:creator>A</dc:creator></cp:coreProperties>"#,
        ),
    ])
}

const CONTAINER: &[u8] = br#"<?xml version="1.0"?><container xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>"#;
const OPF: &[u8] = br#"<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>T</dc:title></metadata><manifest><item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/><item id="c1" href="c1.xhtml" media-type="application/xhtml+xml"/><item id="c2" href="c2.xhtml" media-type="application/xhtml+xml"/></manifest><spine><itemref idref="c1"/><itemref idref="c2"/></spine></package>"#;
const NAV: &[u8] = br#"<html xmlns="http://www.w3.org/1999/xhtml"><body><nav epub:type="toc"><ol><li><a href="c1.xhtml">One</a></li><li><a href="c2.xhtml">Two</a></li></ol></nav></body></html>"#;
const CHAPTER: &[u8] = br#"<html xmlns="http://www.w3.org/1999/xhtml"><body><h1>Two</h1><p>Text of two.</p></body></html>"#;

/// An epub with `part` as its chapter 1 (`selector` even), its package document (odd,
/// below 128) or its nav document (odd, 128 and up).
pub fn epub_around(selector: u8, part: &[u8]) -> Vec<u8> {
    let (opf, nav, chapter) = match (selector % 2, selector < 128) {
        (0, _) => (OPF, NAV, part),
        (_, true) => (part, NAV, CHAPTER),
        _ => (OPF, part, CHAPTER),
    };
    zip(&[
        ("mimetype", b"application/epub+zip"),
        ("META-INF/container.xml", CONTAINER),
        ("OEBPS/content.opf", opf),
        ("OEBPS/nav.xhtml", nav),
        ("OEBPS/c1.xhtml", chapter),
        ("OEBPS/c2.xhtml", CHAPTER),
    ])
}

/// A one-page pdf whose content stream is `content` (fonts F1 in WinAnsi and F2 without
/// an encoding on the page), with an outline entry and Info.
pub fn pdf_around(content: &[u8]) -> Vec<u8> {
    let mut doc = Document::with_version("1.5");
    let pages_id = doc.new_object_id();
    let f1 = doc.add_object(dictionary! {
        "Type" => "Font", "Subtype" => "Type1", "BaseFont" => "Times-Roman",
        "Encoding" => "WinAnsiEncoding",
    });
    let f2 = doc.add_object(dictionary! {
        "Type" => "Font", "Subtype" => "Type1", "BaseFont" => "Helvetica",
    });
    let resources =
        doc.add_object(dictionary! { "Font" => dictionary! { "F1" => f1, "F2" => f2 } });
    let stream = doc.add_object(Stream::new(dictionary! {}, content.to_vec()));
    let page = doc.add_object(dictionary! {
        "Type" => "Page", "Parent" => pages_id, "Contents" => stream,
    });
    doc.objects.insert(
        pages_id,
        Object::Dictionary(dictionary! {
            "Type" => "Pages", "Kids" => vec![page.into()], "Count" => 1,
            "Resources" => resources,
            "MediaBox" => vec![0.into(), 0.into(), 595.into(), 842.into()],
        }),
    );
    let catalog = doc.add_object(dictionary! { "Type" => "Catalog", "Pages" => pages_id });
    let info = doc.add_object(dictionary! { "Title" => Object::string_literal("T") });
    doc.trailer.set("Root", catalog);
    doc.trailer.set("Info", info);
    let mut out = Vec::new();
    if doc.save_to(&mut out).is_err() {
        return Vec::new();
    }
    out
}

/// A one-page pdf whose page content is the stream `kit` describes: its first byte
/// (modulo 4) is how many times the data is zlib-compressed, then come the stream
/// dictionary's entries up to a 0xFF byte (its `Length` is set here), then the data.
pub fn pdf_stream_kit(kit: &[u8]) -> Vec<u8> {
    let Some((layers, rest)) = kit.split_first() else {
        return Vec::new();
    };
    let (entries, mut data) = match rest.iter().position(|b| *b == 0xff) {
        Some(i) => (&rest[..i], rest[i + 1..].to_vec()),
        None => (rest, Vec::new()),
    };
    for _ in 0..layers % 4 {
        let mut z = ZlibEncoder::new(Vec::new(), Compression::default());
        if z.write_all(&data).is_err() {
            return Vec::new();
        }
        data = z.finish().unwrap_or_default();
    }
    let mut content = format!("<< /Length {} ", data.len()).into_bytes();
    content.extend_from_slice(entries);
    content.extend_from_slice(b" >>\nstream\n");
    content.extend_from_slice(&data);
    content.extend_from_slice(b"\nendstream");
    let objects: [&[u8]; 5] = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /Contents 5 0 R /MediaBox [0 0 595 842] \
          /Resources << /Font << /F1 4 0 R /F2 4 0 R >> >> >>",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        &content,
    ];
    let mut out = b"%PDF-1.5\n".to_vec();
    let mut offsets = Vec::new();
    for (i, body) in objects.iter().enumerate() {
        offsets.push(out.len());
        out.extend_from_slice(format!("{} 0 obj\n", i + 1).as_bytes());
        out.extend_from_slice(body);
        out.extend_from_slice(b"\nendobj\n");
    }
    let xref = out.len();
    out.extend_from_slice(b"xref\n0 6\n0000000000 65535 f \n");
    for offset in offsets {
        out.extend_from_slice(format!("{offset:010} 00000 n \n").as_bytes());
    }
    out.extend_from_slice(
        format!("trailer\n<< /Size 6 /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n").as_bytes(),
    );
    out
}

/// A content stream showing `text` line by line, as a starting point for mutations.
pub fn sample_content(text: &str) -> Vec<u8> {
    let mut ops = vec![
        Operation::new("BT", vec![]),
        Operation::new("Tf", vec!["F1".into(), 11.into()]),
        Operation::new("TL", vec![13.into()]),
        Operation::new("Td", vec![72.into(), 760.into()]),
    ];
    for line in text.lines() {
        ops.push(Operation::new("Tj", vec![Object::string_literal(line)]));
        ops.push(Operation::new("T*", vec![]));
    }
    ops.push(Operation::new("ET", vec![]));
    Content { operations: ops }.encode().unwrap_or_default()
}
