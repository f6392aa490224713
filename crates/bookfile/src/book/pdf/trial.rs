//! The pdf trial: a new pdf of the sample's pages (`trial_rule`). The page tree is rebuilt flat with only the
//! kept pages, every reference to a dropped page becomes null (so links cannot keep a
//! dropped page's content alive), document-wide parts that may reach the rest of the book
//! (outline, names and attachments, structure tree, forms) are removed, and whatever is no
//! longer reachable is pruned. A one-page book gets a one-page notice instead.

use std::collections::{HashSet, VecDeque};

use lopdf::content::{Content, Operation};
use lopdf::{Dictionary, Document, Object, ObjectId, Stream, dictionary};

use crate::book::model::{Chapter, Format};
use crate::book::pdf::inspect::chapters_of;
use crate::book::trial_rule::{clamp_percent, plan};
use crate::common::error::BookFileError;
use crate::common::pdf::load::{guarded, load};

/// Page attributes a page may inherit from its ancestors in the page tree.
const INHERITABLE: &[&[u8]] = &[b"Resources", b"MediaBox", b"CropBox", b"Rotate"];
/// Catalog entries that can lead to pages or text past the trial.
const CATALOG_DROPS: &[&[u8]] = &[
    b"Outlines",
    b"Names",
    b"Dests",
    b"StructTreeRoot",
    b"AcroForm",
    b"OpenAction",
    b"Threads",
    b"AA",
    b"PieceInfo",
    b"SpiderInfo",
    b"Collection",
];
/// Guards against cyclic Parent chains and page trees.
const MAX_TREE_DEPTH: usize = 64;

pub(crate) fn trial(
    data: &[u8],
    chapters: &[Chapter],
    percent: u8,
) -> Result<Vec<u8>, BookFileError> {
    if clamp_percent(percent) == 100 {
        return Ok(data.to_vec());
    }
    guarded(|| {
        let mut doc = load(data)?;
        let pages = page_count(&doc);
        let read;
        let chapters = if describe(chapters, pages) {
            chapters
        } else {
            read = chapters_of(&doc, pages);
            &read[..]
        };
        let keep = sample_pages(chapters, percent).min(pages.saturating_sub(1));
        if keep == 0 {
            return notice_pdf();
        }
        keep_first_pages(&mut doc, usize::try_from(keep).unwrap_or(usize::MAX))?;
        save(&mut doc)
    })
}

/// True when `chapters` run page after page from page 1 to the last (as `inspect` made
/// them for this file).
fn describe(chapters: &[Chapter], pages: u64) -> bool {
    let mut next = 1u64;
    for c in chapters {
        if c.href != format!("page={next}") || c.weight == 0 {
            return false;
        }
        next += c.weight;
    }
    !chapters.is_empty() && next == pages + 1
}

/// The pages the sample holds: the chapters it shows whole, then the opening pages of the
/// one it cuts.
fn sample_pages(chapters: &[Chapter], percent: u8) -> u64 {
    let plan = plan(Format::Pdf, chapters, percent);
    let whole: u64 = chapters[..plan.whole].iter().map(|c| c.weight).sum();
    whole + plan.opening.unwrap_or(0)
}

fn broken(why: &str) -> BookFileError {
    BookFileError::unreadable("pdf", why)
}

fn keep_first_pages(doc: &mut Document, keep: usize) -> Result<(), BookFileError> {
    let all_pages: Vec<ObjectId> = doc.get_pages().values().copied().collect();
    let kept: Vec<ObjectId> = all_pages.iter().take(keep).copied().collect();
    let root = doc
        .catalog()
        .and_then(|c| c.get(b"Pages"))
        .and_then(Object::as_reference)
        .map_err(|_| broken("its page tree is missing"))?;

    // Pages inherit attributes from the nodes above them; those nodes are about to go.
    for page in &kept {
        for key in INHERITABLE {
            if doc.get_dictionary(*page).is_ok_and(|d| d.has(key)) {
                continue;
            }
            if let Some(value) = inherited(doc, *page, key)
                && let Ok(d) = doc.get_dictionary_mut(*page)
            {
                d.set(key.to_vec(), value);
            }
        }
        if let Ok(d) = doc.get_dictionary_mut(*page) {
            d.set("Parent", root);
        }
    }

    let mut dropped: HashSet<ObjectId> = all_pages.iter().skip(keep).copied().collect();
    dropped.extend(tree_nodes(doc, root).into_iter().filter(|id| *id != root));
    let mut flat = Dictionary::new();
    flat.set("Type", "Pages");
    flat.set(
        "Kids",
        kept.iter()
            .map(|id| Object::Reference(*id))
            .collect::<Vec<_>>(),
    );
    flat.set("Count", i64::try_from(kept.len()).unwrap_or(i64::MAX));
    doc.objects.insert(root, Object::Dictionary(flat));

    if let Ok(catalog) = doc.catalog_mut() {
        for key in CATALOG_DROPS {
            catalog.remove(key);
        }
    }
    // Objects were decrypted on load and are written plain.
    if let Ok(Object::Reference(id)) = doc.trailer.get(b"Encrypt") {
        dropped.insert(*id);
    }
    doc.trailer.remove(b"Encrypt");

    null_references(doc, &dropped);
    for id in &dropped {
        doc.objects.remove(id);
    }
    prune_unreachable(doc);
    Ok(())
}

/// The value of `key` from the nearest ancestor that has it.
fn inherited(doc: &Document, page: ObjectId, key: &[u8]) -> Option<Object> {
    let mut node = doc.get_dictionary(page).ok()?;
    for _ in 0..MAX_TREE_DEPTH {
        let parent = node.get(b"Parent").and_then(Object::as_reference).ok()?;
        node = doc.get_dictionary(parent).ok()?;
        if let Ok(value) = node.get(key) {
            return Some(value.clone());
        }
    }
    None
}

