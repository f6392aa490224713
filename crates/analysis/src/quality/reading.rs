//! What the quality measures read of a text, by its kind: the words and the sentences.
//!
//! - Prose: every word, and the sentences of the text as [`crate::text`] splits them.
//! - Verse: every word of the poems, but not their headings (a poem's number, "BOOK
//!   IV"); a sentence runs on across line breaks and across a stanza break that ends
//!   without a full stop, so a text printed one line to a paragraph still reads in
//!   sentences, not lines.
//! - A play: the words of the speeches only (speakers' names and stage directions are
//!   not text, as the genre's reading of a play has it), in the sentences of the
//!   speeches.

use std::ops::Range;

use super::Kind;
use crate::doc::{Doc, Token};
use crate::genre::Form;

/// A verse sentence is not run on across stanzas past this many words: unpunctuated
/// verse would otherwise read as one endless sentence.
const MAX_VERSE_SENTENCE: usize = 120;

/// The words and sentences the measures read.
#[derive(Debug)]
pub(crate) struct Reading {
    /// The words read, in order.
    pub tokens: Vec<Token>,
    /// The sentences, as ranges of `tokens`, never empty.
    pub sentences: Vec<Range<usize>>,
    /// Words read in each chapter.
    pub chapter_words: Vec<usize>,
    /// Words of the whole text, read or not.
    pub all_words: usize,
}

impl Reading {
    /// What `doc`, a text of `kind`, gives the measures to read.
    pub fn of(doc: &Doc, kind: Kind) -> Self {
        let mut reading = Reading {
            tokens: Vec::with_capacity(doc.tokens.len()),
            sentences: Vec::with_capacity(doc.sentences.len()),
            chapter_words: vec![0; doc.chapters.len()],
            all_words: doc.tokens.len(),
        };
        match kind {
            Kind::Prose => {
                for s in &doc.sentences {
                    reading.push(doc.sentence_tokens(s), s.chapter, false);
                }
            }
            Kind::Verse => reading.read_verse(doc),
            Kind::Play => reading.read_play(doc),
        }
        reading
    }

    /// The words of sentence `i`.
    pub fn sentence(&self, range: &Range<usize>) -> &[Token] {
        self.tokens.get(range.clone()).unwrap_or_default()
    }

    /// The length in words of every sentence.
    pub fn lengths(&self) -> Vec<usize> {
        self.sentences.iter().map(|r| r.len()).collect()
    }

    /// Adds `tokens` of chapter `chapter`, as a sentence of their own or, with
    /// `run_on`, at the end of the last sentence.
    fn push(&mut self, tokens: &[Token], chapter: usize, run_on: bool) {
        if tokens.is_empty() {
            return;
        }
        let start = self.tokens.len();
        self.tokens.extend_from_slice(tokens);
        if let Some(words) = self.chapter_words.get_mut(chapter) {
            *words += tokens.len();
        }
        match self.sentences.last_mut() {
            Some(last) if run_on && last.end == start => last.end = self.tokens.len(),
            _ => self.sentences.push(start..self.tokens.len()),
        }
    }

    fn read_verse(&mut self, doc: &Doc) {
        // Whether the sentence read last may go on into the next one (same chapter).
        let mut open: Option<usize> = None;
        for s in &doc.sentences {
            let text = doc.sentence_text(s);
            if !text.chars().any(char::is_lowercase) {
                open = None;
                continue;
            }
            let run_on = open == Some(s.chapter)
                && self
                    .sentences
                    .last()
                    .is_some_and(|last| last.len() < MAX_VERSE_SENTENCE);
            self.push(doc.sentence_tokens(s), s.chapter, run_on);
            open = runs_on(text).then_some(s.chapter);
        }
    }

