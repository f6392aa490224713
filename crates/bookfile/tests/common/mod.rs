//! Real fixture files built in the tests: epubs with the zip crate, pdfs with lopdf.
#![allow(dead_code)]

pub mod hostile_pdfs;
pub mod manuscripts;

use std::io::{Cursor, Read, Write};

use lopdf::content::{Content, Operation};
use lopdf::{Document, Object, Stream, dictionary};
use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, ZipArchive, ZipWriter};

pub const SENTENCES: &[&str] = &[
    "The rain had not stopped for three days, and the river was rising.",
    "She kept the lamp lit by the window so that the boatmen could find the landing.",
    "Nobody in the village remembered a spring as wet as this one.",
    "Her brother came back from the city with a letter he would not show anyone.",
    "By evening the bells of the old church were ringing without a hand on the rope.",
];

/// A chapter of an epub fixture: title, and paragraphs (each a few real sentences).
pub struct FixtureChapter {
    pub title: String,
    pub paragraphs: Vec<String>,
}

/// `count` chapters of `paragraphs` paragraphs each; every paragraph carries a marker
/// "MARK-c{chapter}-p{paragraph}" so tests can tell which text a file holds.
pub fn chapters(count: usize, paragraphs: usize) -> Vec<FixtureChapter> {
    (1..=count)
        .map(|c| FixtureChapter {
            title: format!("The {} Chapter", ordinal(c)),
            paragraphs: (1..=paragraphs)
                .map(|p| {
                    format!(
                        "{} MARK-c{c}-p{p} {}",
                        SENTENCES[(c + p) % 5],
                        SENTENCES[p % 5]
                    )
                })
                .collect(),
        })
        .collect()
}

fn ordinal(n: usize) -> &'static str {
    [
        "Zeroth", "First", "Second", "Third", "Fourth", "Fifth", "Sixth", "Seventh",
    ][n.min(7)]
}

/// What goes into an epub fixture.
pub struct EpubSpec {
    pub chapters: Vec<FixtureChapter>,
    pub nav: bool,
    pub ncx: bool,
    pub headings: bool,
    /// Extra raw entries (name, bytes), written after everything else.
    pub extra: Vec<(String, Vec<u8>)>,
}

impl EpubSpec {
    pub fn new(chapters: Vec<FixtureChapter>) -> Self {
        EpubSpec {
            chapters,
            nav: true,
            ncx: false,
            headings: true,
            extra: Vec::new(),
        }
    }
}

pub fn chapter_xhtml(ch: &FixtureChapter, heading: bool) -> String {
    let mut body = String::new();
    if heading {
        body.push_str(&format!("<h1>{}</h1>\n", ch.title));
    }
    for p in &ch.paragraphs {
        body.push_str(&format!("<p>{p}</p>\n"));
    }
    format!(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<!DOCTYPE html>\n\
<html xmlns=\"http://www.w3.org/1999/xhtml\" xmlns:epub=\"http://www.idpf.org/2007/ops\">\n\
<head><title>{}</title><link rel=\"stylesheet\" href=\"style.css\" type=\"text/css\"/></head>\n\
<body>\n<section epub:type=\"chapter\">\n{body}</section>\n</body>\n</html>\n",
        if heading { ch.title.as_str() } else { "" }
    )
}

