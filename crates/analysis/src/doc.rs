//! The manuscript tokenised once for every analysis: sentences, words with their
//! lowercase forms interned as numbers, and the chapter each sentence belongs to.
//!
//! Interning keeps a novel's ~200,000 words as small fixed-size records, so counting and
//! graph building index vectors instead of hashing strings again.

use std::ops::Range;

use rustc_hash::FxHashMap;

use crate::text;

/// One word of the text (12 bytes: a novel has ~200,000 of them).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Token {
    /// Byte offset in [`Doc::text`].
    start: u32,
    /// Byte length.
    len: u32,
    /// Id of the lowercase form in [`Vocab`].
    pub word: u32,
}

impl Token {
    /// Byte offset of the word in [`Doc::text`].
    pub fn start(&self) -> usize {
        self.start as usize
    }

    /// Byte offset just past the word in [`Doc::text`].
    pub fn end(&self) -> usize {
        self.start as usize + self.len as usize
    }
}

/// Texts are analysed up to this many bytes, so word offsets fit in 32 bits.
const MAX_TEXT: usize = u32::MAX as usize;

/// One sentence of the text.
#[derive(Debug, Clone)]
pub(crate) struct Sentence {
    /// Byte range in [`Doc::text`].
    pub span: Range<usize>,
    /// Range of its words in [`Doc::tokens`].
    pub tokens: Range<usize>,
    /// Index of its chapter.
    pub chapter: usize,
}

/// One chapter of the text.
#[derive(Debug, Clone)]
pub(crate) struct Chapter<'a> {
    pub title: &'a str,
    /// Range of its sentences in [`Doc::sentences`].
    pub sentences: Range<usize>,
    /// Range of its words in [`Doc::tokens`].
    pub tokens: Range<usize>,
}

/// Lowercase word forms and their ids.
#[derive(Debug, Default)]
pub(crate) struct Vocab {
    forms: Vec<Box<str>>,
    ids: FxHashMap<Box<str>, u32>,
    stop: Vec<bool>,
}

impl Vocab {
    fn intern(&mut self, lower: &str) -> u32 {
        if let Some(&id) = self.ids.get(lower) {
            return id;
        }
        let id = u32::try_from(self.forms.len()).unwrap_or(u32::MAX);
        self.forms.push(lower.into());
        self.ids.insert(lower.into(), id);
        self.stop.push(text::is_stop_word(lower));
        id
    }

    /// The lowercase form of a word id.
    pub fn form(&self, id: u32) -> &str {
        self.forms.get(id as usize).map_or("", |f| f)
    }

    /// The id of a lowercase form, if the text has it.
    pub fn id(&self, lower: &str) -> Option<u32> {
        self.ids.get(lower).copied()
    }

    /// Whether a word id is a stop word.
    pub fn is_stop(&self, id: u32) -> bool {
        self.stop.get(id as usize).copied().unwrap_or(false)
    }

    /// Number of distinct forms.
    pub fn len(&self) -> usize {
        self.forms.len()
    }

    /// For every word id, the id of its stem group (the first form with that stem), so
    /// "whale" and "whales" count as one word.
    pub fn stem_groups(&self) -> Vec<u32> {
        let mut first: FxHashMap<String, u32> = FxHashMap::default();
        self.forms
            .iter()
            .enumerate()
            .map(|(id, form)| {
                let id = u32::try_from(id).unwrap_or(u32::MAX);
                *first.entry(text::stem(form)).or_insert(id)
            })
            .collect()
    }
}

/// The tokenised text.
#[derive(Debug)]
pub(crate) struct Doc<'a> {
    pub text: &'a str,
    pub chapters: Vec<Chapter<'a>>,
    pub sentences: Vec<Sentence>,
    pub tokens: Vec<Token>,
    pub vocab: Vocab,
}

impl<'a> Doc<'a> {
    /// Tokenises `text`, whose chapters are the given `(title, byte range)` pairs in order.
    /// Text past [`MAX_TEXT`] bytes is left out.
    pub fn new(text: &'a str, chapters: &[(&'a str, Range<usize>)]) -> Self {
        let mut doc = Doc {
            text,
            chapters: Vec::with_capacity(chapters.len()),
            sentences: Vec::new(),
            // English averages under 6 bytes a word with its space and punctuation.
            tokens: Vec::with_capacity(text.len().min(MAX_TEXT) / 5 + 16),
            vocab: Vocab::default(),
        };
        for (index, (title, span)) in chapters.iter().enumerate() {
            let span = span.start.min(MAX_TEXT)..span.end.min(MAX_TEXT);
            let body = text.get(span.clone()).unwrap_or("");
            let first_sentence = doc.sentences.len();
            let first_token = doc.tokens.len();
            for range in text::sentence_spans(body) {
                let sentence_tokens = doc.tokens.len();
                for word in text::word_spans(&body[range.clone()]) {
                    let raw = &body[range.start + word.start..range.start + word.end];
                    let id = doc.vocab.intern(&text::normalise(raw));
                    let start = span.start + range.start + word.start;
                    doc.tokens.push(Token {
                        start: u32::try_from(start).unwrap_or(u32::MAX),
                        len: u32::try_from(word.len()).unwrap_or(0),
                        word: id,
                    });
                }
                doc.sentences.push(Sentence {
                    span: span.start + range.start..span.start + range.end,
                    tokens: sentence_tokens..doc.tokens.len(),
                    chapter: index,
                });
            }
            doc.chapters.push(Chapter {
                title,
                sentences: first_sentence..doc.sentences.len(),
                tokens: first_token..doc.tokens.len(),
            });
        }
        doc
    }

    /// A single-chapter document of the whole text.
    pub fn single(text: &'a str) -> Self {
        Self::new(text, &[("", 0..text.len())])
    }

    /// The text of a word as written.
    pub fn raw(&self, token: &Token) -> &'a str {
        self.text.get(token.start()..token.end()).unwrap_or("")
    }

    /// The text of a sentence.
    pub fn sentence_text(&self, sentence: &Sentence) -> &'a str {
        self.text.get(sentence.span.clone()).unwrap_or("")
    }

    /// The words of a sentence.
    pub fn sentence_tokens(&self, sentence: &Sentence) -> &[Token] {
        &self.tokens[sentence.tokens.clone()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_sentences_and_chapters_line_up() {
        let text = "It rained. Mr. Ahab said no.\n\nThe end came";
        let split = text.find("\n\n").unwrap();
        let doc = Doc::new(text, &[("One", 0..split), ("Two", split + 2..text.len())]);
        assert_eq!(doc.chapters.len(), 2);
        assert_eq!(doc.sentences.len(), 3);
        assert_eq!(doc.sentence_text(&doc.sentences[1]), "Mr. Ahab said no.");
        assert_eq!(doc.sentences[2].chapter, 1);
        let words: Vec<&str> = doc
            .sentence_tokens(&doc.sentences[1])
            .iter()
            .map(|t| doc.raw(t))
            .collect();
        assert_eq!(words, vec!["Mr", "Ahab", "said", "no"]);
        let ahab = doc.sentence_tokens(&doc.sentences[1])[1].word;
        assert_eq!(doc.vocab.form(ahab), "ahab");
        assert_eq!(doc.vocab.id("ahab"), Some(ahab));
        assert!(doc.vocab.is_stop(doc.vocab.id("the").unwrap()));
        assert_eq!(doc.chapters[1].tokens, 6..9);
    }

    #[test]
    fn empty_text_has_nothing() {
        let doc = Doc::single("");
        assert!(doc.sentences.is_empty() && doc.tokens.is_empty());
        assert_eq!(doc.vocab.len(), 0);
    }
}
