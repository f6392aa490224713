//! A book's pdf: page count, chapters, metadata and text (`inspect`), and the trial, a new
//! pdf of the sample's pages (`trial`). The checks and the loading are `common::pdf`'s.

pub(crate) mod inspect;
pub(crate) mod trial;
