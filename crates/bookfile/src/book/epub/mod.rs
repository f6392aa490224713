//! A book's epub: metadata, chapters and text (`inspect`), the upload without scripts
//! (`sanitize` by the rules of `markup_clean` and `markup_rules`), and the trial (`trial`,
//! with `toc_prune` and `chapter_cut`).

pub(crate) mod chapter_cut;
pub(crate) mod inspect;
pub(crate) mod markup_clean;
pub(crate) mod markup_rules;
pub(crate) mod sanitize;
pub(crate) mod toc_prune;
pub(crate) mod trial;
