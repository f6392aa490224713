//! The analysis of a manuscript (quire-analysis: offline and deterministic, no network)
//! and its fingerprint, both CPU work: run it off the async threads.

use quire_analysis::Input;

use crate::error::{ManuscriptError, Result};
use crate::uploads::extraction::Extracted;
use crate::uploads::fingerprint::{self, Fingerprint};
use crate::uploads::report::Report;

pub struct Analysed {
    pub report: Report,
    pub fingerprint: Fingerprint,
}

/// Analyses `text` with the writer's genre as a hint. A text without a single word (a
/// scanned pdf, a file of punctuation) has nothing to analyse and is refused.
pub fn analyse(text: &Extracted, genre_hint: Option<&str>) -> Result<Analysed> {
    let fingerprint = fingerprint::of(&text.chapters);
    if fingerprint.words == 0 {
        return Err(ManuscriptError::Unreadable(
            "The manuscript has no words to read".into(),
        ));
    }
    let analysis = quire_analysis::analyse(&Input {
        title: &text.title,
        chapters: &text.chapters,
        metadata_authors: &text.authors,
        genre_hint,
    });
    Ok(Analysed {
        report: Report::from(analysis),
        fingerprint,
    })
}
