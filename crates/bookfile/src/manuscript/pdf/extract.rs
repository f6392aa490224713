//! A pdf manuscript: the text layer page by page, chapters from the outline (else from
//! headings in the text), Info metadata. Encrypted and scanned (image-only) pdfs are
//! refused with what to do about it.

use crate::common::error::BookFileError;
use crate::common::pdf::guard::check;
use crate::common::pdf::load::{guarded, load};
use crate::common::pdf::metadata::{Metadata, metadata};
use crate::common::pdf::outline::outline_starts;
use crate::common::pdf::page::PageBounds;
use crate::manuscript::chapters::ChapterBuilder;
use crate::manuscript::model::{Manuscript, ManuscriptFormat, ManuscriptLimits};
use crate::manuscript::pdf::paragraphs::ParagraphJoiner;
use crate::manuscript::pdf::text_layer::page_lines;

/// Fewer letters than this per page, on pages that are mostly images, is a scan.
const SCAN_LETTERS_PER_PAGE: usize = 20;

const SCANNED: &str = "The pdf has no text layer (its pages are scanned images): run it \
     through text recognition (OCR), or export it again from the program that made it so \
     that it keeps its text, and upload that file";
const ENCRYPTED_UNREADABLE: &str = "The pdf is encrypted and its text cannot be read: save it \
     again without a password or encryption and upload that file";

pub(crate) fn extract(
    data: &[u8],
    limits: &ManuscriptLimits,
    builder: ChapterBuilder,
) -> Result<Manuscript, BookFileError> {
    check(data, &limits.file_limits())?;
    guarded(|| read(data, builder))
}

fn read(data: &[u8], mut builder: ChapterBuilder) -> Result<Manuscript, BookFileError> {
    builder.deadline().check()?;
    let doc = load(data)?;
    builder.deadline().check()?;
    let pages = doc.get_pages();
    let mut starts = outline_starts(&doc, pages.len() as u64)
        .unwrap_or_default()
        .into_iter()
        .peekable();
    let mut joiner = ParagraphJoiner::default();
    let mut letters = 0usize;
    let mut image_pages = 0usize;
    let mut bounds = PageBounds::default();
    for (number, page_id) in &pages {
        builder.deadline().check()?;
        if builder.is_full() {
            break;
        }
        if let Some((_, title)) = starts.next_if(|(first, _)| *first == u64::from(*number)) {
            if let Some(p) = joiner.finish() {
                builder.add_text(&p)?;
            }
            builder.start_chapter(title.as_deref());
        }
        let lines = page_lines(&doc, *page_id, &mut bounds);
        let page_letters: usize = lines
            .iter()
            .map(|l| l.text.chars().filter(|c| c.is_alphabetic()).count())
            .sum();
        letters += page_letters;
        if page_letters < SCAN_LETTERS_PER_PAGE
            && doc.get_page_images(*page_id).is_ok_and(|i| !i.is_empty())
        {
            image_pages += 1;
        }
        for paragraph in joiner.add_page(lines) {
            builder.add_text(&paragraph)?;
        }
    }
    if let Some(p) = joiner.finish() {
        builder.add_text(&p)?;
    }
    if letters < SCAN_LETTERS_PER_PAGE * pages.len() && image_pages * 2 >= pages.len() {
        return Err(BookFileError::Unreadable(SCANNED.to_owned()));
    }
    if letters == 0 && doc.is_encrypted() {
        return Err(BookFileError::Unreadable(ENCRYPTED_UNREADABLE.to_owned()));
    }
    let (chapters, truncated) = builder.finish(ManuscriptFormat::Pdf)?;
    let Metadata {
        title,
        authors,
        language,
    } = metadata(&doc);
    Ok(Manuscript {
        format: ManuscriptFormat::Pdf,
        title,
        authors,
        language,
        chapters,
        truncated,
    })
}
