//! An epub manuscript: the spine's documents in reading order, one chapter per entry of
//! the table of contents (documents it does not list join the chapter before them), the
//! package metadata.

use crate::common::epub::encryption::refuse_encrypted_chapters;

use crate::common::epub::package::open_package;
use crate::common::epub::toc::toc_titles;
use crate::common::error::BookFileError;
use crate::common::safe_zip::SafeZip;
use crate::common::xhtml::read_xhtml;
use crate::manuscript::chapters::ChapterBuilder;
use crate::manuscript::model::{Manuscript, ManuscriptFormat};

pub(crate) fn extract(
    mut zip: SafeZip<'_>,
    mut builder: ChapterBuilder,
) -> Result<Manuscript, BookFileError> {
    let package = open_package(&mut zip)?;
    refuse_encrypted_chapters(&mut zip, &package)?;
    let titles = toc_titles(&mut zip, &package)?;
    let nav_path = package.nav().map(|n| n.path.clone());
    let mut started = false;
    for (i, item) in package.spine_items().into_iter().enumerate() {
        builder.deadline().check()?;
        if builder.is_full() {
            break;
        }
        if !item.is_xhtml() || nav_path.as_deref() == Some(item.path.as_str()) {
            continue;
        }
        let bytes = zip.read(&item.path)?.ok_or_else(|| {
            BookFileError::unreadable(
                "epub",
                format!("chapter {} ({}) is missing", i + 1, item.href),
            )
        })?;
        let document = read_xhtml(&bytes);
        let listed = titles.get(&item.path);
        if listed.is_some() || titles.is_empty() || !started {
            let own = document.heading.as_ref().or(document.title.as_ref());
            builder.start_chapter(listed.or(own).map(String::as_str));
            started = true;
        }
        // Every block of the document (one per line of its text) is a paragraph.
        for block in document.text.lines() {
            builder.add_text(block)?;
        }
    }
    let (chapters, truncated) = builder.finish(ManuscriptFormat::Epub)?;
    Ok(Manuscript {
        format: ManuscriptFormat::Epub,
        title: package.title.clone(),
        authors: package.creators.clone(),
        language: package.language.clone(),
        chapters,
        truncated,
    })
}
