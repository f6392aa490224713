//! The path every pdf takes into lopdf, book file or manuscript: `guard` checks the bytes
//! first (`scan`, its lexical pass: nesting, encryption, refused filters; `walk`: every
//! object and stream lopdf may read, each stream's filter chain decoded by `chain` and
//! `predictor` under `budget`, object streams by `objstm`, cross-reference data by `xref`,
//! all of it counted by `census`, on the pdf syntax of `syntax` and `dict`), `load` runs
//! lopdf on a deep-stack thread with its panics turned into errors, `page` bounds what a
//! page's text extraction makes lopdf decode, and `outline` and `metadata` read what both
//! callers take from a loaded document. A new bound on what lopdf is given belongs here,
//! so both callers get it.

pub(crate) mod budget;
pub(crate) mod census;
pub(crate) mod chain;
pub(crate) mod dict;
pub(crate) mod guard;
pub(crate) mod load;
pub(crate) mod metadata;
pub(crate) mod objstm;
pub(crate) mod outline;
pub(crate) mod page;
pub(crate) mod predictor;
pub(crate) mod scan;
pub(crate) mod syntax;
pub(crate) mod walk;
pub(crate) mod xref;