pub fn epub(spec: &EpubSpec) -> Vec<u8> {
    let n = spec.chapters.len();
    let mut manifest = String::new();
    let mut spine = String::new();
    let mut nav_items = String::new();
    let mut ncx_points = String::new();
    for i in 1..=n {
        manifest.push_str(&format!(
            "<item id=\"ch{i}\" href=\"text/ch{i}.xhtml\" media-type=\"application/xhtml+xml\"/>\n"
        ));
        spine.push_str(&format!("<itemref idref=\"ch{i}\"/>\n"));
        let title = &spec.chapters[i - 1].title;
        nav_items.push_str(&format!(
            "<li><a href=\"text/ch{i}.xhtml\">{title}</a></li>\n"
        ));
        ncx_points.push_str(&format!(
            "<navPoint id=\"np{i}\" playOrder=\"{i}\"><navLabel><text>{title}</text></navLabel>\
<content src=\"text/ch{i}.xhtml\"/></navPoint>\n"
        ));
    }
    if spec.nav {
        manifest.push_str(
            "<item id=\"nav\" href=\"nav.xhtml\" media-type=\"application/xhtml+xml\" properties=\"nav\"/>\n",
        );
    }
    if spec.ncx {
        manifest.push_str(
            "<item id=\"ncx\" href=\"toc.ncx\" media-type=\"application/x-dtbncx+xml\"/>\n",
        );
    }
    manifest.push_str("<item id=\"css\" href=\"text/style.css\" media-type=\"text/css\"/>\n");
    let toc_attr = if spec.ncx { " toc=\"ncx\"" } else { "" };
    let opf = format!(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n\
<package xmlns=\"http://www.idpf.org/2007/opf\" version=\"3.0\" unique-identifier=\"uid\">\n\
<metadata xmlns:dc=\"http://purl.org/dc/elements/1.1/\">\n\
<dc:identifier id=\"uid\">urn:uuid:0b0b0b0b-1111-2222-3333-444455556666</dc:identifier>\n\
<dc:title>The River &amp; the Rain</dc:title>\n<dc:creator>Ada Lovelace</dc:creator>\n\
<dc:creator>Mary Shelley</dc:creator>\n<dc:language>en</dc:language>\n\
<meta property=\"dcterms:modified\">2024-01-01T00:00:00Z</meta>\n</metadata>\n\
<manifest>\n{manifest}</manifest>\n<spine{toc_attr}>\n{spine}</spine>\n</package>\n"
    );
    let nav = format!(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<!DOCTYPE html>\n\
<html xmlns=\"http://www.w3.org/1999/xhtml\" xmlns:epub=\"http://www.idpf.org/2007/ops\">\n\
<head><title>Contents</title></head>\n<body>\n<nav epub:type=\"toc\" id=\"toc\"><h1>Contents</h1>\n\
<ol>\n{nav_items}</ol></nav>\n</body>\n</html>\n"
    );
    let ncx = format!(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n\
<ncx xmlns=\"http://www.daisy.org/z3986/2005/ncx/\" version=\"2005-1\">\n\
<head/><docTitle><text>The River</text></docTitle>\n<navMap>\n{ncx_points}</navMap>\n</ncx>\n"
    );
    let mut files: Vec<(String, Vec<u8>)> = vec![
        (
            "META-INF/container.xml".into(),
            CONTAINER.as_bytes().to_vec(),
        ),
        ("OEBPS/content.opf".into(), opf.into_bytes()),
        (
            "OEBPS/text/style.css".into(),
            b"p { text-indent: 1em; }".to_vec(),
        ),
    ];
    if spec.nav {
        files.push(("OEBPS/nav.xhtml".into(), nav.into_bytes()));
    }
    if spec.ncx {
        files.push(("OEBPS/toc.ncx".into(), ncx.into_bytes()));
    }
    for (i, ch) in spec.chapters.iter().enumerate() {
        files.push((
            format!("OEBPS/text/ch{}.xhtml", i + 1),
            chapter_xhtml(ch, spec.headings).into_bytes(),
        ));
    }
    files.extend(spec.extra.iter().cloned());
    zip_with_mimetype(&files)
}

pub const CONTAINER: &str = "<?xml version=\"1.0\"?>\n\
<container version=\"1.0\" xmlns=\"urn:oasis:names:tc:opendocument:xmlns:container\">\n\
<rootfiles><rootfile full-path=\"OEBPS/content.opf\" media-type=\"application/oebps-package+xml\"/></rootfiles>\n\
</container>\n";

/// A zip whose first entry is the stored `mimetype` of an epub, then `files` deflated.
pub fn zip_with_mimetype(files: &[(String, Vec<u8>)]) -> Vec<u8> {
    let mut w = ZipWriter::new(Cursor::new(Vec::new()));
    w.start_file(
        "mimetype",
        SimpleFileOptions::default().compression_method(CompressionMethod::Stored),
    )
    .unwrap();
    w.write_all(b"application/epub+zip").unwrap();
    write_deflated(w, files)
}

/// A zip of `files`, deflated, in the order given.
pub fn zip_files(files: &[(String, Vec<u8>)]) -> Vec<u8> {
    write_deflated(ZipWriter::new(Cursor::new(Vec::new())), files)
}

fn write_deflated(mut w: ZipWriter<Cursor<Vec<u8>>>, files: &[(String, Vec<u8>)]) -> Vec<u8> {
    for (name, bytes) in files {
        w.start_file(
            name.as_str(),
            SimpleFileOptions::default().compression_method(CompressionMethod::Deflated),
        )
        .unwrap();
        w.write_all(bytes).unwrap();
    }
    w.finish().unwrap().into_inner()
}

/// Every entry of a zip, inflated (test fixtures only: no limits).
pub fn unzip(data: &[u8]) -> Vec<(String, Vec<u8>)> {
    let mut archive = ZipArchive::new(Cursor::new(data)).unwrap();
    (0..archive.len())
        .map(|i| {
            let mut f = archive.by_index(i).unwrap();
            let mut out = Vec::new();
            f.read_to_end(&mut out).unwrap();
            (f.name().to_owned(), out)
        })
        .collect()
}

pub fn entry(data: &[u8], name: &str) -> Option<String> {
    unzip(data)
        .into_iter()
        .find(|(n, _)| n == name)
        .map(|(_, b)| String::from_utf8(b).unwrap())
}

