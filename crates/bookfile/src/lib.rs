//! quire-bookfile: the book files of Quire (epub, pdf, txt) for the catalog service, and
//! the manuscripts (epub, pdf, txt, docx, markdown) of the manuscript service.
//!
//! It sniffs what a file really is, enforces safety limits, reads metadata and chapters,
//! extracts plain text, removes what could run from an epub (scripts, event handlers) and
//! cuts the free trial part as a valid file of the same format. For a manuscript it gives
//! the text as chapters (`extract_manuscript`).
//!
//! Three wings: `book` (the catalog's book files), `manuscript` (manuscript extraction, every
//! format) and `common` (what both read through: limits, the bounded zip, sniffing, XML,
//! the epub container, the pdf path). Both use `common`; `common` uses neither, and
//! `book` and `manuscript` do not use each other.
//!
//! What it must never do: trust a file name (the content decides; the extension must only
//! agree), inflate a zip entry without a bound (declared sizes lie: every read is capped by
//! the declared size and the unpacked budget), hand lopdf a pdf the guard has not measured
//! (every level of every stream's filter chain inflated under the unpacked budget, and the
//! objects, values and load cost counted before lopdf parses anything), follow an entry
//! path out of the container, hand out a trial holding the whole book (unless the trial
//! percentage is 100), let a script in an uploaded epub through to the stored file, work on
//! a manuscript without a time bound or keep more of its text than the limit, or take a
//! manuscript's title or authors from its file name.
#![forbid(unsafe_code)]
#![cfg_attr(test, allow(clippy::unwrap_used, clippy::expect_used))]

mod book;
mod common;
mod manuscript;

/// The sentence of the end-of-sample page an epub trial ends with.
pub use book::epub::trial::END_PAGE_TEXT as EPUB_TRIAL_END_TEXT;
pub use book::model::{Accepted, Chapter, Format, Inspected};
pub use book::trial_rule::InSample;
/// The closing line of a txt trial.
pub use book::txt::TRIAL_END_LINE as TXT_TRIAL_END_LINE;
pub use common::error::BookFileError;
pub use common::limits::Limits;
/// The deepest nesting of arrays and dictionaries a pdf may have (deeper is refused before
/// lopdf parses it; up to it, lopdf's stack holds in every profile).
pub use common::pdf::scan::MAX_NESTING as PDF_MAX_NESTING;
pub use manuscript::model::{Manuscript, ManuscriptFormat, ManuscriptLimits, TextChapter};

use book::epub;
use book::pdf;
use book::{sniff, trial_rule, txt};
use common::pdf::guard;

/// Sniffs the content (the name's extension must agree), enforces `limits` and parses.
/// A txt must be UTF-8 (a BOM is fine).
pub fn inspect(file_name: &str, data: &[u8], limits: &Limits) -> Result<Inspected, BookFileError> {
    match sniff::sniff(file_name, data, limits)? {
        Format::Epub => epub::inspect::inspect(data, limits),
        Format::Pdf => {
            guard::check(data, limits)?;
            pdf::inspect::inspect(data)
        }
        Format::Txt => txt::inspect(data),
    }
}

/// Removes what could run from a book file: from every document of an epub its scripts,
/// event handlers, script URLs, frames, objects and forms. None when the file is stored as
/// it is (a pdf or txt, or an epub the rewrite leaves byte for byte the same).
pub fn sanitize(
    format: Format,
    data: &[u8],
    limits: &Limits,
) -> Result<Option<Vec<u8>>, BookFileError> {
    match format {
        Format::Epub => epub::sanitize::sanitize(data, limits),
        Format::Pdf | Format::Txt => Ok(None),
    }
}

/// An upload as it is to be stored: `inspect`, then `sanitize`, then, when the file was
/// rewritten, `inspect` again so that the chapters describe the bytes stored.
pub fn accept(file_name: &str, data: &[u8], limits: &Limits) -> Result<Accepted, BookFileError> {
    let inspected = inspect(file_name, data, limits)?;
    let Some(replacement) = sanitize(inspected.format, data, limits)? else {
        return Ok(Accepted {
            inspected,
            replacement: None,
        });
    };
    // The rewrite may come out a little larger than the upload; it is ours, not the user's.
    let ours = Limits {
        max_file_bytes: u64::MAX,
        ..*limits
    };
    Ok(Accepted {
        inspected: inspect(file_name, &replacement, &ours)?,
        replacement: Some(replacement),
    })
}

/// Each chapter's place in the free sample, from the chapter list alone (as `inspect`
/// returned it), by the one rule `trial` cuts the files with: front matter (title page,
/// licence, contents...) is in the sample but does not count; then the trial `percent` of
/// the rest in whole chapters, never less than the first chapter or a few pages of it
/// (it alone is then `Opening`), never the whole book below 100%.
pub fn sample_marks(format: Format, chapters: &[Chapter], percent: u8) -> Vec<InSample> {
    trial_rule::marks(format, chapters, percent)
}

/// The free sample of a book (see `sample_marks`) as a valid file of the same format.
/// `chapters` are the ones `inspect` returned; when they do not describe this file they
/// are read from it again. `percent` is clamped to 1..=100; 100 returns the file unchanged.
pub fn trial(
    format: Format,
    data: &[u8],
    chapters: &[Chapter],
    percent: u8,
) -> Result<Vec<u8>, BookFileError> {
    match format {
        Format::Epub => epub::trial::trial(data, chapters, percent),
        Format::Pdf => pdf::trial::trial(data, chapters, percent),
        Format::Txt => txt::trial(data, chapters, percent),
    }
}

/// Plain text of the book (for search and analysis), at most `max_chars` characters.
pub fn extract_text(
    format: Format,
    data: &[u8],
    max_chars: usize,
) -> Result<String, BookFileError> {
    match format {
        Format::Epub => epub::inspect::extract_text(data, max_chars),
        Format::Pdf => {
            guard::check(data, &Limits::default())?;
            pdf::inspect::extract_text(data, max_chars)
        }
        Format::Txt => txt::extract_text(data, max_chars),
    }
}

/// A manuscript's text as chapters, and its metadata. The content decides the format, the
/// name's extension (.epub, .pdf, .docx, .txt, .md, .markdown) must agree; .txt and .md
/// tell plain text from markdown. Chapters come from the file's structure (epub contents,
/// pdf outline, docx heading styles, markdown headings), else from chapter-like headings in
/// the text, else from even sections of 3,000-5,000 words titled "Part 1", "Part 2", ...
/// Errors: `Unsupported` (415) for a kind of file not accepted, `TooLarge` (413) past a
/// size limit, `Unreadable` (422) for a damaged, encrypted, text-less or too slow file.
pub fn extract_manuscript(
    file_name: &str,
    data: &[u8],
    limits: &ManuscriptLimits,
) -> Result<Manuscript, BookFileError> {
    manuscript::extract::extract(file_name, data, limits)
}
