//! Reading the texts: registry packages installed at run time, and the project's own.

pub(crate) mod debian;
pub(crate) mod original;
pub(crate) mod paragraphs;
pub(crate) mod real_books;
pub(crate) mod stdlib;
