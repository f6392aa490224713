//! What a book file really is (epub, pdf or txt), decided by its bytes; the name's
//! extension must only agree.

use crate::book::model::Format;
use crate::common::error::BookFileError;
use crate::common::limits::{Limits, check_file_size};
use crate::common::safe_zip::SafeZip;
use crate::common::sniff::{ZIP_MAGIC, has_epub_mimetype, is_pdf};

const UTF8_BOM: &[u8] = b"\xEF\xBB\xBF";

/// The format the content proves, checked against the extension of `file_name`.
pub(crate) fn sniff(
    file_name: &str,
    data: &[u8],
    limits: &Limits,
) -> Result<Format, BookFileError> {
    check_file_size(data, limits)?;
    let claimed = claimed_format(file_name)?;
    if data.is_empty() {
        return Err(BookFileError::unreadable(
            claimed.as_str(),
            "the file is empty",
        ));
    }
    let content = content_format(data, limits, claimed)?;
    if content != claimed {
        return Err(BookFileError::Unsupported(format!(
            "The file name says .{} but the content is {} {}",
            claimed.extension(),
            article(content),
            content.as_str()
        )));
    }
    Ok(content)
}

fn article(format: Format) -> &'static str {
    match format {
        Format::Epub => "an",
        Format::Pdf | Format::Txt => "a",
    }
}

/// The format the extension claims.
fn claimed_format(file_name: &str) -> Result<Format, BookFileError> {
    let base = file_name.rsplit(['/', '\\']).next().unwrap_or(file_name);
    base.rsplit_once('.')
        .and_then(|(_, ext)| Format::from_name(ext))
        .ok_or_else(|| {
            BookFileError::Unsupported(
                "Only epub, pdf and txt files are accepted (the file name must end in .epub, .pdf or .txt)"
                    .to_owned(),
            )
        })
}

/// The format the bytes prove. A claimed txt that is neither pdf nor zip but not UTF-8 is
/// unreadable (422); unknown binary content claimed as epub or pdf is unsupported.
fn content_format(data: &[u8], limits: &Limits, claimed: Format) -> Result<Format, BookFileError> {
    if is_pdf(data) {
        return Ok(Format::Pdf);
    }
    if data.starts_with(ZIP_MAGIC) {
        let mut zip = SafeZip::open(data, limits, "epub")?;
        if has_epub_mimetype(&mut zip)? {
            return Ok(Format::Epub);
        }
        return Err(BookFileError::Unsupported(
            "The file is a zip archive but not an epub (its mimetype entry is not application/epub+zip)"
                .to_owned(),
        ));
    }
    let text = data.strip_prefix(UTF8_BOM).unwrap_or(data);
    if std::str::from_utf8(text).is_ok() && !text.contains(&0) {
        return Ok(Format::Txt);
    }
    match claimed {
        Format::Txt => Err(BookFileError::unreadable("txt", "it is not UTF-8 text")),
        Format::Epub | Format::Pdf => Err(BookFileError::Unsupported(format!(
            "The file is not {} {}: its content is of an unsupported kind",
            article(claimed),
            claimed.as_str()
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_without_a_known_extension_are_unsupported() {
        for name in ["book", "book.doc", "book.epub.exe", ""] {
            assert!(
                matches!(claimed_format(name), Err(BookFileError::Unsupported(_))),
                "{name}"
            );
        }
        assert_eq!(claimed_format("My Book.EPUB").unwrap(), Format::Epub);
        assert_eq!(claimed_format("dir/a.b.pdf").unwrap(), Format::Pdf);
    }

    #[test]
    fn text_and_pdf_are_told_apart() {
        let limits = Limits::default();
        assert_eq!(
            sniff("a.txt", "Hello, wörld".as_bytes(), &limits).unwrap(),
            Format::Txt
        );
        assert_eq!(
            sniff("a.txt", b"\xEF\xBB\xBFHi", &limits).unwrap(),
            Format::Txt
        );
        assert_eq!(
            sniff("a.pdf", b"%PDF-1.7\n...", &limits).unwrap(),
            Format::Pdf
        );
        assert!(matches!(
            sniff("a.txt", b"%PDF-1.7", &limits),
            Err(BookFileError::Unsupported(_))
        ));
        assert!(matches!(
            sniff("a.pdf", b"plain words", &limits),
            Err(BookFileError::Unsupported(_))
        ));
        assert!(matches!(
            sniff("a.txt", b"\xff\xfe\x00a", &limits),
            Err(BookFileError::Unreadable(_))
        ));
        assert!(matches!(
            sniff("a.txt", b"", &limits),
            Err(BookFileError::Unreadable(_))
        ));
    }

    #[test]
    fn oversized_files_are_too_large() {
        let limits = Limits {
            max_file_bytes: 4,
            ..Limits::default()
        };
        assert!(matches!(
            sniff("a.txt", b"hello", &limits),
            Err(BookFileError::TooLarge(_))
        ));
    }
}
