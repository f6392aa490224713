//! Manuscript extraction: what a file really is (`sniff`), then its text as chapters by
//! the reader for its format, under the time bound and the character budget, and its
//! title and authors without the tools' defaults (`title_page`).

use crate::common::error::BookFileError;
use crate::common::limits::check_file_size;
use crate::manuscript::chapters::ChapterBuilder;
use crate::manuscript::deadline::Deadline;
use crate::manuscript::model::{Manuscript, ManuscriptFormat, ManuscriptLimits};
use crate::manuscript::sniff::{Content, sniff};
use crate::manuscript::{docx, epub, markdown, pdf, title_page, txt};

/// See `crate::extract_manuscript`.
pub(crate) fn extract(
    file_name: &str,
    data: &[u8],
    limits: &ManuscriptLimits,
) -> Result<Manuscript, BookFileError> {
    check_file_size(data, &limits.file_limits())?;
    let claimed = ManuscriptFormat::from_file_name(file_name).ok_or_else(|| {
        BookFileError::Unsupported(
            "Manuscripts are accepted as epub, pdf, docx, txt or markdown files (the file name \
             must end in .epub, .pdf, .docx, .txt, .md or .markdown)"
                .to_owned(),
        )
    })?;
    if data.is_empty() {
        return Err(BookFileError::Unreadable(format!(
            "The {claimed} is empty: it has no text"
        )));
    }
    let deadline = Deadline::new(limits.max_duration);
    let content = sniff(data, claimed, limits)?;
    let builder = ChapterBuilder::new(limits.max_text_chars, deadline);
    let mut manuscript = match content {
        Content::Text => match claimed {
            ManuscriptFormat::Markdown => markdown::extract(data, builder),
            _ => txt::extract(data, builder),
        },
        Content::Pdf => pdf::extract::extract(data, limits, builder),
        Content::Epub(zip) => epub::extract(zip, builder),
        Content::Docx(zip) => docx::document::extract(zip, builder),
    }?;
    title_page::complete(&mut manuscript);
    Ok(manuscript)
}
