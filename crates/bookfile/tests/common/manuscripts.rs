//! Manuscript fixtures built in the tests: docx files with the zip crate, encrypted,
//! image-only and typeset pdfs with lopdf.
#![allow(dead_code)]

use std::io::Write;

use flate2::Compression;
use flate2::write::ZlibEncoder;
use lopdf::content::{Content, Operation};
use lopdf::{
    Dictionary, Document, EncryptionState, EncryptionVersion, Object, ObjectId, Permissions,
    Stream, dictionary,
};

use super::zip_files;

const CONTENT_TYPES: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">
<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>
<Default Extension="xml" ContentType="application/xml"/>
<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>
<Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/>
<Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/>
</Types>"#;

const RELS: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>
<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/>
</Relationships>"#;

/// Styles as Word writes them: ids that need not say "Heading" (a German Word's
/// "berschrift1"), names that do.
const STYLES: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:styles xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">
<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>
<w:style w:type="paragraph" w:styleId="Title"><w:name w:val="Title"/><w:basedOn w:val="Normal"/></w:style>
<w:style w:type="paragraph" w:styleId="berschrift1"><w:name w:val="heading 1"/><w:basedOn w:val="Normal"/><w:pPr><w:outlineLvl w:val="0"/></w:pPr></w:style>
<w:style w:type="paragraph" w:styleId="berschrift2"><w:name w:val="heading 2"/><w:basedOn w:val="Normal"/></w:style>
</w:styles>"#;

/// The XML of one paragraph in `style` (None: body text); a "\n" in the text is a line
/// break.
pub fn docx_paragraph(style: Option<&str>, text: &str) -> String {
    let props = style
        .map(|s| format!("<w:pPr><w:pStyle w:val=\"{s}\"/></w:pPr>"))
        .unwrap_or_default();
    let runs: Vec<String> = text
        .split('\n')
        .map(|line| {
            let line = line.replace('&', "&amp;").replace('<', "&lt;");
            format!("<w:t xml:space=\"preserve\">{line}</w:t>")
        })
        .collect();
    format!("<w:p>{props}<w:r>{}</w:r></w:p>", runs.join("<w:br/>"))
}

/// A docx whose body is `paragraphs` (style, text), with core properties when given.
pub fn docx(paragraphs: &[(Option<&str>, String)], core: Option<(&str, &str)>) -> Vec<u8> {
    docx_with(paragraphs, core, Vec::new())
}

/// Like `docx`, with extra raw entries after the others.
pub fn docx_with(
    paragraphs: &[(Option<&str>, String)],
    core: Option<(&str, &str)>,
    extra: Vec<(String, Vec<u8>)>,
) -> Vec<u8> {
    let body: String = paragraphs
        .iter()
        .map(|(style, text)| docx_paragraph(*style, text))
        .collect();
    let document = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n\
<w:document xmlns:w=\"http://schemas.openxmlformats.org/wordprocessingml/2006/main\"><w:body>{body}\
<w:sectPr/></w:body></w:document>"
    );
    let mut files = vec![
        (
            "[Content_Types].xml".to_owned(),
            CONTENT_TYPES.as_bytes().to_vec(),
        ),
        ("_rels/.rels".to_owned(), RELS.as_bytes().to_vec()),
        ("word/document.xml".to_owned(), document.into_bytes()),
        ("word/styles.xml".to_owned(), STYLES.as_bytes().to_vec()),
    ];
    if let Some((title, creator)) = core {
        let xml = format!(
            "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n\
<cp:coreProperties xmlns:cp=\"http://schemas.openxmlformats.org/package/2006/metadata/core-properties\" \
xmlns:dc=\"http://purl.org/dc/elements/1.1/\"><dc:title>{title}</dc:title><dc:creator>{creator}</dc:creator>\
<cp:lastModifiedBy>Microsoft Office User</cp:lastModifiedBy><dc:language>en-GB</dc:language></cp:coreProperties>"
        );
        files.push(("docProps/core.xml".to_owned(), xml.into_bytes()));
    }
    files.extend(extra);
    zip_files(&files)
}

