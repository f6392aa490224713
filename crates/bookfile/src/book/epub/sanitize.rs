//! An uploaded epub without scripts: every document a reader could render (XHTML, HTML,
//! SVG, other XML) goes through markup_clean, and the container is written again from what
//! was read, with the same entries in the same order. The reader's sandbox is one defence;
//! this is the other, for the buyer who opens the downloaded file in a reader that runs
//! scripts.

use std::collections::HashMap;
use std::io::{Cursor, Write};

use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, DateTime, ZipWriter};

use crate::book::epub::markup_clean::clean;
use crate::common::epub::package::open_package;
use crate::common::error::BookFileError;
use crate::common::limits::Limits;
use crate::common::safe_zip::SafeZip;

const MIMETYPE: &str = "mimetype";
const MIMETYPE_CONTENT: &[u8] = b"application/epub+zip";

/// File name endings of documents a reader may render (case-insensitive).
const MARKUP_EXTENSIONS: &[&str] = &[
    "xhtml", "xht", "html", "htm", "shtml", "svg", "xml", "ncx", "smil", "mml",
];

/// The epub with every script removed, or None when the result is the upload byte for byte.
pub(crate) fn sanitize(data: &[u8], limits: &Limits) -> Result<Option<Vec<u8>>, BookFileError> {
    let mut zip = SafeZip::open(data, limits, "epub")?;
    let package = open_package(&mut zip)?;
    let media_types: HashMap<&str, &str> = package
        .manifest
        .iter()
        .map(|i| (i.path.as_str(), i.media_type.as_str()))
        .collect();
    let mut replaced: HashMap<String, Vec<u8>> = HashMap::new();
    for name in zip.names_in_order() {
        if name == package.opf_path
            || name.starts_with("META-INF/")
            || !is_markup(&name, media_types.get(name.as_str()).copied())
        {
            continue;
        }
        let Some(doc) = zip.read(&name)? else {
            continue;
        };
        if is_utf16(&doc) {
            return Err(BookFileError::unreadable(
                "epub",
                format!(
                    "{} is UTF-16 text; save the book as UTF-8",
                    name.escape_debug()
                ),
            ));
        }
        if let Some(cleaned) = clean(&doc) {
            replaced.insert(name, cleaned);
        }
    }
    // Written again even when no document changed: what is stored is then only what the
    // zip crate read (a second entry of the same name, bytes outside the central directory
    // or a lying local header could show another reader a chapter no one checked).
    let written = write_container(&mut zip, &replaced)?;
    Ok((written != data).then_some(written))
}

fn is_markup(name: &str, media_type: Option<&str>) -> bool {
    let by_name = name.rsplit_once('.').is_some_and(|(_, ext)| {
        MARKUP_EXTENSIONS
            .iter()
            .any(|e| e.eq_ignore_ascii_case(ext))
    });
    let by_type = media_type.is_some_and(|m| {
        let m = m.to_ascii_lowercase();
        m.contains("html") || m.contains("svg") || m.contains("xml")
    });
    by_name || by_type
}

/// UTF-16 text (a byte order mark, or a NUL next to the first `<`): the cleaner reads
/// ASCII-compatible text only, and would not see its tags.
fn is_utf16(doc: &[u8]) -> bool {
    doc.starts_with(&[0xFE, 0xFF])
        || doc.starts_with(&[0xFF, 0xFE])
        || doc.starts_with(b"<\0")
        || doc.starts_with(b"\0<")
}

/// The same entries in the same order: `mimetype` first and stored (as OCF requires), the
/// cleaned documents deflated under their old dates (the same upload gives the same bytes,
/// so a second upload of it is still found a duplicate), the rest copied as they were.
fn write_container(
    zip: &mut SafeZip<'_>,
    replaced: &HashMap<String, Vec<u8>>,
) -> Result<Vec<u8>, BookFileError> {
    let failed = |e: &dyn std::fmt::Display| {
        BookFileError::unreadable("epub", format!("it cannot be written again ({e})"))
    };
    let stored = SimpleFileOptions::default()
        .compression_method(CompressionMethod::Stored)
        .last_modified_time(DateTime::default());
    let mut out = ZipWriter::new(Cursor::new(Vec::new()));
    out.start_file(MIMETYPE, stored).map_err(|e| failed(&e))?;
    out.write_all(MIMETYPE_CONTENT).map_err(|e| failed(&e))?;
    for (index, name) in zip.names_in_order().into_iter().enumerate() {
        if name == MIMETYPE {
            continue;
        }
        let entry = zip
            .archive_mut()
            .by_index_raw(index)
            .map_err(|e| failed(&e))?;
        match replaced.get(&name) {
            Some(bytes) => {
                let options = SimpleFileOptions::default()
                    .compression_method(CompressionMethod::Deflated)
                    .last_modified_time(entry.last_modified().unwrap_or_default());
                drop(entry);
                out.start_file(name.as_str(), options)
                    .map_err(|e| failed(&e))?;
                out.write_all(bytes).map_err(|e| failed(&e))?;
            }
            None => out.raw_copy_file(entry).map_err(|e| failed(&e))?,
        }
    }
    let cursor = out.finish().map_err(|e| failed(&e))?;
    Ok(cursor.into_inner())
}
