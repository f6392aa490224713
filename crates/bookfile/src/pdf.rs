//! pdf: page count, chapters from the outline (else one per ten pages), Info metadata, text.
//! lopdf can panic on hostile input; every call into it runs under `guarded`.

use std::collections::HashSet;

use lopdf::{Document, Object, decode_text_string};

use crate::{BookFileError, Chapter, Format, Inspected};

/// Why a pdf that needs a password is refused.
pub(crate) const ENCRYPTED: &str = "The pdf is encrypted (it needs a password to open): save \
     it again without a password or encryption and upload that file";
/// Outline and named-destination nodes walked at most, and how deep they may nest.
const MAX_OUTLINE_NODES: usize = 10_000;
const MAX_OUTLINE_DEPTH: usize = 64;
/// Pages per chapter when the pdf has no usable outline.
const PAGES_PER_CHAPTER: u64 = 10;

/// The stack of the thread lopdf runs on: its parser and several of its walks recurse once
/// per nesting level, and `pdf_scan` lets files through up to `MAX_NESTING` levels (a few
/// kilobytes of stack each; unoptimised builds use many times more). Only the pages used
/// are taken from the system.
const LOPDF_STACK: usize = if cfg!(debug_assertions) { 512 } else { 64 } << 20;

/// Runs lopdf work on a thread with a stack deep enough for what `pdf_guard` lets through,
/// turning a panic inside it into an unreadable-file error.
pub(crate) fn guarded<T: Send>(
    work: impl FnOnce() -> Result<T, BookFileError> + Send,
) -> Result<T, BookFileError> {
    let malformed = || BookFileError::unreadable("pdf", "it is malformed");
    std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name("lopdf".to_owned())
            .stack_size(LOPDF_STACK)
            .spawn_scoped(scope, work)
            .map_err(|e| BookFileError::unreadable("pdf", format!("it cannot be read now ({e})")))?
            .join()
            .unwrap_or_else(|_| Err(malformed()))
    })
}

/// Parses the document; password-protected files are refused.
pub(crate) fn load(data: &[u8]) -> Result<Document, BookFileError> {
    let doc = Document::load_mem(data)
        .map_err(|e| BookFileError::unreadable("pdf", format!("it cannot be parsed ({e})")))?;
    if doc.is_encrypted() && doc.authenticate_password("").is_err() {
        return Err(BookFileError::Unreadable(ENCRYPTED.to_owned()));
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

/// What the Info dictionary and the catalog say about the document.
pub(crate) struct Metadata {
    pub(crate) title: Option<String>,
    pub(crate) authors: Vec<String>,
    pub(crate) language: Option<String>,
}

pub(crate) fn metadata(doc: &Document) -> Metadata {
    let authors = info_string(doc, b"Author")
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
    Metadata {
        title: info_string(doc, b"Title"),
        authors,
        language,
    }
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

/// The first pages (1-based, ascending) and titles of the top-level outline entries; the
/// pages before the first entry, if any, as "Pages 1-N". None without a usable outline.
pub(crate) fn outline_starts(doc: &Document, pages: u64) -> Option<Vec<(u64, Option<String>)>> {
    if !outline_is_a_tree(doc) {
        return None;
    }
    let toc = doc.get_toc().ok()?;
    let top = toc.toc.iter().map(|t| t.level).min()?;
    let mut starts: Vec<(u64, Option<String>)> = toc
        .toc
        .iter()
        .filter(|t| t.level == top && t.page >= 1 && t.page as u64 <= pages)
        .map(|t| {
            let title = t.title.split_whitespace().collect::<Vec<_>>().join(" ");
            (t.page as u64, (!title.is_empty()).then_some(title))
        })
        .collect();
    starts.sort_by_key(|(page, _)| *page);
    starts.dedup_by_key(|(page, _)| *page);
    let first = starts.first()?.0;
    if first > 1 {
        starts.insert(0, (1, Some(page_range_title(1, first - 1))));
    }
    Some(starts)
}

/// True when the outline (`First`/`Next` links) and the named destinations (`Kids` links)
/// are trees of bounded size and depth: lopdf walks them recursively and would loop
/// forever, or overflow its stack, on a cycle or a very deep chain.
fn outline_is_a_tree(doc: &Document) -> bool {
    let Ok(catalog) = doc.catalog() else {
        return false;
    };
    let names_dests = catalog
        .get_deref(b"Names", doc)
        .and_then(Object::as_dict)
        .and_then(|n| n.get(b"Dests"));
    let roots = [
        catalog.get(b"Outlines").ok(),
        catalog.get(b"Dests").ok(),
        names_dests.ok(),
    ];
    let mut stack: Vec<(&Object, usize)> = roots.into_iter().flatten().map(|o| (o, 0)).collect();
    let mut seen = HashSet::new();
    let mut budget = MAX_OUTLINE_NODES;
    while let Some((object, depth)) = stack.pop() {
        if budget == 0 || depth > MAX_OUTLINE_DEPTH {
            return false;
        }
        budget -= 1;
        let object = match object {
            Object::Reference(id) => {
                if !seen.insert(*id) {
                    return false;
                }
                match doc.get_object(*id) {
                    Ok(o) => o,
                    Err(_) => continue,
                }
            }
            other => other,
        };
        match object {
            Object::Dictionary(d) => {
                for (link, deeper) in [(&b"First"[..], 1), (b"Next", 0), (b"Kids", 1)] {
                    if let Ok(next) = d.get(link) {
                        stack.push((next, depth + deeper));
                    }
                }
            }
            Object::Array(items) => stack.extend(items.iter().map(|i| (i, depth))),
            _ => {}
        }
    }
    true
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
