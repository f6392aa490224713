//! A book's pdf: page count, chapters from the outline (else one per ten pages), Info
//! metadata, and plain text.

use lopdf::Document;

use crate::book::model::{Chapter, Format, Inspected};
use crate::common::error::BookFileError;
use crate::common::pdf::load::{guarded, load};
use crate::common::pdf::metadata::{Metadata, metadata};
use crate::common::pdf::outline::{outline_starts, page_range_title};
use crate::common::pdf::page::PageBounds;

/// Pages per chapter when the pdf has no usable outline.
const PAGES_PER_CHAPTER: u64 = 10;

pub(crate) fn inspect(data: &[u8]) -> Result<Inspected, BookFileError> {
    guarded(|| {
        let doc = load(data)?;
        let pages = doc.get_pages().len() as u64;
        let chapters = chapters_of(&doc, pages);
        let Metadata {
            title,
            authors,
            language,
        } = metadata(&doc);
        Ok(Inspected {
            format: Format::Pdf,
            title,
            authors,
            language,
            chapters,
            total_weight: pages,
        })
    })
}

/// The chapters: from the outline, else every ten pages.
pub(crate) fn chapters_of(doc: &Document, pages: u64) -> Vec<Chapter> {
    outline_chapters(doc, pages).unwrap_or_else(|| page_chapters(pages))
}

/// Top-level outline entries in page order, each running to the next one's page. A first
/// entry after page 1 gets the pages before it as an opening chapter.
fn outline_chapters(doc: &Document, pages: u64) -> Option<Vec<Chapter>> {
    let starts = outline_starts(doc, pages)?;
    let chapters = starts
        .iter()
        .enumerate()
        .map(|(i, (first, title))| {
            let next = starts.get(i + 1).map_or(pages + 1, |(p, _)| *p);
            Chapter {
                index: u32::try_from(i).unwrap_or(u32::MAX),
                title: title
                    .clone()
                    .unwrap_or_else(|| format!("Chapter {}", i + 1)),
                href: format!("page={first}"),
                weight: next - first,
            }
        })
        .collect();
    Some(chapters)
}

fn page_chapters(pages: u64) -> Vec<Chapter> {
    (0..pages.div_ceil(PAGES_PER_CHAPTER))
        .map(|i| {
            let first = i * PAGES_PER_CHAPTER + 1;
            let last = (first + PAGES_PER_CHAPTER - 1).min(pages);
            Chapter {
                index: u32::try_from(i).unwrap_or(u32::MAX),
                title: page_range_title(first, last),
                href: format!("page={first}"),
                weight: last - first + 1,
            }
        })
        .collect()
}

/// Text page by page until `max_chars`; pages whose text cannot be extracted are skipped,
/// and so are pages that would make lopdf decode more than `page::MAX_PAGE_CONTENT`.
pub(crate) fn extract_text(data: &[u8], max_chars: usize) -> Result<String, BookFileError> {
    guarded(|| {
        let doc = load(data)?;
        let mut out = String::new();
        let mut count = 0usize;
        let mut bounds = PageBounds::default();
        for (number, page_id) in doc.get_pages() {
            if count >= max_chars {
                break;
            }
            if !bounds.page_fits(&doc, page_id) {
                continue;
            }
            let Ok(text) = doc.extract_text(&[number]) else {
                continue;
            };
            let text = text.trim();
            if text.is_empty() {
                continue;
            }
            if !out.is_empty() && count < max_chars {
                out.push('\n');
                count += 1;
            }
            for c in text.chars().take(max_chars - count) {
                out.push(c);
                count += 1;
            }
        }
        Ok(out)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_chapters_cover_every_page() {
        let c = page_chapters(23);
        assert_eq!(c.len(), 3);
        assert_eq!(c[0].title, "Pages 1-10");
        assert_eq!(c[2].title, "Pages 21-23");
        assert_eq!(c[2].href, "page=21");
        assert_eq!(c.iter().map(|c| c.weight).sum::<u64>(), 23);
        assert_eq!(page_chapters(1)[0].title, "Page 1");
    }
}
