//! The plain data types of manuscript extraction (what `extract_manuscript` returns).

use std::time::Duration;

use crate::common::limits::Limits;

/// Formats a manuscript may come in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ManuscriptFormat {
    Epub,
    Pdf,
    Txt,
    Docx,
    Markdown,
}

impl ManuscriptFormat {
    /// Short lowercase name ("epub", "pdf", "txt", "docx", "markdown").
    pub fn as_str(self) -> &'static str {
        match self {
            ManuscriptFormat::Epub => "epub",
            ManuscriptFormat::Pdf => "pdf",
            ManuscriptFormat::Txt => "txt",
            ManuscriptFormat::Docx => "docx",
            ManuscriptFormat::Markdown => "markdown",
        }
    }

    /// The format a file name's extension claims (any case): .epub, .pdf, .txt, .docx,
    /// .md or .markdown; None for anything else.
    pub fn from_file_name(file_name: &str) -> Option<ManuscriptFormat> {
        let base = file_name.rsplit(['/', '\\']).next().unwrap_or(file_name);
        let (_, ext) = base.rsplit_once('.')?;
        match ext.to_ascii_lowercase().as_str() {
            "epub" => Some(ManuscriptFormat::Epub),
            "pdf" => Some(ManuscriptFormat::Pdf),
            "txt" => Some(ManuscriptFormat::Txt),
            "docx" => Some(ManuscriptFormat::Docx),
            "md" | "markdown" => Some(ManuscriptFormat::Markdown),
            _ => None,
        }
    }
}

impl std::fmt::Display for ManuscriptFormat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One chapter of a manuscript: its title and its plain text (paragraphs separated by
/// "\n\n"; a line break inside a paragraph is a single "\n").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextChapter {
    pub title: String,
    pub text: String,
}

/// A manuscript's text and what its file says about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Manuscript {
    pub format: ManuscriptFormat,
    /// From the file's metadata (epub dc:title, pdf Info Title, docx core.xml or a
    /// paragraph in the Title style, markdown front matter or a lone leading H1), else the
    /// first line of its title page when that reads as a title; never from the file name,
    /// never a tool's default ("Enscript Output").
    pub title: Option<String>,
    /// From the file's metadata (epub dc:creator, pdf Info Author, docx dc:creator,
    /// markdown front matter, a txt's "Author:" line or "by" line), never a tool's default
    /// ("python-docx").
    pub authors: Vec<String>,
    pub language: Option<String>,
    /// Reading order; never empty.
    pub chapters: Vec<TextChapter>,
    /// True when the text went past `ManuscriptLimits::max_text_chars` and the rest was
    /// left out.
    pub truncated: bool,
}

/// Safety limits of one extraction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ManuscriptLimits {
    /// The file itself (413 past it).
    pub max_file_bytes: u64,
    /// All zip entries (epub, docx) or pdf streams together once inflated (413 past it).
    pub max_unpacked_bytes: u64,
    /// Entries in a zip container (413 past it).
    pub max_entries: usize,
    /// Characters of text kept; the rest is left out and `Manuscript::truncated` set.
    pub max_text_chars: usize,
    /// Time one file may take; past it the extraction stops with a 422 error.
    pub max_duration: Duration,
}

impl Default for ManuscriptLimits {
    fn default() -> Self {
        let file = Limits::default();
        ManuscriptLimits {
            max_file_bytes: file.max_file_bytes,
            max_unpacked_bytes: file.max_unpacked_bytes,
            max_entries: file.max_entries,
            max_text_chars: 5_000_000,
            max_duration: Duration::from_secs(30),
        }
    }
}

impl ManuscriptLimits {
    /// The container limits, in the form the book file readers take.
    pub(crate) fn file_limits(&self) -> Limits {
        Limits {
            max_file_bytes: self.max_file_bytes,
            max_unpacked_bytes: self.max_unpacked_bytes,
            max_entries: self.max_entries,
        }
    }
}
