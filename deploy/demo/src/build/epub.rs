//! EPUB 3 (with an EPUB 2 NCX so older readers find the chapters too).
//!
//! Layout: `mimetype` (first, stored), `META-INF/container.xml`, and under `OEBPS/` the
//! package document, `nav.xhtml`, `toc.ncx`, a stylesheet, an optional cover page and image,
//! and one XHTML file per chapter. Every text that reaches the XML is escaped here.

use std::io::{Cursor, Write};

use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, DateTime, ZipWriter};

use super::xml::esc;
use super::{BookMeta, ChapterText};
use crate::DemoError;

/// Fixed so that building the same book twice gives the same bytes.
const MODIFIED: &str = "2025-01-01T00:00:00Z";

const CSS: &str = "body { font-family: serif; line-height: 1.5; margin: 0 5%; }\n\
h1 { font-size: 1.5em; margin: 1.5em 0 1em; text-align: center; }\n\
p { margin: 0 0 0.8em; text-indent: 1.2em; text-align: justify; }\n\
p.first { text-indent: 0; }\n\
div.cover { text-align: center; }\n\
div.cover img { max-width: 100%; max-height: 100vh; }\n";

/// The chapter file name of chapter `n` (1-based), as it appears in the manifest and nav.
pub(crate) fn chapter_href(n: usize) -> String {
    format!("chapter-{n:03}.xhtml")
}

/// The book as an EPUB 3 container.
pub fn epub(meta: &BookMeta, chapters: &[ChapterText]) -> Result<Vec<u8>, DemoError> {
    let stored = SimpleFileOptions::default()
        .compression_method(CompressionMethod::Stored)
        .last_modified_time(DateTime::default());
    let deflated = stored.compression_method(CompressionMethod::Deflated);
    let mut zip = ZipWriter::new(Cursor::new(Vec::new()));

    // The OCF rule: `mimetype` is the first entry, uncompressed, without extra fields.
    zip.start_file("mimetype", stored)?;
    zip.write_all(b"application/epub+zip")?;

    let mut put = |name: &str, body: &[u8]| -> Result<(), DemoError> {
        zip.start_file(name, deflated)?;
        zip.write_all(body)?;
        Ok(())
    };
    put("META-INF/container.xml", CONTAINER.as_bytes())?;
    put("OEBPS/content.opf", opf(meta, chapters).as_bytes())?;
    put("OEBPS/nav.xhtml", nav(meta, chapters).as_bytes())?;
    put("OEBPS/toc.ncx", ncx(meta, chapters).as_bytes())?;
    put("OEBPS/style.css", CSS.as_bytes())?;
    if let Some(cover) = &meta.cover {
        put(&format!("OEBPS/cover.{}", cover.extension()), &cover.data)?;
        put("OEBPS/cover.xhtml", cover_page(meta).as_bytes())?;
    }
    for (i, chapter) in chapters.iter().enumerate() {
        put(
            &format!("OEBPS/{}", chapter_href(i + 1)),
            chapter_page(meta, chapter).as_bytes(),
        )?;
    }
    Ok(zip.finish()?.into_inner())
}

const CONTAINER: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
  <rootfiles>
    <rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/>
  </rootfiles>
</container>
"#;

fn opf(meta: &BookMeta, chapters: &[ChapterText]) -> String {
    let lang = esc(meta.language_or_default());
    let mut m = String::new();
    m.push_str(&format!(
        "    <dc:identifier id=\"book-id\">{}</dc:identifier>\n",
        esc(&meta.identifier_or_derived())
    ));
    m.push_str(&format!("    <dc:title>{}</dc:title>\n", esc(&meta.title)));
    for (i, author) in meta.authors.iter().enumerate() {
        m.push_str(&format!(
            "    <dc:creator id=\"creator-{i}\">{}</dc:creator>\n    <meta refines=\"#creator-{i}\" property=\"role\" scheme=\"marc:relators\">aut</meta>\n",
            esc(author)
        ));
    }
    m.push_str(&format!("    <dc:language>{lang}</dc:language>\n"));
    let optional = [
        ("dc:description", &meta.description),
        ("dc:publisher", &meta.publisher),
        ("dc:date", &meta.publish_date),
        ("dc:rights", &meta.rights),
    ];
    for (tag, value) in optional {
        if let Some(v) = value.as_deref().filter(|v| !v.trim().is_empty()) {
            m.push_str(&format!("    <{tag}>{}</{tag}>\n", esc(v.trim())));
        }
    }
    m.push_str(&format!(
        "    <meta property=\"dcterms:modified\">{MODIFIED}</meta>\n"
    ));

    let mut manifest = String::from(
        "    <item id=\"nav\" href=\"nav.xhtml\" media-type=\"application/xhtml+xml\" properties=\"nav\"/>\n\
         \x20   <item id=\"ncx\" href=\"toc.ncx\" media-type=\"application/x-dtbncx+xml\"/>\n\
         \x20   <item id=\"css\" href=\"style.css\" media-type=\"text/css\"/>\n",
    );
    let mut spine = String::new();
    if let Some(cover) = &meta.cover {
        // EPUB 2 readers look for the cover through this meta; EPUB 3 through the property.
        m.push_str("    <meta name=\"cover\" content=\"cover-image\"/>\n");
        manifest.push_str(&format!(
            "    <item id=\"cover-image\" href=\"cover.{}\" media-type=\"{}\" properties=\"cover-image\"/>\n\
             \x20   <item id=\"cover-page\" href=\"cover.xhtml\" media-type=\"application/xhtml+xml\"{}/>\n",
            cover.extension(),
            esc(&cover.media_type),
            if cover.media_type == "image/svg+xml" { " properties=\"svg\"" } else { "" },
        ));
        spine.push_str("    <itemref idref=\"cover-page\" linear=\"no\"/>\n");
    }
    for n in 1..=chapters.len() {
        manifest.push_str(&format!(
            "    <item id=\"chapter-{n}\" href=\"{}\" media-type=\"application/xhtml+xml\"/>\n",
            chapter_href(n)
        ));
        spine.push_str(&format!("    <itemref idref=\"chapter-{n}\"/>\n"));
    }
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
         <package xmlns=\"http://www.idpf.org/2007/opf\" version=\"3.0\" unique-identifier=\"book-id\" xml:lang=\"{lang}\">\n\
         \x20 <metadata xmlns:dc=\"http://purl.org/dc/elements/1.1/\">\n{m}  </metadata>\n\
         \x20 <manifest>\n{manifest}  </manifest>\n\
         \x20 <spine toc=\"ncx\">\n{spine}  </spine>\n\
         </package>\n"
    )
}