/// `pdf` saved again encrypted (RC4, 128 bits) with these passwords.
pub fn encrypt_pdf(pdf: &[u8], user_password: &str) -> Vec<u8> {
    let mut doc = Document::load_mem(pdf).unwrap();
    doc.trailer.set(
        "ID",
        Object::Array(vec![
            Object::string_literal(b"0123456789abcdef".to_vec()),
            Object::string_literal(b"0123456789abcdef".to_vec()),
        ]),
    );
    let version = EncryptionVersion::V2 {
        document: &doc,
        owner_password: "the-owner",
        user_password,
        key_length: 128,
        permissions: Permissions::all(),
    };
    let state = EncryptionState::try_from(version).unwrap();
    doc.encrypt(&state).unwrap();
    let mut out = Vec::new();
    doc.save_to(&mut out).unwrap();
    out
}

/// A pdf of `pages` pages, each showing one grey image and no text (a scan).
pub fn image_only_pdf(pages: usize) -> Vec<u8> {
    let mut doc = Document::with_version("1.5");
    let pages_id = doc.new_object_id();
    let image_id = doc.add_object(Stream::new(
        dictionary! {
            "Type" => "XObject", "Subtype" => "Image", "Width" => 8, "Height" => 8,
            "ColorSpace" => "DeviceGray", "BitsPerComponent" => 8,
        },
        vec![0x80; 64],
    ));
    let resources_id = doc.add_object(dictionary! {
        "XObject" => dictionary! { "Im1" => image_id },
    });
    let mut kids = Vec::new();
    for _ in 0..pages {
        let content = Content {
            operations: vec![
                Operation::new("q", vec![]),
                Operation::new(
                    "cm",
                    vec![
                        500.into(),
                        0.into(),
                        0.into(),
                        700.into(),
                        40.into(),
                        60.into(),
                    ],
                ),
                Operation::new("Do", vec!["Im1".into()]),
                Operation::new("Q", vec![]),
            ],
        };
        let content_id = doc.add_object(Stream::new(dictionary! {}, content.encode().unwrap()));
        let page_id = doc.add_object(dictionary! {
            "Type" => "Page", "Parent" => pages_id, "Contents" => content_id,
            "Resources" => resources_id,
        });
        kids.push(page_id.into());
    }
    finish_pdf(doc, pages_id, kids, dictionary! {})
}

/// A pdf whose pages hold `lines` of text each, laid out like a book page (12 pt lines,
/// 14 pt size for lines that are headings), so that lines, paragraphs and hyphens are
/// recovered from positions.
pub fn typeset_pdf(pages: &[Vec<&str>]) -> Vec<u8> {
    let mut doc = Document::with_version("1.5");
    let pages_id = doc.new_object_id();
    let font_id = doc.add_object(dictionary! {
        "Type" => "Font", "Subtype" => "Type1", "BaseFont" => "Times-Roman",
        "Encoding" => "WinAnsiEncoding",
    });
    let mut kids = Vec::new();
    for lines in pages {
        let mut operations = vec![
            Operation::new("BT", vec![]),
            Operation::new("Tf", vec!["F1".into(), 11.into()]),
            Operation::new("TL", vec![13.into()]),
            Operation::new("Td", vec![72.into(), 760.into()]),
        ];
        for line in lines {
            if line.is_empty() {
                // A blank line: the paragraph gap.
                operations.push(Operation::new("T*", vec![]));
                continue;
            }
            operations.push(Operation::new("Tj", vec![Object::string_literal(*line)]));
            operations.push(Operation::new("T*", vec![]));
        }
        operations.push(Operation::new("ET", vec![]));
        let content = Content { operations };
        let content_id = doc.add_object(Stream::new(dictionary! {}, content.encode().unwrap()));
        let page_id = doc.add_object(dictionary! {
            "Type" => "Page", "Parent" => pages_id, "Contents" => content_id,
        });
        kids.push(page_id.into());
    }
    // Inherited by the pages, and written inline (not as a reference).
    let resources = dictionary! { "Font" => dictionary! { "F1" => font_id } };
    finish_pdf(
        doc,
        pages_id,
        kids,
        dictionary! { "Resources" => resources },
    )
}

