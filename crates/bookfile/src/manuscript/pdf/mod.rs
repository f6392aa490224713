//! A pdf manuscript: each page's text layer as lines (`text_layer`), joined into
//! paragraphs (`paragraphs`), cut into chapters at the outline's entries (`extract`). The
//! checks and the loading are `common::pdf`'s.

pub(crate) mod extract;
pub(crate) mod paragraphs;
pub(crate) mod text_layer;
