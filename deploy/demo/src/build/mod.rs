//! Book files made from plain chapters: EPUB 3, PDF and UTF-8 text.
//!
//! The demo loader builds its shop with these, and other crates' tests use them to make
//! real fixture files instead of checking binary blobs into the repository.

mod epub;
mod pdf;
mod txt;
mod winansi;
pub mod xml;

pub use epub::epub;
pub use pdf::pdf;
pub use txt::txt;

use crate::DemoError;

/// Who and what a book is. `Default` gives an untitled English book without a cover.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct BookMeta {
    pub title: String,
    pub authors: Vec<String>,
    /// BCP 47 tag ("en"); empty means "en".
    pub language: String,
    /// A stable identifier (URN, ISBN...); `None`: derived from title and authors.
    pub identifier: Option<String>,
    pub description: Option<String>,
    pub publisher: Option<String>,
    /// Date of first publication, `YYYY` or `YYYY-MM-DD`.
    pub publish_date: Option<String>,
    /// Rights statement ("Public domain in the USA.").
    pub rights: Option<String>,
    pub cover: Option<Cover>,
}

impl BookMeta {
    pub fn new(title: impl Into<String>, authors: &[&str]) -> Self {
        Self {
            title: title.into(),
            authors: authors.iter().map(|a| (*a).to_owned()).collect(),
            language: "en".to_owned(),
            ..Self::default()
        }
    }

    pub(crate) fn language_or_default(&self) -> &str {
        if self.language.trim().is_empty() {
            "en"
        } else {
            self.language.trim()
        }
    }

    /// The authors as one display line ("Jane Austen, Anne Brontë").
    pub fn author_line(&self) -> String {
        self.authors.join(", ")
    }

    /// `urn:uuid:` made from a hash of title and authors, so rebuilding gives the same id.
    pub(crate) fn identifier_or_derived(&self) -> String {
        if let Some(id) = self.identifier.as_deref().filter(|s| !s.trim().is_empty()) {
            return id.to_owned();
        }
        use sha2::{Digest, Sha256};
        let mut hasher = Sha256::new();
        hasher.update(self.title.as_bytes());
        for author in &self.authors {
            hasher.update([0u8]);
            hasher.update(author.as_bytes());
        }
        let d = hasher.finalize();
        let hex: String = d.iter().take(16).map(|b| format!("{b:02x}")).collect();
        format!(
            "urn:uuid:{}-{}-{}-{}-{}",
            &hex[0..8],
            &hex[8..12],
            &hex[12..16],
            &hex[16..20],
            &hex[20..32]
        )
    }
}

/// A cover image to put in an EPUB (the PDF and text formats carry none).
#[derive(Debug, Clone, PartialEq)]
pub struct Cover {
    /// `image/png`, `image/jpeg` or `image/svg+xml`.
    pub media_type: String,
    pub data: Vec<u8>,
}

impl Cover {
    pub(crate) fn extension(&self) -> &'static str {
        match self.media_type.as_str() {
            "image/jpeg" => "jpg",
            "image/svg+xml" => "svg",
            "image/webp" => "webp",
            "image/gif" => "gif",
            _ => "png",
        }
    }
}

/// One chapter: a title and its paragraphs (plain text, one string per paragraph; a `\n`
/// inside a paragraph is a line break that is kept, for verse).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ChapterText {
    pub title: String,
    pub paragraphs: Vec<String>,
}

impl ChapterText {
    pub fn new(title: impl Into<String>, paragraphs: Vec<String>) -> Self {
        Self {
            title: title.into(),
            paragraphs,
        }
    }

    /// Characters of text (title and paragraphs).
    pub fn char_count(&self) -> usize {
        self.title.chars().count()
            + self
                .paragraphs
                .iter()
                .map(|p| p.chars().count())
                .sum::<usize>()
    }
}

/// The three formats the demo builds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BookFormat {
    Epub,
    Pdf,
    Txt,
}

impl BookFormat {
    pub fn extension(self) -> &'static str {
        match self {
            Self::Epub => "epub",
            Self::Pdf => "pdf",
            Self::Txt => "txt",
        }
    }

    pub fn content_type(self) -> &'static str {
        match self {
            Self::Epub => "application/epub+zip",
            Self::Pdf => "application/pdf",
            Self::Txt => "text/plain; charset=utf-8",
        }
    }
}

/// Builds `chapters` in `format`.
pub fn file(
    format: BookFormat,
    meta: &BookMeta,
    chapters: &[ChapterText],
) -> Result<Vec<u8>, DemoError> {
    match format {
        BookFormat::Epub => epub(meta, chapters),
        BookFormat::Pdf => pdf(meta, chapters),
        BookFormat::Txt => Ok(txt(meta, chapters)),
    }
}

#[cfg(test)]
pub(crate) mod fixtures {
    use super::*;

    pub fn meta() -> BookMeta {
        BookMeta {
            description: Some("A test book with <angle> & \"quoted\" text.".into()),
            publish_date: Some("1851-10-18".into()),
            ..BookMeta::new("Tom & Jerry's <Big> Day", &["Ann Author", "Émile Zola"])
        }
    }

    pub fn chapters(n: usize, paragraphs: usize) -> Vec<ChapterText> {
        (1..=n)
            .map(|c| {
                ChapterText::new(
                    format!("The {c}th \u{201c}chapter\u{201d} & more"),
                    (1..=paragraphs)
                        .map(|p| {
                            format!(
                                "Paragraph {p} of chapter {c}: it was a dark and stormy night; \
                                 the rain fell in torrents \u{2014} except at occasional intervals, \
                                 when it was checked by a violent gust of wind <which> swept up the \
                                 streets & rattled along the housetops. Café, naïve, œuvre."
                            )
                        })
                        .collect(),
                )
            })
            .collect()
    }
}
