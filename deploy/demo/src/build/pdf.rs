//! A text PDF in A5: a title page, then each chapter from a new page with its heading,
//! wrapped paragraphs and page numbers; one outline entry (bookmark) per chapter.
//!
//! It uses the standard Helvetica fonts with WinAnsiEncoding, so no font file is embedded
//! and the text stays extractable.

use lopdf::content::{Content, Operation};
use lopdf::{Bookmark, Dictionary, Document, Object, ObjectId, Stream, StringFormat, dictionary};

use super::winansi;
use super::{BookMeta, ChapterText};
use crate::DemoError;

const PAGE_W: f32 = 420.0;
const PAGE_H: f32 = 595.0;
const MARGIN_X: f32 = 54.0;
const MARGIN_TOP: f32 = 60.0;
const MARGIN_BOTTOM: f32 = 64.0;
const BODY_SIZE: f32 = 11.0;
const BODY_LEADING: f32 = 15.0;
const PARAGRAPH_GAP: f32 = 6.0;
const HEADING_SIZE: f32 = 17.0;
const HEADING_LEADING: f32 = 22.0;

/// The book as a PDF document.
pub fn pdf(meta: &BookMeta, chapters: &[ChapterText]) -> Result<Vec<u8>, DemoError> {
    let mut layout = Layout::default();
    layout.title_page(meta);
    let mut chapter_starts = Vec::with_capacity(chapters.len());
    for chapter in chapters {
        layout.new_page();
        chapter_starts.push(layout.pages.len() - 1);
        layout.chapter(chapter);
    }
    write(meta, chapters, &layout.pages, &chapter_starts)
}

/// One line of text placed on a page.
struct Line {
    x: f32,
    y: f32,
    size: f32,
    bold: bool,
    text: Vec<u8>,
}

#[derive(Default)]
struct Layout {
    pages: Vec<Vec<Line>>,
    /// The baseline of the next line on the current page.
    y: f32,
}

impl Layout {
    fn new_page(&mut self) {
        self.pages.push(Vec::new());
        self.y = PAGE_H - MARGIN_TOP;
    }

    fn put(&mut self, text: Vec<u8>, size: f32, leading: f32, bold: bool, centred: bool) {
        if self.pages.is_empty() || self.y < MARGIN_BOTTOM {
            self.new_page();
        }
        let x = if centred {
            ((PAGE_W - winansi::width(&text, size, bold)) / 2.0).max(MARGIN_X)
        } else {
            MARGIN_X
        };
        let y = self.y;
        if let Some(page) = self.pages.last_mut() {
            page.push(Line {
                x,
                y,
                size,
                bold,
                text,
            });
        }
        self.y -= leading;
    }

    fn block(&mut self, text: &str, size: f32, leading: f32, bold: bool, centred: bool) {
        for line in wrap(&winansi::encode(text), size, bold) {
            self.put(line, size, leading, bold, centred);
        }
    }

    fn title_page(&mut self, meta: &BookMeta) {
        self.new_page();
        self.y = PAGE_H * 0.68;
        self.block(meta.title.trim(), 24.0, 30.0, true, true);
        self.y -= 18.0;
        if !meta.authors.is_empty() {
            self.block(&meta.author_line(), 14.0, 19.0, false, true);
        }
        if let Some(date) = meta
            .publish_date
            .as_deref()
            .filter(|d| !d.trim().is_empty())
        {
            self.y -= 8.0;
            self.block(date.trim(), 10.0, 14.0, false, true);
        }
        if let Some(rights) = meta.rights.as_deref().filter(|r| !r.trim().is_empty()) {
            self.y = MARGIN_BOTTOM + 40.0;
            self.block(rights.trim(), 8.0, 11.0, false, true);
        }
    }

