//! pdf: page count, chapters from the outline (else one per ten pages), Info metadata, text.
//! lopdf can panic on hostile input; every call into it runs under `guarded`.

use std::panic::{AssertUnwindSafe, catch_unwind};

use lopdf::{Document, Object, decode_text_string};

use crate::{BookFileError, Chapter, Format, Inspected};

/// Pages per chapter when the pdf has no usable outline.
const PAGES_PER_CHAPTER: u64 = 10;

/// Runs lopdf work, turning a panic inside it into an unreadable-file error.
pub(crate) fn guarded<T>(
    work: impl FnOnce() -> Result<T, BookFileError>,
) -> Result<T, BookFileError> {
    catch_unwind(AssertUnwindSafe(work))
        .unwrap_or_else(|_| Err(BookFileError::unreadable("pdf", "it is malformed")))
}

/// Parses the document; password-protected files are refused.
pub(crate) fn load(data: &[u8]) -> Result<Document, BookFileError> {
    let doc = Document::load_mem(data)
        .map_err(|e| BookFileError::unreadable("pdf", format!("it cannot be parsed ({e})")))?;
    if doc.is_encrypted() && doc.authenticate_password("").is_err() {
        return Err(BookFileError::unreadable("pdf", "it is password-protected"));
    }
    if doc.get_pages().is_empty() {
        return Err(BookFileError::unreadable("pdf", "it has no pages"));
    }
    Ok(doc)
}

pub(crate) fn inspect(data: &[u8]) -> Result<Inspected, BookFileError> {
    guarded(|| {
        let doc = load(data)?;
        let pages = doc.get_pages().len() as u64;
        let chapters = outline_chapters(&doc, pages).unwrap_or_else(|| page_chapters(pages));
        let title = info_string(&doc, b"Title");
        let authors = info_string(&doc, b"Author")
            .map(|a| {
                a.split(';')
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
                    .map(str::to_owned)
                    .collect()
            })
            .unwrap_or_default();
        let language = doc
            .catalog()
            .ok()
            .and_then(|c| c.get(b"Lang").ok())
            .and_then(|l| decode_text_string(l).ok())
            .map(|l| l.trim().to_owned())
            .filter(|l| !l.is_empty());
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

fn info_string(doc: &Document, key: &[u8]) -> Option<String> {
    let info = doc.trailer.get(b"Info").ok()?;
    let (_, info) = doc.dereference(info).ok()?;
    let value = info.as_dict().ok()?.get(key).ok()?;
    let (_, value) = doc.dereference(value).ok()?;
    let text = decode_text_string(value).ok()?;
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    (!text.is_empty()).then_some(text)
}

/// Top-level outline entries in page order, each running to the next one's page. A first
/// entry after page 1 gets the pages before it as an opening chapter.
fn outline_chapters(doc: &Document, pages: u64) -> Option<Vec<Chapter>> {
    let toc = doc.get_toc().ok()?;
    let top = toc.toc.iter().map(|t| t.level).min()?;
    let mut starts: Vec<(u64, String)> = toc
        .toc
        .iter()
        .filter(|t| t.level == top && t.page >= 1 && t.page as u64 <= pages)
        .map(|t| {
            (
                t.page as u64,
                t.title.split_whitespace().collect::<Vec<_>>().join(" "),
            )
        })
        .collect();
    starts.sort_by_key(|(page, _)| *page);
    starts.dedup_by_key(|(page, _)| *page);
    if starts.is_empty() {
        return None;
    }
    if starts[0].0 > 1 {
        let before = starts[0].0 - 1;
        starts.insert(0, (1, page_range_title(1, before)));
    }
    let chapters = starts
        .iter()
        .enumerate()
        .map(|(i, (first, title))| {
            let next = starts.get(i + 1).map_or(pages + 1, |(p, _)| *p);
            Chapter {
                index: u32::try_from(i).unwrap_or(u32::MAX),
                title: if title.is_empty() {
                    format!("Chapter {}", i + 1)
                } else {
                    title.clone()
                },
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

fn page_range_title(first: u64, last: u64) -> String {
    if first == last {
        format!("Page {first}")
    } else {
        format!("Pages {first}-{last}")
    }
}

/// Text page by page until `max_chars`; pages whose text cannot be extracted are skipped.
pub(crate) fn extract_text(data: &[u8], max_chars: usize) -> Result<String, BookFileError> {
    guarded(|| {
        let doc = load(data)?;
        let mut out = String::new();
        let mut count = 0usize;
        for number in doc.get_pages().keys() {
            if count >= max_chars {
                break;
            }
            let Ok(text) = doc.extract_text(&[*number]) else {
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

/// The number of pages, for callers that hold a loaded document.
pub(crate) fn page_count(doc: &Document) -> u64 {
    doc.get_pages().len() as u64
}

/// True when an object is a reference to one of `ids`.
pub(crate) fn is_ref_to(object: &Object, ids: &std::collections::HashSet<lopdf::ObjectId>) -> bool {
    matches!(object, Object::Reference(id) if ids.contains(id))
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
