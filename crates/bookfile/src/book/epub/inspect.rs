//! A book's epub: metadata and chapters (one per spine item), and plain text.

use crate::book::model::{Chapter, Format, Inspected};
use crate::common::chapter_title::clip_title;
use crate::common::epub::encryption::refuse_encrypted_chapters;
use crate::common::epub::package::{Package, open_package};
use crate::common::epub::toc::toc_titles;
use crate::common::error::BookFileError;
use crate::common::limits::Limits;
use crate::common::safe_zip::SafeZip;
use crate::common::xhtml::read_xhtml;

pub(crate) fn inspect(data: &[u8], limits: &Limits) -> Result<Inspected, BookFileError> {
    let mut zip = SafeZip::open(data, limits, "epub")?;
    let package = open_package(&mut zip)?;
    refuse_encrypted_chapters(&mut zip, &package)?;
    let chapters = read_chapters(&mut zip, &package)?;
    Ok(Inspected {
        format: Format::Epub,
        title: package.title.clone(),
        authors: package.creators.clone(),
        language: package.language.clone(),
        total_weight: chapters.iter().map(|c| c.weight).sum(),
        chapters,
    })
}

/// One chapter per spine item, titled from the nav document, else the NCX, else the
/// document's first h1/h2 or title, else "Chapter N".
pub(crate) fn read_chapters(
    zip: &mut SafeZip<'_>,
    package: &Package,
) -> Result<Vec<Chapter>, BookFileError> {
    let titles = toc_titles(zip, package)?;
    let mut chapters = Vec::new();
    for (i, item) in package.spine_items().into_iter().enumerate() {
        let number = i + 1;
        let bytes = zip.read(&item.path)?.ok_or_else(|| {
            BookFileError::unreadable(
                "epub",
                format!("chapter {number} ({}) is missing", item.href),
            )
        })?;
        let (weight, own_title) = if item.is_xhtml() {
            let x = read_xhtml(&bytes);
            (x.chars, x.heading.or(x.title))
        } else {
            (0, None)
        };
        let title = titles
            .get(&item.path)
            .cloned()
            .or(own_title)
            .map(|t| clip_title(&t))
            .filter(|t| !t.is_empty())
            .unwrap_or_else(|| format!("Chapter {number}"));
        chapters.push(Chapter {
            index: u32::try_from(i).unwrap_or(u32::MAX),
            title,
            href: item.href.clone(),
            weight,
        });
    }
    Ok(chapters)
}

/// The spine's text in reading order, chapters separated by a blank line.
pub(crate) fn extract_text(data: &[u8], max_chars: usize) -> Result<String, BookFileError> {
    let mut zip = SafeZip::open(data, &Limits::default(), "epub")?;
    let package = open_package(&mut zip)?;
    let mut out = String::new();
    let mut count = 0usize;
    for item in package.spine_items() {
        if count >= max_chars {
            break;
        }
        if !item.is_xhtml() {
            continue;
        }
        let Some(bytes) = zip.read(&item.path)? else {
            continue;
        };
        let text = read_xhtml(&bytes).text;
        if text.is_empty() {
            continue;
        }
        if !out.is_empty() {
            for c in "\n\n".chars().take(max_chars - count) {
                out.push(c);
                count += 1;
            }
        }
        for c in text.chars().take(max_chars - count) {
            out.push(c);
            count += 1;
        }
    }
    Ok(out)
}
