//! quire-bookfile: the book files of Quire (epub, pdf, txt), for the catalog service (and
//! later the manuscript service).
//!
//! It sniffs what a file really is, enforces safety limits, reads metadata and chapters,
//! extracts plain text and cuts the free trial part as a valid file of the same format.
//!
//! What it must never do: trust a file name (the content decides; the extension must only
//! agree), inflate a zip entry without a bound (declared sizes lie: every read is capped by
//! the declared size and the unpacked budget), follow an entry path out of the container,
//! or hand out a trial holding the whole book (unless the trial percentage is 100).
#![forbid(unsafe_code)]
#![cfg_attr(test, allow(clippy::unwrap_used, clippy::expect_used))]

mod epub;
mod epub_package;
mod epub_toc;
mod epub_trial;
mod error;
mod limits;
mod model;
mod pdf;
mod pdf_guard;
mod pdf_trial;
mod sniff;
mod trial_rule;
mod txt;
mod txt_headings;
mod xhtml;

/// The sentence of the end-of-sample page an epub trial ends with.
pub use epub_trial::END_PAGE_TEXT as EPUB_TRIAL_END_TEXT;
pub use error::BookFileError;
pub use model::{Chapter, Format, Inspected, Limits};
/// The closing line of a txt trial.
pub use txt::TRIAL_END_LINE as TXT_TRIAL_END_LINE;

/// Sniffs the content (the name's extension must agree), enforces `limits` and parses.
/// A txt must be UTF-8 (a BOM is fine).
pub fn inspect(file_name: &str, data: &[u8], limits: &Limits) -> Result<Inspected, BookFileError> {
    match sniff::sniff(file_name, data, limits)? {
        Format::Epub => epub::inspect(data, limits),
        Format::Pdf => {
            pdf_guard::check_streams(data, limits)?;
            pdf::inspect(data)
        }
        Format::Txt => txt::inspect(data),
    }
}

/// How many chapters (from the first) the trial shows, whole or in part (for TOC marks).
/// epub: the chapters that fit the limit whole, at least 1 (the first one cut); pdf: the
/// chapters starting on a trial page; txt: the chapters starting before the cut.
pub fn trial_chapters(chapters: &[Chapter], percent: u8) -> u32 {
    trial_rule::trial_chapters(chapters, percent)
}

/// The trial part of a book as a valid file of the same format. `chapters` are the ones
/// `inspect` returned (for an epub they are re-read when they do not match the file).
/// `percent` is clamped to 1..=100; 100 returns the file unchanged.
pub fn trial(
    format: Format,
    data: &[u8],
    chapters: &[Chapter],
    percent: u8,
) -> Result<Vec<u8>, BookFileError> {
    match format {
        Format::Epub => epub_trial::trial(data, chapters, percent),
        Format::Pdf => pdf_trial::trial(data, percent),
        Format::Txt => txt::trial(data, percent),
    }
}

/// Plain text of the book (for search and analysis), at most `max_chars` characters.
pub fn extract_text(
    format: Format,
    data: &[u8],
    max_chars: usize,
) -> Result<String, BookFileError> {
    match format {
        Format::Epub => epub::extract_text(data, max_chars),
        Format::Pdf => {
            pdf_guard::check_streams(data, &Limits::default())?;
            pdf::extract_text(data, max_chars)
        }
        Format::Txt => txt::extract_text(data, max_chars),
    }
}
