//! The path every pdf takes into lopdf, book file or manuscript: `guard` checks the bytes
//! first (every stream inflated under a budget, nesting, encryption, refused filters, with
//! `scan` as its lexical pass), `load` runs lopdf on a deep-stack thread with its panics
//! turned into errors, and `outline` and `metadata` read what both callers take from a
//! loaded document. A new bound on what lopdf is given belongs here, so both callers get it.

pub(crate) mod guard;
pub(crate) mod load;
pub(crate) mod metadata;
pub(crate) mod outline;
pub(crate) mod scan;
