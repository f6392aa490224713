//! The epub trial: the same container with the spine and manifest reduced to the sample's
//! chapters (`trial_rule`: the last one cut when only its opening is in the sample), the nav/NCX entries past
//! the trial removed, and an end-of-sample page as the last spine item. Non-XHTML resources
//! (styles, images, fonts) are kept: they hold no text of the book.

use std::collections::HashSet;
use std::io::{Cursor, Write};

use quick_xml::Writer;
use quick_xml::events::{BytesStart, Event};
use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, ZipWriter};

use crate::book::epub::inspect::read_chapters;

use crate::book::epub::chapter_cut::cut_xhtml;
use crate::book::epub::toc_prune::{NAV_RULE, NCX_RULE, prune_toc};
use crate::book::model::{Chapter, Format};
use crate::book::trial_rule::{clamp_percent, plan};
use crate::common::epub::package::{Package, open_package, resolve};
use crate::common::epub::toc::dir_of;
use crate::common::error::BookFileError;
use crate::common::limits::Limits;
use crate::common::safe_zip::SafeZip;
use crate::common::xml::{attr, lenient_reader};

pub const END_PAGE_TEXT: &str = "This is the end of the free sample. Buy the book to keep reading.";

const END_PAGE: &str = r#"<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml">
<head><title>End of the free sample</title></head>
<body>
<h1>End of the free sample</h1>
<p>This is the end of the free sample. Buy the book to keep reading.</p>
</body>
</html>
"#;

pub(crate) fn trial(
    data: &[u8],
    chapters: &[Chapter],
    percent: u8,
) -> Result<Vec<u8>, BookFileError> {
    if clamp_percent(percent) == 100 {
        return Ok(data.to_vec());
    }
    // The file passed the service's limits at upload; only the unpacking limits matter here.
    let limits = Limits {
        max_file_bytes: u64::MAX,
        ..Limits::default()
    };
    let mut zip = SafeZip::open(data, &limits, "epub")?;
    let package = open_package(&mut zip)?;
    let spine: Vec<(String, String)> = package
        .spine_items()
        .into_iter()
        .map(|i| (i.path.clone(), i.href.clone()))
        .collect();
    let matches_spine = chapters.len() == spine.len()
        && chapters
            .iter()
            .zip(&spine)
            .all(|(c, (_, href))| &c.href == href);
    let read;
    let chapters = if matches_spine {
        chapters
    } else {
        read = read_chapters(&mut zip, &package)?;
        &read[..]
    };
    let plan = plan(Format::Epub, chapters, percent);
    let kept_count = plan.shown().max(1).min(spine.len());
    let kept: HashSet<&str> = spine[..kept_count]
        .iter()
        .map(|(p, _)| p.as_str())
        .collect();
    let nav_path = package.nav().map(|n| n.path.clone());
    let ncx_path = package.ncx().map(|n| n.path.clone());
    let mut removed: HashSet<String> = HashSet::new();
    for item in &package.manifest {
        if item.is_xhtml()
            && !kept.contains(item.path.as_str())
            && Some(&item.path) != nav_path.as_ref()
        {
            removed.insert(item.path.clone());
        }
    }
    for (path, _) in &spine[kept_count..] {
        if !kept.contains(path.as_str()) && Some(path) != nav_path.as_ref() {
            removed.insert(path.clone());
        }
    }
    let removed_ids: HashSet<String> = package
        .manifest
        .iter()
        .filter(|i| removed.contains(&i.path))
        .map(|i| i.id.clone())
        .collect();

    let (end_id, end_href) = end_page_names(&package, &zip);
    let end_path = format!("{}{end_href}", package.opf_dir);
    let opf = zip.read_required(&package.opf_path)?;
    let new_opf = rewrite_opf(
        &opf,
        &package.opf_dir,
        &removed,
        &removed_ids,
        &end_id,
        &end_href,
    )?;

    let mut replaced: Vec<(String, Vec<u8>)> = vec![(package.opf_path.clone(), new_opf)];
    if let Some(path) = &nav_path
        && let Some(bytes) = zip.read(path)?
        && let Some(pruned) = prune_toc(&bytes, dir_of(path), &removed, &NAV_RULE)
    {
        replaced.push((path.clone(), pruned));
    }
    if let Some(path) = &ncx_path
        && let Some(bytes) = zip.read(path)?
        && let Some(pruned) = prune_toc(&bytes, dir_of(path), &removed, &NCX_RULE)
    {
        replaced.push((path.clone(), pruned));
    }
    if let Some(budget) = plan.opening
        && let Some((path, _)) = spine.get(plan.whole)
    {
        let bytes = zip.read_required(path)?;
        replaced.push((path.clone(), cut_xhtml(&bytes, budget)));
    }
    write_container(&mut zip, &removed, &replaced, &end_path)
}

/// An id and a file name for the end page that the book does not use already.
fn end_page_names(package: &Package, zip: &SafeZip<'_>) -> (String, String) {
    let mut n = 0u32;
    loop {
        let suffix = if n == 0 {
            String::new()
        } else {
            format!("-{n}")
        };
        let id = format!("quire-trial-end{suffix}");
        let href = format!("quire-trial-end{suffix}.xhtml");
        let path = format!("{}{href}", package.opf_dir);
        if package.item(&id).is_none() && !zip.contains(&path) {
            return (id, href);
        }
        n += 1;
    }
}