/// Rewrites the uncompressed size an entry declares (local and central headers), making a
/// zip that lies about what it inflates to.
pub fn lie_about_size(zip: &mut [u8], name: &str, declared: u32) {
    let name = name.as_bytes();
    let mut i = 0;
    while i + 46 <= zip.len() {
        let sig = &zip[i..i + 4];
        if sig == b"PK\x03\x04" {
            let n = u16::from_le_bytes([zip[i + 26], zip[i + 27]]) as usize;
            if &zip[i + 30..i + 30 + n] == name {
                zip[i + 22..i + 26].copy_from_slice(&declared.to_le_bytes());
            }
        } else if sig == b"PK\x01\x02" {
            let n = u16::from_le_bytes([zip[i + 28], zip[i + 29]]) as usize;
            if &zip[i + 46..i + 46 + n] == name {
                zip[i + 24..i + 28].copy_from_slice(&declared.to_le_bytes());
            }
        }
        i += 1;
    }
}

/// A pdf of `pages` pages, each saying "Page N" with a marker PMARK-N; with an outline
/// of one entry per `outline_every` pages when given; Info title and author set.
pub fn pdf(pages: usize, outline_every: Option<usize>) -> Vec<u8> {
    let mut doc = Document::with_version("1.5");
    let pages_id = doc.new_object_id();
    let font_id = doc.add_object(dictionary! {
        "Type" => "Font", "Subtype" => "Type1", "BaseFont" => "Helvetica",
    });
    let resources_id = doc.add_object(dictionary! { "Font" => dictionary! { "F1" => font_id } });
    let mut kids = Vec::new();
    let mut page_ids = Vec::new();
    for n in 1..=pages {
        let text = format!("Page {n} of the river book PMARK-{n}X");
        let content = Content {
            operations: vec![
                Operation::new("BT", vec![]),
                Operation::new("Tf", vec!["F1".into(), 14.into()]),
                Operation::new("Td", vec![72.into(), 720.into()]),
                Operation::new("Tj", vec![Object::string_literal(text)]),
                Operation::new("ET", vec![]),
            ],
        };
        let content_id = doc.add_object(Stream::new(dictionary! {}, content.encode().unwrap()));
        let page_id = doc.add_object(dictionary! {
            "Type" => "Page", "Parent" => pages_id, "Contents" => content_id,
        });
        kids.push(page_id.into());
        page_ids.push(page_id);
    }
    doc.objects.insert(
        pages_id,
        Object::Dictionary(dictionary! {
            "Type" => "Pages", "Kids" => kids, "Count" => pages as i64,
            "Resources" => resources_id,
            "MediaBox" => vec![0.into(), 0.into(), 595.into(), 842.into()],
        }),
    );
    let mut catalog = dictionary! { "Type" => "Catalog", "Pages" => pages_id };
    if let Some(every) = outline_every {
        let outlines_id = doc.new_object_id();
        let starts: Vec<usize> = (0..pages).step_by(every).collect();
        let item_ids: Vec<_> = starts.iter().map(|_| doc.new_object_id()).collect();
        for (k, start) in starts.iter().enumerate() {
            let mut item = dictionary! {
                "Title" => Object::string_literal(format!("Part {} of the river", k + 1)),
                "Parent" => outlines_id,
                "Dest" => vec![page_ids[*start].into(), "Fit".into()],
            };
            if k > 0 {
                item.set("Prev", item_ids[k - 1]);
            }
            if k + 1 < item_ids.len() {
                item.set("Next", item_ids[k + 1]);
            }
            doc.objects.insert(item_ids[k], Object::Dictionary(item));
        }
        doc.objects.insert(
            outlines_id,
            Object::Dictionary(dictionary! {
                "Type" => "Outlines",
                "First" => item_ids[0],
                "Last" => *item_ids.last().unwrap(),
                "Count" => item_ids.len() as i64,
            }),
        );
        catalog.set("Outlines", outlines_id);
    }
    let catalog_id = doc.add_object(catalog);
    let info_id = doc.add_object(dictionary! {
        "Title" => Object::string_literal("The River Book"),
        "Author" => Object::string_literal("Ada Lovelace"),
    });
    doc.trailer.set("Root", catalog_id);
    doc.trailer.set("Info", info_id);
    let mut out = Vec::new();
    doc.save_to(&mut out).unwrap();
    out
}

/// A plain-text book: a title block, then `count` chapters "CHAPTER <roman>" with a title
/// line and paragraphs carrying markers TMARK-c{chapter}-p{paragraph}.
pub fn txt_book(count: usize, paragraphs: usize) -> String {
    let romans = ["I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X"];
    let mut s = String::from("Title: The River Book\nAuthor: Ada Lovelace\n\n\n");
    for c in 1..=count {
        s.push_str(&format!(
            "CHAPTER {}\n\nThe {} Day\n\n",
            romans[c - 1],
            ordinal(c)
        ));
        for p in 1..=paragraphs {
            s.push_str(&format!(
                "{} TMARK-c{c}-p{p} {}\n{}\n\n",
                SENTENCES[(c + p) % 5],
                SENTENCES[p % 5],
                SENTENCES[(p + 2) % 5]
            ));
        }
        s.push('\n');
    }
    s
}
