//! The one file catalog gets for a manuscript's book. Catalog reads epub, pdf and txt: a
//! single upload in one of those goes as it is (a txt only when it is UTF-8, which catalog
//! requires). Anything else (several files, a docx, markdown, a txt in another encoding)
//! becomes one plain-text book written from the extracted text, each chapter under a
//! "Chapter N: title" heading, the form catalog's txt reader takes as a chapter start, so
//! the book gets the manuscript's table of contents. It starts with the first heading:
//! catalog would make a title block before it a chapter of its own (the book's title and
//! authors are catalog's fields anyway).

use quire_analysis::ChapterText;
use quire_bookfile::ManuscriptFormat;
use quire_proto::catalog::v1 as catalog;

use crate::uploads::extraction::Extracted;
use crate::uploads::request::File;

/// Catalog's txt reader takes headings up to 80 characters.
const MAX_HEADING_TITLE_CHARS: usize = 60;

pub fn for_catalog(files: &[File], text: &Extracted) -> catalog::UploadedFile {
    if let ([file], [format]) = (files, text.formats.as_slice()) {
        let as_is = match format {
            ManuscriptFormat::Epub => Some("epub"),
            ManuscriptFormat::Pdf => Some("pdf"),
            ManuscriptFormat::Txt if std::str::from_utf8(&file.data).is_ok() => Some("txt"),
            _ => None,
        };
        if let Some(extension) = as_is {
            return catalog::UploadedFile {
                file_name: format!("manuscript.{extension}"),
                data: file.data.to_vec(),
            };
        }
    }
    catalog::UploadedFile {
        file_name: "manuscript.txt".into(),
        data: plain_text(&text.chapters).into_bytes(),
    }
}

/// The book as plain text: each chapter under its heading.
pub fn plain_text(chapters: &[ChapterText]) -> String {
    let mut out = String::with_capacity(chapters.iter().map(|c| c.text.len() + 80).sum());
    for (i, chapter) in chapters.iter().enumerate() {
        if i > 0 {
            out.push_str("\n\n");
        }
        out.push_str(&heading(i + 1, &chapter.title));
        out.push_str("\n\n");
        out.push_str(chapter.text.trim());
        out.push('\n');
    }
    out
}

/// "Chapter 3: The Storm"; a title that is a heading already ("Chapter Three", "Prologue")
/// stays as it is.
fn heading(number: usize, title: &str) -> String {
    let title: String = title.chars().take(MAX_HEADING_TITLE_CHARS).collect();
    let first = title
        .split_whitespace()
        .next()
        .unwrap_or_default()
        .trim_end_matches(['.', ':'])
        .to_lowercase();
    let is_heading = [
        "chapter",
        "part",
        "book",
        "volume",
        "prologue",
        "epilogue",
        "preface",
        "introduction",
        "interlude",
    ]
    .contains(&first.as_str())
        && title.chars().next().is_some_and(char::is_uppercase);
    if is_heading {
        title
    } else if title.trim().is_empty() {
        format!("Chapter {number}")
    } else {
        format!("Chapter {number}: {title}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chapter(title: &str, text: &str) -> ChapterText {
        ChapterText {
            title: title.into(),
            text: text.into(),
        }
    }

    #[test]
    fn chapters_get_headings_catalog_reads() {
        let text = plain_text(&[
            chapter("The Storm", "Rain."),
            chapter("Chapter Two", "Sun."),
            chapter("", "Fog."),
        ]);
        assert!(
            text.starts_with("Chapter 1: The Storm\n\nRain.\n"),
            "{text}"
        );
        assert!(text.contains("\n\nChapter Two\n\nSun.\n"));
        assert!(text.contains("\n\nChapter 3\n\nFog.\n"));
    }

    #[test]
    fn a_single_epub_pdf_or_utf8_txt_goes_as_it_is() {
        let extracted = |format| Extracted {
            title: "T".into(),
            authors: vec![],
            chapters: vec![chapter("One", "Text.")],
            formats: vec![format],
        };
        let file = |data: &[u8]| File {
            name: "x".into(),
            data: bytes::Bytes::copy_from_slice(data),
        };
        let epub = for_catalog(&[file(b"PK..")], &extracted(ManuscriptFormat::Epub));
        assert_eq!(
            (epub.file_name.as_str(), epub.data.as_slice()),
            ("manuscript.epub", &b"PK.."[..])
        );
        let latin1 = for_catalog(&[file(b"caf\xe9")], &extracted(ManuscriptFormat::Txt));
        assert_eq!(latin1.file_name, "manuscript.txt");
        assert!(
            String::from_utf8(latin1.data)
                .unwrap()
                .contains("Chapter 1: One")
        );
        let docx = for_catalog(&[file(b"PK..")], &extracted(ManuscriptFormat::Docx));
        assert_eq!(docx.file_name, "manuscript.txt");
    }
}
