//! A docx manuscript: word/document.xml read paragraph by paragraph into chapters
//! (`document`), and the small parts beside it, the styles and the core properties
//! (`parts`).

pub(crate) mod document;
pub(crate) mod parts;