/// Every intermediate (Pages) node under `root`, root included.
fn tree_nodes(doc: &Document, root: ObjectId) -> Vec<ObjectId> {
    let mut nodes = Vec::new();
    let mut queue = VecDeque::from([(root, 0usize)]);
    let mut seen = HashSet::new();
    while let Some((id, depth)) = queue.pop_front() {
        if depth > MAX_TREE_DEPTH || !seen.insert(id) {
            continue;
        }
        let Ok(node) = doc.get_dictionary(id) else {
            continue;
        };
        if node.get_type().ok() != Some(b"Pages".as_slice()) {
            continue;
        }
        nodes.push(id);
        if let Ok(kids) = node.get(b"Kids").and_then(Object::as_array) {
            for kid in kids {
                if let Ok(kid) = kid.as_reference() {
                    queue.push_back((kid, depth + 1));
                }
            }
        }
    }
    nodes
}

fn null_references(doc: &mut Document, ids: &HashSet<ObjectId>) {
    fn walk(object: &mut Object, ids: &HashSet<ObjectId>) {
        if is_ref_to(object, ids) {
            *object = Object::Null;
            return;
        }
        match object {
            Object::Array(items) => items.iter_mut().for_each(|o| walk(o, ids)),
            Object::Dictionary(d) => d.iter_mut().for_each(|(_, o)| walk(o, ids)),
            Object::Stream(s) => s.dict.iter_mut().for_each(|(_, o)| walk(o, ids)),
            _ => {}
        }
    }
    for object in doc.objects.values_mut() {
        walk(object, ids);
    }
    doc.trailer.iter_mut().for_each(|(_, o)| walk(o, ids));
}

/// Removes every object the trailer cannot reach (a breadth-first walk, linear in size).
fn prune_unreachable(doc: &mut Document) {
    fn refs(object: &Object, out: &mut Vec<ObjectId>) {
        match object {
            Object::Reference(id) => out.push(*id),
            Object::Array(items) => items.iter().for_each(|o| refs(o, out)),
            Object::Dictionary(d) => d.iter().for_each(|(_, o)| refs(o, out)),
            Object::Stream(s) => s.dict.iter().for_each(|(_, o)| refs(o, out)),
            _ => {}
        }
    }
    let mut reachable = HashSet::new();
    let mut pending = Vec::new();
    doc.trailer.iter().for_each(|(_, o)| refs(o, &mut pending));
    while let Some(id) = pending.pop() {
        if reachable.insert(id)
            && let Some(object) = doc.objects.get(&id)
        {
            refs(object, &mut pending);
        }
    }
    doc.objects.retain(|id, _| reachable.contains(id));
}

fn save(doc: &mut Document) -> Result<Vec<u8>, BookFileError> {
    let mut out = Vec::new();
    doc.save_to(&mut out).map_err(|e| {
        BookFileError::unreadable("pdf", format!("its trial cannot be written ({e})"))
    })?;
    Ok(out)
}

/// A one-page pdf saying the sample of a one-page book is this notice.
pub(crate) fn notice_pdf() -> Result<Vec<u8>, BookFileError> {
    let mut doc = Document::with_version("1.5");
    let pages_id = doc.new_object_id();
    let font_id = doc.add_object(dictionary! {
        "Type" => "Font", "Subtype" => "Type1", "BaseFont" => "Helvetica",
    });
    let resources_id = doc.add_object(dictionary! { "Font" => dictionary! { "F1" => font_id } });
    let lines = [
        (20, "Free sample"),
        (
            12,
            "This book has a single page, so its free sample shows none of it.",
        ),
        (
            12,
            "This is the end of the free sample. Buy the book to keep reading.",
        ),
    ];
    let mut operations = vec![
        Operation::new("BT", vec![]),
        Operation::new("Td", vec![72.into(), 740.into()]),
    ];
    for (size, text) in lines {
        operations.push(Operation::new("Tf", vec!["F1".into(), size.into()]));
        operations.push(Operation::new("Tj", vec![Object::string_literal(text)]));
        operations.push(Operation::new("Td", vec![0.into(), (-28).into()]));
    }
    operations.push(Operation::new("ET", vec![]));
    let content = Content { operations }.encode().map_err(|e| {
        BookFileError::unreadable("pdf", format!("its trial cannot be written ({e})"))
    })?;
    let content_id = doc.add_object(Stream::new(dictionary! {}, content));
    let page_id = doc.add_object(dictionary! {
        "Type" => "Page", "Parent" => pages_id, "Contents" => content_id,
    });
    doc.objects.insert(
        pages_id,
        Object::Dictionary(dictionary! {
            "Type" => "Pages",
            "Kids" => vec![page_id.into()],
            "Count" => 1,
            "Resources" => resources_id,
            "MediaBox" => vec![0.into(), 0.into(), 595.into(), 842.into()],
        }),
    );
    let catalog_id = doc.add_object(dictionary! { "Type" => "Catalog", "Pages" => pages_id });
    doc.trailer.set("Root", catalog_id);
    save(&mut doc)
}

/// The number of pages, for callers that hold a loaded document.
fn page_count(doc: &Document) -> u64 {
    doc.get_pages().len() as u64
}

/// True when an object is a reference to one of `ids`.
fn is_ref_to(object: &Object, ids: &HashSet<ObjectId>) -> bool {
    matches!(object, Object::Reference(id) if ids.contains(id))
}
