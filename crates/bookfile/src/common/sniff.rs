//! The byte signs of a format that both the book files and the manuscripts are sniffed by:
//! a pdf header, a zip's local file header, an epub's mimetype entry.

use crate::common::error::BookFileError;
use crate::common::safe_zip::SafeZip;

const EPUB_MIMETYPE: &str = "application/epub+zip";
/// A zip archive's first local file header.
pub(crate) const ZIP_MAGIC: &[u8] = b"PK\x03\x04";

/// True when the zip's `mimetype` entry says it is an epub.
pub(crate) fn has_epub_mimetype(zip: &mut SafeZip<'_>) -> Result<bool, BookFileError> {
    let mimetype = zip.read("mimetype")?;
    Ok(mimetype
        .as_deref()
        .and_then(|m| std::str::from_utf8(m).ok())
        .is_some_and(|m| m.trim() == EPUB_MIMETYPE))
}

/// `%PDF-` in the first KiB, as pdf readers accept (some writers put junk before it).
pub(crate) fn is_pdf(data: &[u8]) -> bool {
    let head = &data[..data.len().min(1024)];
    head.windows(5).any(|w| w == b"%PDF-")
}
