//! A pdf's outline: the first pages and titles of its top-level entries, read only once the
//! outline and the named destinations are known to be bounded trees (lopdf walks them
//! recursively).

use std::collections::HashSet;

use lopdf::{Document, Object};

/// Outline and named-destination nodes walked at most, and how deep they may nest.
const MAX_OUTLINE_NODES: usize = 10_000;
const MAX_OUTLINE_DEPTH: usize = 64;

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

pub(crate) fn page_range_title(first: u64, last: u64) -> String {
    if first == last {
        format!("Page {first}")
    } else {
        format!("Pages {first}-{last}")
    }
}