fn xhtml(meta: &BookMeta, title: &str, body: &str, epub_ns: bool) -> String {
    let lang = esc(meta.language_or_default());
    let ns = if epub_ns {
        " xmlns:epub=\"http://www.idpf.org/2007/ops\""
    } else {
        ""
    };
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE html>\n\
         <html xmlns=\"http://www.w3.org/1999/xhtml\"{ns} xml:lang=\"{lang}\" lang=\"{lang}\">\n\
         <head>\n  <meta charset=\"UTF-8\"/>\n  <title>{}</title>\n  <link rel=\"stylesheet\" type=\"text/css\" href=\"style.css\"/>\n</head>\n\
         <body>\n{body}</body>\n</html>\n",
        esc(title)
    )
}

fn nav(meta: &BookMeta, chapters: &[ChapterText]) -> String {
    let mut items = String::new();
    for (i, chapter) in chapters.iter().enumerate() {
        items.push_str(&format!(
            "      <li><a href=\"{}\">{}</a></li>\n",
            chapter_href(i + 1),
            esc(&display_title(i + 1, &chapter.title))
        ));
    }
    let body = format!(
        "  <nav epub:type=\"toc\" id=\"toc\">\n    <h1>Contents</h1>\n    <ol>\n{items}    </ol>\n  </nav>\n"
    );
    xhtml(meta, &meta.title, &body, true)
}

fn ncx(meta: &BookMeta, chapters: &[ChapterText]) -> String {
    let mut points = String::new();
    for (i, chapter) in chapters.iter().enumerate() {
        let n = i + 1;
        points.push_str(&format!(
            "    <navPoint id=\"nav-{n}\" playOrder=\"{n}\">\n      <navLabel><text>{}</text></navLabel>\n      <content src=\"{}\"/>\n    </navPoint>\n",
            esc(&display_title(n, &chapter.title)),
            chapter_href(n)
        ));
    }
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
         <ncx xmlns=\"http://www.daisy.org/z3986/2005/ncx/\" version=\"2005-1\">\n\
         \x20 <head>\n    <meta name=\"dtb:uid\" content=\"{}\"/>\n    <meta name=\"dtb:depth\" content=\"1\"/>\n  </head>\n\
         \x20 <docTitle><text>{}</text></docTitle>\n\
         \x20 <navMap>\n{points}  </navMap>\n</ncx>\n",
        esc(&meta.identifier_or_derived()),
        esc(&meta.title)
    )
}

fn cover_page(meta: &BookMeta) -> String {
    let ext = meta.cover.as_ref().map_or("png", |c| c.extension());
    let body = format!(
        "  <div class=\"cover\"><img src=\"cover.{ext}\" alt=\"{}\"/></div>\n",
        esc(&meta.title)
    );
    xhtml(meta, &meta.title, &body, false)
}

fn chapter_page(meta: &BookMeta, chapter: &ChapterText) -> String {
    let mut body = format!("  <h1>{}</h1>\n", esc(chapter.title.trim()));
    for (i, p) in chapter
        .paragraphs
        .iter()
        .filter(|p| !p.trim().is_empty())
        .enumerate()
    {
        let class = if i == 0 { " class=\"first\"" } else { "" };
        // A `\n` inside a paragraph is a kept line break (verse).
        let lines: Vec<String> = p.trim().lines().map(|l| esc(l.trim())).collect();
        body.push_str(&format!("  <p{class}>{}</p>\n", lines.join("<br/>")));
    }
    xhtml(meta, &chapter.title, &body, false)
}