/// Writes the page tree node `pages_id` over `kids` (plus `extra` entries) and the catalog,
/// and saves the document.
fn finish_pdf(
    mut doc: Document,
    pages_id: ObjectId,
    kids: Vec<Object>,
    extra: Dictionary,
) -> Vec<u8> {
    let mut pages = dictionary! {
        "Type" => "Pages", "Count" => kids.len() as i64, "Kids" => kids,
        "MediaBox" => vec![0.into(), 0.into(), 595.into(), 842.into()],
    };
    for (key, value) in extra.iter() {
        pages.set(key.clone(), value.clone());
    }
    doc.objects.insert(pages_id, Object::Dictionary(pages));
    let catalog_id = doc.add_object(dictionary! { "Type" => "Catalog", "Pages" => pages_id });
    doc.trailer.set("Root", catalog_id);
    let mut out = Vec::new();
    doc.save_to(&mut out).unwrap();
    out
}

/// `pdf` with its first outline entry's `Next` pointing at itself (a loop).
pub fn with_outline_loop(pdf: &[u8]) -> Vec<u8> {
    let mut doc = Document::load_mem(pdf).unwrap();
    let outlines = doc
        .catalog()
        .unwrap()
        .get(b"Outlines")
        .unwrap()
        .as_reference()
        .unwrap();
    let first = doc
        .get_dictionary(outlines)
        .unwrap()
        .get(b"First")
        .unwrap()
        .as_reference()
        .unwrap();
    doc.get_dictionary_mut(first).unwrap().set("Next", first);
    let mut out = Vec::new();
    doc.save_to(&mut out).unwrap();
    out
}

/// A one-page pdf (text "Page 1 PMARK-1X") holding an array nested `depth` levels deep:
/// in an object of the file, or, when `deflated`, in its deflated page content.
pub fn deeply_nested_pdf(depth: usize, deflated: bool) -> Vec<u8> {
    let nest = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
    let text = "BT /F1 12 Tf 72 720 Td (Page 1 PMARK-1X) Tj ET";
    let (deep, content) = if deflated {
        let mut z = ZlibEncoder::new(Vec::new(), Compression::best());
        z.write_all(format!("{text} {nest} pop").as_bytes())
            .unwrap();
        let z = z.finish().unwrap();
        let mut stream =
            format!("<< /Length {} /Filter /FlateDecode >>\nstream\n", z.len()).into_bytes();
        stream.extend_from_slice(&z);
        stream.extend_from_slice(b"\nendstream");
        ("null".to_owned(), stream)
    } else {
        let stream = format!("<< /Length {} >>\nstream\n{text}\nendstream", text.len());
        (nest, stream.into_bytes())
    };
    raw_pdf(&[
        b"<< /Type /Catalog /Pages 2 0 R /Deep 5 0 R >>".to_vec(),
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 /Resources << /Font << /F1 4 0 R >> >> >>"
            .to_vec(),
        b"<< /Type /Page /Parent 2 0 R /Contents 6 0 R /MediaBox [0 0 595 842] >>".to_vec(),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>".to_vec(),
        deep.into_bytes(),
        content,
    ])
}

pub use quire_fixtures::hostile::raw_pdf;

/// `pdf` with one more object: a stream in the LZW filter.
pub fn with_lzw_stream(pdf: &[u8]) -> Vec<u8> {
    let mut doc = Document::load_mem(pdf).unwrap();
    doc.add_object(Stream::new(
        dictionary! { "Filter" => "LZWDecode" },
        b"\x80\x0b\x60\x50\x22\x0c\x0c\x85\x01".to_vec(),
    ));
    let mut out = Vec::new();
    doc.save_to(&mut out).unwrap();
    out
}
