//! The plain data types of the book file API (what `inspect`, `accept` and `trial` take
//! and return).

/// The three book file formats Quire accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    Epub,
    Pdf,
    Txt,
}

impl Format {
    /// Short lowercase name, as stored and sent on the wire ("epub", "pdf", "txt").
    pub fn as_str(self) -> &'static str {
        match self {
            Format::Epub => "epub",
            Format::Pdf => "pdf",
            Format::Txt => "txt",
        }
    }

    /// The HTTP Content-Type to serve the file with.
    pub fn content_type(self) -> &'static str {
        match self {
            Format::Epub => "application/epub+zip",
            Format::Pdf => "application/pdf",
            Format::Txt => "text/plain; charset=utf-8",
        }
    }

    /// The file name extension, without the dot.
    pub fn extension(self) -> &'static str {
        self.as_str()
    }

    /// Parses "epub", "pdf" or "txt" (any case); anything else is None.
    pub fn from_name(name: &str) -> Option<Format> {
        match name.to_ascii_lowercase().as_str() {
            "epub" => Some(Format::Epub),
            "pdf" => Some(Format::Pdf),
            "txt" => Some(Format::Txt),
            _ => None,
        }
    }
}

impl std::fmt::Display for Format {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One entry of a book's table of contents.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chapter {
    /// 0-based position in reading order.
    pub index: u32,
    pub title: String,
    /// epub: the spine item's href (relative to the OPF); pdf: "page=N" (1-based);
    /// txt: "offset=N" (byte offset on a char boundary).
    pub href: String,
    /// Characters of visible text (epub, txt) or pages (pdf).
    pub weight: u64,
}

/// What `inspect` learnt about a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Inspected {
    pub format: Format,
    pub title: Option<String>,
    pub authors: Vec<String>,
    pub language: Option<String>,
    pub chapters: Vec<Chapter>,
    /// Sum of the chapters' weights.
    pub total_weight: u64,
}

/// An uploaded file as it is to be stored (what `accept` returns).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Accepted {
    /// What the stored file holds.
    pub inspected: Inspected,
    /// The bytes to store instead of the upload (an epub written again without its
    /// scripts); None: the upload is stored as it is.
    pub replacement: Option<Vec<u8>>,
}
