//! The text of an upload: each file read by quire-bookfile (the content decides its
//! format), then put together as the writer asked, one manuscript in file order or one
//! chapter per file, with the manuscript's title. It parses what a stranger sent: the
//! service runs it only in a worker process under OS limits (`worker`), never itself.

use quire_analysis::ChapterText;
use quire_bookfile::{ManuscriptFormat, ManuscriptLimits, TextChapter};

use crate::error::{ManuscriptError, Result};
use crate::input;
use crate::uploads::request::{File, Split};

/// A title every untitled manuscript would share is no title.
const UNTITLED: &str = "Untitled manuscript";

/// What the files say, put together.
#[derive(Debug, Clone)]
pub struct Extracted {
    pub title: String,
    /// From the files' metadata (the first file that names any).
    pub authors: Vec<String>,
    pub chapters: Vec<ChapterText>,
    /// Each file's format, in upload order.
    pub formats: Vec<ManuscriptFormat>,
}

/// Reads every file and puts the text together; a file that cannot be read fails the
/// whole upload with bookfile's status and message (named after the file when there are
/// several).
pub fn extract(files: &[File], split: Split, max_text_chars: usize) -> Result<Extracted> {
    let mut read = Vec::with_capacity(files.len());
    let mut chars = 0usize;
    for file in files {
        let limits = ManuscriptLimits {
            max_file_bytes: file.data.len() as u64,
            // One character more than the rest of the budget tells "too long" apart.
            max_text_chars: max_text_chars.saturating_sub(chars).saturating_add(1),
            ..ManuscriptLimits::default()
        };
        let manuscript = quire_bookfile::extract_manuscript(&file.name, &file.data, &limits)
            .map_err(|e| named(files.len(), &file.name, e.into()))?;
        chars += manuscript
            .chapters
            .iter()
            .map(|c| c.text.chars().count())
            .sum::<usize>();
        if manuscript.truncated || chars > max_text_chars {
            return Err(ManuscriptError::TooLarge(format!(
                "The manuscript is longer than {max_text_chars} characters"
            )));
        }
        read.push((file, manuscript));
    }
    let formats = read.iter().map(|(_, m)| m.format).collect();
    let authors = read
        .iter()
        .map(|(_, m)| &m.authors)
        .find(|a| !a.is_empty())
        .map(|a| a.iter().map(|s| input::title_from_file(s)).collect())
        .unwrap_or_default();
    let first_name = files.first().map(|f| f.name.as_str()).unwrap_or_default();
    let (title, chapters) = match split {
        Split::Manuscript => {
            let title = read
                .first()
                .and_then(|(_, m)| m.title.as_deref())
                .map(input::title_from_file)
                .filter(|t| !t.is_empty())
                .unwrap_or_else(|| input::stem(first_name));
            let chapters = read
                .into_iter()
                .flat_map(|(_, m)| m.chapters)
                .map(chapter)
                .collect();
            (title, chapters)
        }
        // The files' own titles name their chapters here, so the book is named after the
        // first file, as the writer's screens do.
        Split::FilePerChapter => {
            let chapters = read
                .into_iter()
                .map(|(file, m)| ChapterText {
                    title: chapter_title(file, m.title.as_deref(), &m.chapters),
                    text: no_nul(
                        m.chapters
                            .into_iter()
                            .map(|c| c.text)
                            .collect::<Vec<_>>()
                            .join("\n\n"),
                    ),
                })
                .collect();
            (input::stem(first_name), chapters)
        }
    };
    let title = if title.is_empty() {
        UNTITLED.to_owned()
    } else {
        title
    };
    Ok(Extracted {
        title,
        authors,
        chapters,
        formats,
    })
}

/// Postgres takes no NUL character in text (nor in JSON): none goes further than here.
fn no_nul(text: String) -> String {
    if text.contains('\0') {
        text.replace('\0', "")
    } else {
        text
    }
}