    fn chapter(&mut self, chapter: &ChapterText) {
        self.y -= 20.0;
        self.block(
            chapter.title.trim(),
            HEADING_SIZE,
            HEADING_LEADING,
            true,
            false,
        );
        self.y -= 14.0;
        for paragraph in chapter.paragraphs.iter().filter(|p| !p.trim().is_empty()) {
            // A `\n` inside a paragraph is a kept line break (verse).
            for line in paragraph.trim().lines() {
                self.block(line, BODY_SIZE, BODY_LEADING, false, false);
            }
            self.y -= PARAGRAPH_GAP;
        }
    }
}

/// Greedy word wrap to the text width, measured with the font's metrics.
fn wrap(text: &[u8], size: f32, bold: bool) -> Vec<Vec<u8>> {
    let max = PAGE_W - 2.0 * MARGIN_X;
    let space = winansi::width(b" ", size, bold);
    let mut lines = Vec::new();
    let mut line: Vec<u8> = Vec::new();
    let mut used = 0.0f32;
    for word in text.split(|&b| b == b' ').filter(|w| !w.is_empty()) {
        let w = winansi::width(word, size, bold);
        if !line.is_empty() && used + space + w > max {
            lines.push(std::mem::take(&mut line));
            used = 0.0;
        }
        if !line.is_empty() {
            line.push(b' ');
            used += space;
        }
        line.extend_from_slice(word);
        used += w;
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

fn write(
    meta: &BookMeta,
    chapters: &[ChapterText],
    pages: &[Vec<Line>],
    chapter_starts: &[usize],
) -> Result<Vec<u8>, DemoError> {
    let mut doc = Document::with_version("1.7");
    let pages_id = doc.new_object_id();
    let font = |name: &str| {
        dictionary! {
            "Type" => "Font",
            "Subtype" => "Type1",
            "BaseFont" => Object::Name(name.as_bytes().to_vec()),
            "Encoding" => "WinAnsiEncoding",
        }
    };
    let regular = doc.add_object(font("Helvetica"));
    let bold = doc.add_object(font("Helvetica-Bold"));
    let resources = doc.add_object(dictionary! {
        "Font" => dictionary! { "F1" => regular, "F2" => bold },
    });

    let mut page_ids: Vec<ObjectId> = Vec::with_capacity(pages.len());
    for (index, lines) in pages.iter().enumerate() {
        let mut ops = Vec::with_capacity(lines.len() * 4 + 4);
        for line in lines {
            let font = if line.bold { "F2" } else { "F1" };
            ops.push(Operation::new("BT", vec![]));
            ops.push(Operation::new("Tf", vec![font.into(), line.size.into()]));
            ops.push(Operation::new("Td", vec![line.x.into(), line.y.into()]));
            ops.push(Operation::new(
                "Tj",
                vec![Object::String(line.text.clone(), StringFormat::Literal)],
            ));
            ops.push(Operation::new("ET", vec![]));
        }
        // Page numbers on every page but the title page.
        if index > 0 {
            let number = (index + 1).to_string().into_bytes();
            let x = (PAGE_W - winansi::width(&number, 9.0, false)) / 2.0;
            ops.push(Operation::new("BT", vec![]));
            ops.push(Operation::new("Tf", vec!["F1".into(), 9.0.into()]));
            ops.push(Operation::new("Td", vec![x.into(), 32.0.into()]));
            ops.push(Operation::new(
                "Tj",
                vec![Object::String(number, StringFormat::Literal)],
            ));
            ops.push(Operation::new("ET", vec![]));
        }
        let content = Content { operations: ops }.encode()?;
        let content_id = doc.add_object(Stream::new(dictionary! {}, content));
        page_ids.push(doc.add_object(dictionary! {
            "Type" => "Page",
            "Parent" => pages_id,
            "Contents" => content_id,
        }));
    }
    let kids: Vec<Object> = page_ids.iter().map(|id| (*id).into()).collect();
    doc.objects.insert(
        pages_id,
        Object::Dictionary(dictionary! {
            "Type" => "Pages",
            "Kids" => kids,
            "Count" => i64::try_from(page_ids.len()).unwrap_or(i64::MAX),
            "Resources" => resources,
            "MediaBox" => vec![0.into(), 0.into(), PAGE_W.into(), PAGE_H.into()],
        }),
    );

    // The title page gets an entry too, so a reader's outline starts at the top.
    if let Some(first) = page_ids.first() {
        let title = if meta.title.trim().is_empty() {
            "Title page".to_owned()
        } else {
            meta.title.trim().to_owned()
        };
        doc.add_bookmark(Bookmark::new(title, [0.0, 0.0, 0.0], 2, *first), None);
    }
    for (chapter, start) in chapters.iter().zip(chapter_starts) {
        if let Some(page) = page_ids.get(*start) {
            let title = if chapter.title.trim().is_empty() {
                "Chapter".to_owned()
            } else {
                chapter.title.trim().to_owned()
            };
            doc.add_bookmark(Bookmark::new(title, [0.0, 0.0, 0.0], 0, *page), None);
        }
    }
    let mut catalog = dictionary! { "Type" => "Catalog", "Pages" => pages_id };
    if let Some(outline) = doc.build_outline() {
        catalog.set("Outlines", outline);
        catalog.set("PageMode", "UseOutlines");
    }
    catalog.set(
        "Lang",
        Object::string_literal(meta.language_or_default().as_bytes().to_vec()),
    );
    let catalog_id = doc.add_object(catalog);
    doc.trailer.set("Root", catalog_id);
    let mut info = Dictionary::new();
    info.set("Title", text_string(&meta.title));
    if !meta.authors.is_empty() {
        info.set("Author", text_string(&meta.author_line()));
    }
    info.set("Producer", text_string("Quire"));
    let info_id = doc.add_object(info);
    doc.trailer.set("Info", info_id);

    doc.compress();
    let mut out = Vec::new();
    doc.save_to(&mut out)?;
    Ok(out)
}

/// A PDF text string: PDFDocEncoding agrees with ASCII; anything else goes as UTF-16BE.
fn text_string(text: &str) -> Object {
    if text.is_ascii() {
        Object::string_literal(text.as_bytes().to_vec())
    } else {
        let mut bytes = vec![0xfe, 0xff];
        bytes.extend(text.encode_utf16().flat_map(u16::to_be_bytes));
        Object::String(bytes, StringFormat::Hexadecimal)
    }
}

#[cfg(test)]
mod tests {
    use super::super::fixtures;
    use super::*;

    #[test]
    fn pdf_loads_with_pages_outline_and_text() {
        let chapters = fixtures::chapters(4, 12);
        let data = pdf(&fixtures::meta(), &chapters).unwrap();
        assert!(data.starts_with(b"%PDF-1.7"));
        let doc = Document::load_mem(&data).unwrap();
        let pages = doc.get_pages();
        // Title page plus at least one page per chapter; 12 long paragraphs overflow a page.
        assert!(pages.len() > 5, "{} pages", pages.len());
        let catalog = doc.catalog().unwrap();
        let outlines = doc
            .get_object(catalog.get(b"Outlines").unwrap().as_reference().unwrap())
            .unwrap()
            .as_dict()
            .unwrap();
        // The title page and the four chapters.
        assert_eq!(outlines.get(b"Count").unwrap().as_i64().unwrap(), 5);
        let text = doc.extract_text(&[2]).unwrap();
        assert!(text.contains("chapter"), "{text}");
        assert!(text.contains("Paragraph 1 of chapter 1"), "{text}");
    }

    #[test]
    fn wrapped_lines_fit_the_page() {
        let text = winansi::encode(&"word ".repeat(200));
        let lines = wrap(&text, BODY_SIZE, false);
        assert!(lines.len() > 5);
        for line in lines {
            assert!(winansi::width(&line, BODY_SIZE, false) <= PAGE_W - 2.0 * MARGIN_X);
        }
    }
}