/// A chapter's title as the table of contents shows it; untitled ones get a number.
fn display_title(n: usize, title: &str) -> String {
    let title = title.trim();
    if title.is_empty() {
        format!("Chapter {n}")
    } else {
        title.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use std::io::Read;

    use quick_xml::Reader;
    use quick_xml::events::Event;

    use super::super::{Cover, fixtures};
    use super::*;

    fn entry(archive: &mut zip::ZipArchive<Cursor<&[u8]>>, name: &str) -> String {
        let mut s = String::new();
        archive
            .by_name(name)
            .unwrap()
            .read_to_string(&mut s)
            .unwrap();
        s
    }

    /// Parses the whole document, failing on any XML error; returns the text of `tag`s.
    fn texts_of(xml: &str, tag: &[u8]) -> Vec<String> {
        let mut reader = Reader::from_str(xml);
        let mut current: Option<String> = None;
        let mut found = Vec::new();
        loop {
            match reader.read_event().unwrap() {
                Event::Start(e) if e.name().as_ref() == tag => current = Some(String::new()),
                Event::End(e) if e.name().as_ref() == tag => found.extend(current.take()),
                Event::Text(t) => {
                    if let Some(c) = current.as_mut() {
                        c.push_str(&t.decode().unwrap());
                    }
                }
                Event::GeneralRef(r) => {
                    let name = String::from_utf8(r.to_vec()).unwrap();
                    let ch = match name.as_str() {
                        "amp" => "&",
                        "lt" => "<",
                        "gt" => ">",
                        "quot" => "\"",
                        "apos" => "'",
                        other => panic!("unknown entity {other}"),
                    };
                    if let Some(c) = current.as_mut() {
                        c.push_str(ch);
                    }
                }
                Event::Eof => break,
                _ => {}
            }
        }
        found
    }

    #[test]
    fn epub_is_a_zip_with_mimetype_first_and_stored() {
        let data = epub(&fixtures::meta(), &fixtures::chapters(3, 5)).unwrap();
        // The OCF magic: the first local header names `mimetype` and holds it uncompressed.
        assert_eq!(&data[0..4], b"PK\x03\x04");
        assert_eq!(&data[30..38], b"mimetype");
        assert_eq!(&data[38..58], b"application/epub+zip");
        let mut archive = zip::ZipArchive::new(Cursor::new(&data[..])).unwrap();
        let first = archive.by_index(0).unwrap();
        assert_eq!(first.name(), "mimetype");
        assert_eq!(first.compression(), CompressionMethod::Stored);
    }

    #[test]
    fn epub_package_parses_and_lists_every_chapter_in_the_spine() {
        let mut meta = fixtures::meta();
        meta.cover = Some(Cover {
            media_type: "image/svg+xml".into(),
            data: b"<svg xmlns=\"http://www.w3.org/2000/svg\"/>".to_vec(),
        });
        let data = epub(&meta, &fixtures::chapters(4, 3)).unwrap();
        let mut archive = zip::ZipArchive::new(Cursor::new(&data[..])).unwrap();
        let container = entry(&mut archive, "META-INF/container.xml");
        assert!(container.contains("full-path=\"OEBPS/content.opf\""));
        let opf = entry(&mut archive, "OEBPS/content.opf");
        assert_eq!(texts_of(&opf, b"dc:title"), vec!["Tom & Jerry's <Big> Day"]);
        assert_eq!(
            texts_of(&opf, b"dc:creator"),
            vec!["Ann Author", "Émile Zola"]
        );
        assert!(opf.contains("properties=\"cover-image\""));
        assert_eq!(opf.matches("<itemref idref=\"chapter-").count(), 4);
        for n in 1..=4 {
            let page = entry(&mut archive, &format!("OEBPS/{}", chapter_href(n)));
            assert_eq!(texts_of(&page, b"p").len(), 3);
            assert_eq!(
                texts_of(&page, b"h1"),
                vec![format!("The {n}th \u{201c}chapter\u{201d} & more")]
            );
        }
        let nav = entry(&mut archive, "OEBPS/nav.xhtml");
        assert_eq!(texts_of(&nav, b"a").len(), 4);
        texts_of(&entry(&mut archive, "OEBPS/toc.ncx"), b"text");
        texts_of(&entry(&mut archive, "OEBPS/cover.xhtml"), b"div");
        assert!(archive.by_name("OEBPS/cover.svg").is_ok());
    }

    #[test]
    fn building_twice_gives_the_same_bytes() {
        let a = epub(&fixtures::meta(), &fixtures::chapters(2, 2)).unwrap();
        let b = epub(&fixtures::meta(), &fixtures::chapters(2, 2)).unwrap();
        assert_eq!(a, b);
    }
}
