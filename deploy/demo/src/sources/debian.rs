//! Ambrose Bierce's *The Devil's Dictionary* (1881-1906; public domain) from Debian's
//! `dict-devil` package, unpacked by `fetch-sources.sh` into `deploy/demo/debian/`.
//! Optional: when apt cannot fetch it, the shop goes without this one book.

use std::io::Read;
use std::path::{Path, PathBuf};

use crate::DemoError;
use quire_fixtures::build::ChapterText;

pub(crate) fn devil_dict_path(debian: &Path) -> PathBuf {
    debian.join("usr/share/dictd/devil.dict.dz")
}

/// A headword line: "ABASEMENT, n.  A decent and customary ...".
fn headword_letter(block: &str) -> Option<char> {
    let (word, rest) = block.split_once(',')?;
    let is_headword = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_uppercase() || matches!(c, ' ' | '\'' | '-' | '.'))
        && rest
            .trim_start()
            .starts_with(|c: char| c.is_ascii_lowercase());
    is_headword.then(|| word.chars().next()).flatten()
}

/// The dictionary: a preface, then one chapter per letter.
pub(crate) fn devils_dictionary(debian: &Path) -> Result<Vec<ChapterText>, DemoError> {
    let path = devil_dict_path(debian);
    let file = std::fs::File::open(&path).map_err(|e| DemoError::Source {
        source_name: "debian dict-devil".to_owned(),
        reason: format!("{}: {e} (run deploy/demo/fetch-sources.sh)", path.display()),
    })?;
    // dictzip is gzip with random-access data in the header's extra field.
    let mut text = String::new();
    flate2::read::GzDecoder::new(file).read_to_string(&mut text)?;
    let start = text.find("PREFACE").ok_or_else(|| DemoError::Source {
        source_name: "debian dict-devil".to_owned(),
        reason: "no preface".to_owned(),
    })?;
    let mut chapters = vec![ChapterText::new("Preface", Vec::new())];
    let mut letter = None;
    for block in text[start + "PREFACE".len()..].split("\n\n") {
        let block = block.trim_end().replace('_', "");
        let first = block.trim_start();
        if first.is_empty() || first == "abcdefghijklmnopqrstuvwxyz" {
            continue;
        }
        if let Some(l) = headword_letter(&block)
            && letter != Some(l)
        {
            letter = Some(l);
            chapters.push(ChapterText::new(l.to_string(), Vec::new()));
        }
        let Some(chapter) = chapters.last_mut() else {
            continue;
        };
        if block.lines().all(|l| l.starts_with(' ')) {
            // Verse (and its attribution): keep the lines.
            let lines: Vec<&str> = block.lines().map(str::trim).collect();
            chapter.paragraphs.push(lines.join("\n"));
        } else {
            // Prose; a line indented by four spaces starts a new paragraph.
            let mut paragraph = String::new();
            for line in block.lines() {
                if line.starts_with("    ") && !paragraph.is_empty() {
                    chapter.paragraphs.push(std::mem::take(&mut paragraph));
                }
                if !paragraph.is_empty() {
                    paragraph.push(' ');
                }
                paragraph.push_str(line.trim());
            }
            if !paragraph.is_empty() {
                chapter.paragraphs.push(paragraph);
            }
        }
    }
    chapters.retain(|c| !c.paragraphs.is_empty());
    Ok(chapters)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headwords_are_recognised() {
        assert_eq!(headword_letter("ABASEMENT, n.  A decent"), Some('A'));
        assert_eq!(headword_letter("ZIGZAG, v.t.  To move"), Some('Z'));
        assert_eq!(headword_letter("Meantime, too, some"), None);
    }

    #[test]
    fn the_dictionary_has_a_preface_and_letters_when_fetched() {
        let debian = Path::new(env!("CARGO_MANIFEST_DIR")).join("debian");
        if !devil_dict_path(&debian).exists() {
            eprintln!("skipped: run deploy/demo/fetch-sources.sh");
            return;
        }
        let chapters = devils_dictionary(&debian).unwrap();
        assert_eq!(chapters[0].title, "Preface");
        assert_eq!(chapters[1].title, "A");
        assert!(chapters.len() > 20, "{}", chapters.len());
        assert!(chapters[1].paragraphs[0].starts_with("ABASEMENT, n."));
    }
}
