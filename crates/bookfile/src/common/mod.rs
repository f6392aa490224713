//! What the book files and the manuscripts both read through: the one error type, the
//! safety limits and the zip read under them, the byte signs of a format, XML and XHTML
//! text, chapter titles and chapter-like lines of plain text, and the epub container and
//! the pdf path that both open files with. It uses neither `book` nor `manuscript`.

pub(crate) mod chapter_title;
pub(crate) mod epub;
pub(crate) mod error;
pub(crate) mod limits;
pub(crate) mod pdf;
pub(crate) mod safe_zip;
pub(crate) mod sniff;
pub(crate) mod txt_headings;
pub(crate) mod xhtml;
pub(crate) mod xml;