fn chapter(c: TextChapter) -> ChapterText {
    ChapterText {
        title: input::title_from_file(&c.title),
        text: no_nul(c.text),
    }
}

/// The title of a file that is one chapter: its metadata title, else its first heading,
/// else its name without the extension.
fn chapter_title(file: &File, metadata: Option<&str>, chapters: &[TextChapter]) -> String {
    let heading = chapters
        .first()
        .map(|c| c.title.as_str())
        .filter(|t| !made_up(t));
    metadata
        .into_iter()
        .chain(heading)
        .map(input::title_from_file)
        .find(|t| !t.is_empty())
        .unwrap_or_else(|| input::stem(&file.name))
}

/// The names bookfile gives chapters the file does not name ("Chapter 3", "Part 2",
/// "Opening"): not a heading of the file's.
fn made_up(title: &str) -> bool {
    let numbered = |prefix: &str| {
        title
            .strip_prefix(prefix)
            .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
    };
    title == "Opening" || numbered("Chapter ") || numbered("Part ")
}

/// Several files: say which one failed.
fn named(files: usize, name: &str, e: ManuscriptError) -> ManuscriptError {
    if files < 2 {
        return e;
    }
    match e {
        ManuscriptError::TooLarge(m) => ManuscriptError::TooLarge(format!("{name}: {m}")),
        ManuscriptError::Unreadable(m) => ManuscriptError::Unreadable(format!("{name}: {m}")),
        ManuscriptError::Kit(quire_kit::KitError::Invalid(field, m)) => {
            ManuscriptError::Kit(quire_kit::KitError::Invalid(field, format!("{name}: {m}")))
        }
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn txt(name: &str, text: &str) -> File {
        File {
            name: name.into(),
            data: bytes::Bytes::from(text.to_owned()),
        }
    }

    fn prose(seed: &str) -> String {
        (0..40)
            .map(|i| format!("The {seed} walked along the shore on day {i} and counted waves."))
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn files_of_one_manuscript_keep_their_order_and_the_first_names_it() {
        let e = extract(
            &[
                txt("The Keeper.txt", &prose("keeper")),
                txt("two.txt", &prose("gull")),
            ],
            Split::Manuscript,
            1_000_000,
        )
        .unwrap();
        assert_eq!(e.title, "The Keeper");
        assert!(e.chapters.len() >= 2);
        assert!(e.chapters[0].text.contains("keeper"));
        assert!(e.chapters.last().unwrap().text.contains("gull"));
    }

    #[test]
    fn each_file_is_one_chapter_named_by_its_file_when_it_names_nothing() {
        let e = extract(
            &[
                txt("storm.txt", &prose("keeper")),
                txt("calm.txt", &prose("gull")),
            ],
            Split::FilePerChapter,
            1_000_000,
        )
        .unwrap();
        let titles: Vec<&str> = e.chapters.iter().map(|c| c.title.as_str()).collect();
        assert_eq!(titles, ["storm", "calm"]);
        assert_eq!(e.title, "storm");
    }

    #[test]
    fn too_much_text_is_refused_not_cut() {
        let err = extract(&[txt("a.txt", &prose("keeper"))], Split::Manuscript, 100).unwrap_err();
        assert!(matches!(err, ManuscriptError::TooLarge(_)), "{err}");
    }

    #[test]
    fn the_failing_file_is_named_among_several() {
        let err = extract(
            &[txt("a.txt", &prose("keeper")), txt("b.exe", "MZ binary")],
            Split::Manuscript,
            1_000_000,
        )
        .unwrap_err();
        assert!(err.to_string().starts_with("b.exe: "), "{err}");
    }

    #[test]
    fn made_up_chapter_names_are_told_apart() {
        assert!(made_up("Chapter 3"));
        assert!(made_up("Part 12"));
        assert!(made_up("Opening"));
        assert!(!made_up("Chapter Three"));
        assert!(!made_up("The Storm"));
    }
}