    fn read_play(&mut self, doc: &Doc) {
        let spoken = Form::Play.reading(doc.text).pieces;
        // The pieces are slices of the text: their byte ranges, in order.
        let base = doc.text.as_ptr() as usize;
        let ranges: Vec<Range<usize>> = spoken
            .iter()
            .map(|p| {
                let start = (p.as_ptr() as usize).saturating_sub(base);
                start..start + p.len()
            })
            .collect();
        let mut r = 0;
        let mut kept: Vec<Token> = Vec::new();
        for s in &doc.sentences {
            kept.clear();
            for t in doc.sentence_tokens(s) {
                while r < ranges.len() && ranges[r].end <= t.start() {
                    r += 1;
                }
                if ranges.get(r).is_some_and(|range| range.start <= t.start()) {
                    kept.push(*t);
                }
            }
            self.push(&kept, s.chapter, false);
        }
    }
}

/// Whether a verse sentence that ends where `text` ends may go on into the next
/// paragraph: it ends without a full stop, after a comma, semicolon, colon or dash, or
/// is a single line (a poem printed one line to a paragraph).
fn runs_on(text: &str) -> bool {
    let end = text.trim_end_matches(['"', '\'', '\u{201D}', '\u{2019}', ')', '*', '_']);
    if end.ends_with(['.', '!', '?', '\u{2026}']) {
        return false;
    }
    end.ends_with([',', ';', ':', '-', '\u{2013}', '\u{2014}']) || !text.contains('\n')
}

#[cfg(test)]
mod tests {
    use super::*;

    const STANZAS: &str = "From the besieged Ardea all in post,\nBorne by the trustless wings \
        of false desire,\nLust-breathed Tarquin leaves the Roman host,\nAnd to Collatium bears \
        the lightless fire.\n\nWhich, in pale embers hid, lurks to aspire\nAnd girdle with \
        embracing flames the waist\nOf Collatine's fair love, Lucrece the chaste.\n";

    fn lengths(text: &str, kind: Kind) -> Vec<usize> {
        Reading::of(&Doc::single(text), kind).lengths()
    }

    #[test]
    fn verse_reads_in_sentences_however_its_lines_are_printed() {
        assert_eq!(lengths(STANZAS, Kind::Verse), vec![29, 22]);
        // One line to a paragraph, as some epub and pdf files give verse.
        let spaced = STANZAS.replace('\n', "\n\n");
        assert_eq!(lengths(&spaced, Kind::Verse), vec![29, 22]);
        let prose = lengths(&spaced, Kind::Prose);
        assert_eq!(prose.len(), 7, "{prose:?}");
        // Headings are not read; a stanza ending in a full stop ends its sentence.
        let numbered = format!("XVIII\n\n{STANZAS}\n\nXIX\n\n{STANZAS}");
        assert_eq!(lengths(&numbered, Kind::Verse), vec![29, 22, 29, 22]);
    }

    #[test]
    fn unpunctuated_verse_is_not_one_endless_sentence() {
        let stanza = "the heron stands in the shallows\nlike a question no one asked\n";
        let poem = format!("{stanza}\n").repeat(40);
        let got = lengths(&poem, Kind::Verse);
        assert_eq!(got.len(), 40, "{got:?}");
    }

    #[test]
    fn a_play_reads_as_its_speeches() {
        let play = "Enter Barnardo and Francisco.\n\n  Bar. Who's there?\n  Fran. Nay answer \
                    me: Stand & vnfold your selfe\n\n  Bar. Long liue the King\n\nExeunt.\n";
        let doc = Doc::single(play);
        let reading = Reading::of(&doc, Kind::Play);
        let words: Vec<Vec<&str>> = reading
            .sentences
            .iter()
            .map(|r| reading.sentence(r).iter().map(|t| doc.raw(t)).collect())
            .collect();
        assert_eq!(
            words,
            vec![
                vec!["Who's", "there"],
                vec!["Nay", "answer", "me", "Stand", "vnfold", "your", "selfe"],
                vec!["Long", "liue", "the", "King"],
            ]
        );
        assert_eq!(reading.all_words, doc.tokens.len());
        assert_eq!(reading.chapter_words, vec![13]);
    }
}
