//! What a manuscript really is (the content decides, the name's extension must agree):
//! text, a pdf, an epub or a docx, a zip container kept open for its reader.

use crate::common::error::BookFileError;
use crate::common::safe_zip::SafeZip;
use crate::common::sniff::{ZIP_MAGIC, has_epub_mimetype, is_pdf};
use crate::manuscript::docx::document::DOCX_DOCUMENT;
use crate::manuscript::model::{ManuscriptFormat, ManuscriptLimits};

/// An OLE compound file: an old Word .doc, or any Office file saved with a password.
const OLE_MAGIC: &[u8] = b"\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1";
const EMPTY_ZIP_MAGIC: &[u8] = b"PK\x05\x06";

/// What the bytes are; a zip container stays open for its reader.
pub(crate) enum Content<'a> {
    Text,
    Pdf,
    Epub(SafeZip<'a>),
    Docx(SafeZip<'a>),
}

impl Content<'_> {
    fn format(&self, claimed: ManuscriptFormat) -> ManuscriptFormat {
        match self {
            Content::Text => claimed,
            Content::Pdf => ManuscriptFormat::Pdf,
            Content::Epub(_) => ManuscriptFormat::Epub,
            Content::Docx(_) => ManuscriptFormat::Docx,
        }
    }
}

/// The content, which must agree with the format the name claims.
pub(crate) fn sniff<'a>(
    data: &'a [u8],
    claimed: ManuscriptFormat,
    limits: &ManuscriptLimits,
) -> Result<Content<'a>, BookFileError> {
    let content = content(data, claimed, limits)?;
    let format = content.format(claimed);
    if format != claimed {
        return Err(BookFileError::Unsupported(format!(
            "The file name says .{} but the content is {} {format} file",
            extension(claimed),
            article(format)
        )));
    }
    Ok(content)
}

/// The format the bytes prove. Text formats (txt, markdown) are told apart by the name.
fn content<'a>(
    data: &'a [u8],
    claimed: ManuscriptFormat,
    limits: &ManuscriptLimits,
) -> Result<Content<'a>, BookFileError> {
    if is_pdf(data) {
        return Ok(Content::Pdf);
    }
    if data.starts_with(ZIP_MAGIC) || data.starts_with(EMPTY_ZIP_MAGIC) {
        return zip_content(data, claimed, limits);
    }
    if data.starts_with(OLE_MAGIC) {
        return Err(BookFileError::Unsupported(
            "The file is an old Word document (.doc) or an Office file protected by a password: \
             save it as .docx without a password and upload it again"
                .to_owned(),
        ));
    }
    match claimed {
        ManuscriptFormat::Txt | ManuscriptFormat::Markdown => Ok(Content::Text),
        ManuscriptFormat::Epub | ManuscriptFormat::Pdf | ManuscriptFormat::Docx => {
            Err(BookFileError::Unsupported(format!(
                "The file is named .{} but is not {} {claimed} file",
                extension(claimed),
                article(claimed)
            )))
        }
    }
}

/// An epub (a `mimetype` entry saying so) or a docx (a Word document part).
fn zip_content<'a>(
    data: &'a [u8],
    claimed: ManuscriptFormat,
    limits: &ManuscriptLimits,
) -> Result<Content<'a>, BookFileError> {
    let kind = match claimed {
        ManuscriptFormat::Epub | ManuscriptFormat::Docx => claimed.as_str(),
        _ => "zip file",
    };
    let mut zip = SafeZip::open(data, &limits.file_limits(), kind)?;
    if zip.contains(DOCX_DOCUMENT) {
        return Ok(Content::Docx(zip));
    }
    if has_epub_mimetype(&mut zip)? {
        return Ok(Content::Epub(zip));
    }
    Err(BookFileError::Unsupported(
        "The file is a zip archive but neither an epub nor a Word document (.docx)".to_owned(),
    ))
}

fn extension(format: ManuscriptFormat) -> &'static str {
    match format {
        ManuscriptFormat::Markdown => "md",
        other => other.as_str(),
    }
}

fn article(format: ManuscriptFormat) -> &'static str {
    match format {
        ManuscriptFormat::Epub => "an",
        _ => "a",
    }
}
