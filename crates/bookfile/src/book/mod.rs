//! The catalog's book files (epub, pdf, txt): what a file really is (`sniff`), its
//! metadata, chapters and plain text, an epub without scripts, and the free trial cut by
//! the one sample rule (`trial_rule`, `front_matter`). It uses `common`, never
//! `manuscript`.

pub(crate) mod epub;
pub(crate) mod front_matter;
pub(crate) mod model;
pub(crate) mod pdf;
pub(crate) mod sniff;
pub(crate) mod trial_rule;
pub(crate) mod txt;