/// The OPF without the removed items, itemrefs and guide references, and with the end page
/// added to the manifest and as the last spine item.
fn rewrite_opf(
    opf: &[u8],
    opf_dir: &str,
    removed: &HashSet<String>,
    removed_ids: &HashSet<String>,
    end_id: &str,
    end_href: &str,
) -> Result<Vec<u8>, BookFileError> {
    let broken =
        || BookFileError::unreadable("epub", "the package document (OPF) is not well-formed");
    let mut reader = lenient_reader(opf);
    let mut writer = Writer::new(Vec::with_capacity(opf.len() + 256));
    // Depth of a removed element being skipped (0 when not skipping).
    let mut skipping = 0usize;
    loop {
        let event = reader.read_event().map_err(|_| broken())?;
        if skipping > 0 {
            match event {
                Event::Start(_) => skipping += 1,
                Event::End(_) => skipping -= 1,
                Event::Eof => break,
                _ => {}
            }
            continue;
        }
        match &event {
            Event::Start(e) if drops(e, opf_dir, removed, removed_ids) => {
                skipping = 1;
                continue;
            }
            Event::Empty(e) if drops(e, opf_dir, removed, removed_ids) => continue,
            Event::End(e) => {
                let name = e.name();
                let prefix = prefix_of(name.as_ref());
                match e.local_name().as_ref() {
                    b"manifest" => {
                        let mut item = BytesStart::new(format!("{prefix}item"));
                        item.push_attribute(("id", end_id));
                        item.push_attribute(("href", end_href));
                        item.push_attribute(("media-type", "application/xhtml+xml"));
                        writer
                            .write_event(Event::Empty(item))
                            .map_err(|_| broken())?;
                    }
                    b"spine" => {
                        let mut itemref = BytesStart::new(format!("{prefix}itemref"));
                        itemref.push_attribute(("idref", end_id));
                        writer
                            .write_event(Event::Empty(itemref))
                            .map_err(|_| broken())?;
                    }
                    _ => {}
                }
            }
            Event::Eof => break,
            _ => {}
        }
        writer.write_event(event).map_err(|_| broken())?;
    }
    Ok(writer.into_inner())
}

fn prefix_of(qname: &[u8]) -> String {
    match qname.iter().position(|&b| b == b':') {
        Some(i) => format!("{}:", String::from_utf8_lossy(&qname[..i])),
        None => String::new(),
    }
}

fn drops(
    e: &BytesStart<'_>,
    opf_dir: &str,
    removed: &HashSet<String>,
    removed_ids: &HashSet<String>,
) -> bool {
    match e.local_name().as_ref() {
        b"item" => attr(e, b"id").is_some_and(|id| removed_ids.contains(&id)),
        b"itemref" => attr(e, b"idref").is_some_and(|id| removed_ids.contains(&id)),
        b"reference" => attr(e, b"href")
            .and_then(|h| resolve(opf_dir, &h))
            .is_some_and(|p| removed.contains(&p)),
        _ => false,
    }
}

/// Writes the new container: `mimetype` first and stored (as OCF requires), then every kept
/// entry in its original order (copied without inflating, or replaced), then the end page.
fn write_container(
    zip: &mut SafeZip<'_>,
    removed: &HashSet<String>,
    replaced: &[(String, Vec<u8>)],
    end_path: &str,
) -> Result<Vec<u8>, BookFileError> {
    let failed = |e: &dyn std::fmt::Display| {
        BookFileError::unreadable("epub", format!("its trial cannot be written ({e})"))
    };
    let stored = SimpleFileOptions::default().compression_method(CompressionMethod::Stored);
    let deflated = SimpleFileOptions::default().compression_method(CompressionMethod::Deflated);
    let mut out = ZipWriter::new(Cursor::new(Vec::new()));
    out.start_file("mimetype", stored).map_err(|e| failed(&e))?;
    out.write_all(b"application/epub+zip")
        .map_err(|e| failed(&e))?;
    for (index, name) in zip.names_in_order().into_iter().enumerate() {
        if name == "mimetype" || removed.contains(&name) || name == end_path {
            continue;
        }
        if let Some((_, bytes)) = replaced.iter().find(|(p, _)| *p == name) {
            out.start_file(name.as_str(), deflated)
                .map_err(|e| failed(&e))?;
            out.write_all(bytes).map_err(|e| failed(&e))?;
            continue;
        }
        let entry = zip
            .archive_mut()
            .by_index_raw(index)
            .map_err(|e| failed(&e))?;
        out.raw_copy_file(entry).map_err(|e| failed(&e))?;
    }
    out.start_file(end_path, deflated).map_err(|e| failed(&e))?;
    out.write_all(END_PAGE.as_bytes()).map_err(|e| failed(&e))?;
    let cursor = out.finish().map_err(|e| failed(&e))?;
    Ok(cursor.into_inner())
}
