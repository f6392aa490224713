//! What reading a page's text makes lopdf 0.38 decode, bounded. lopdf's page content joins
//! the page's content streams (a page listing one stream a thousand times gets it a
//! thousand times), its content parser makes an object of 120 bytes or more of every
//! operand (sixty times the bytes of `0 0 0 ...`), and every font's ToUnicode map is
//! decoded and parsed again for every page that uses the font. So what a page needs is
//! measured first, each stream decoded once into a counting sink, and a page or a font
//! map past `MAX_PAGE_CONTENT` is not read (a page of text is a few KB; past this size
//! it is a drawing).

use std::collections::HashMap;

use lopdf::{Dictionary, Document, Object, ObjectId};

use crate::common::pdf::chain::{self, Ask};

/// Decoded bytes a page's content streams, or one font map, may hold.
pub(crate) const MAX_PAGE_CONTENT: u64 = 4 << 20;

/// The decoded size of every stream measured so far, for one document.
#[derive(Debug, Default)]
pub(crate) struct PageBounds {
    sizes: HashMap<ObjectId, u64>,
}

impl PageBounds {
    /// True when the page's content streams together decode within `MAX_PAGE_CONTENT`.
    pub(crate) fn content_fits(&mut self, doc: &Document, page: ObjectId) -> bool {
        let mut total = 0u64;
        for id in doc.get_page_contents(page) {
            total = total.saturating_add(self.size(doc, id));
            if total > MAX_PAGE_CONTENT {
                return false;
            }
        }
        true
    }

    /// The page's content as lopdf gives it, None past `MAX_PAGE_CONTENT`.
    pub(crate) fn content(&mut self, doc: &Document, page: ObjectId) -> Option<Vec<u8>> {
        self.content_fits(doc, page)
            .then(|| doc.get_page_content(page).ok())
            .flatten()
    }

    /// True when the font's ToUnicode map, if it has one, decodes within `MAX_PAGE_CONTENT`.
    pub(crate) fn font_fits(&mut self, doc: &Document, font: &Dictionary) -> bool {
        let Ok(map) = font.get(b"ToUnicode") else {
            return true;
        };
        match doc.dereference(map) {
            Ok((Some(id), Object::Stream(_))) => self.size(doc, id) <= MAX_PAGE_CONTENT,
            _ => true,
        }
    }

    /// True when everything lopdf's own text extraction of the page decodes fits: its
    /// content, and the maps of the fonts its resources name.
    pub(crate) fn page_fits(&mut self, doc: &Document, page: ObjectId) -> bool {
        let fonts = doc.get_page_fonts(page).unwrap_or_default();
        self.content_fits(doc, page) && fonts.values().all(|f| self.font_fits(doc, f))
    }

    fn size(&mut self, doc: &Document, id: ObjectId) -> u64 {
        *self.sizes.entry(id).or_insert_with(|| measure(doc, id))
    }
}

/// A stream's decoded size (at most its largest level of compression, or its raw bytes),
/// u64::MAX past `MAX_PAGE_CONTENT`; 0 for what is not a stream.
fn measure(doc: &Document, id: ObjectId) -> u64 {
    let Ok(stream) = doc.get_object(id).and_then(Object::as_stream) else {
        return 0;
    };
    match chain::decode(&stream.content, MAX_PAGE_CONTENT, Ask::default()) {
        Ok(chain) => chain
            .levels
            .iter()
            .map(|l| l.bytes)
            .fold(stream.content.len() as u64, u64::max),
        Err(_) => u64::MAX,
    }
}
