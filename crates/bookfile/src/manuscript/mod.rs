//! The manuscript service's manuscripts (epub, pdf, txt, docx, markdown): what a file
//! really is (`sniff`), then its text as chapters (`extract`, `chapters`, `sections`) under
//! a time bound (`deadline`) and a character budget, and its metadata, never taken from the
//! file name. It uses `common`, never `book`.

pub(crate) mod chapters;
pub(crate) mod deadline;
pub(crate) mod docx;
pub(crate) mod draft;
pub(crate) mod epub;
pub(crate) mod extract;
pub(crate) mod markdown;
pub(crate) mod metadata_fields;
pub(crate) mod model;
pub(crate) mod pdf;
pub(crate) mod sections;
pub(crate) mod sniff;
pub(crate) mod text_decode;
pub(crate) mod title_page;
pub(crate) mod txt;
