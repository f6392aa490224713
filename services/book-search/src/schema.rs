//! The index schema, the text analyzer and the mapping of a [`BookDoc`] onto a tantivy document.

use tantivy::schema::{
    FAST, Field, INDEXED, IndexRecordOption, STORED, STRING, Schema, TextFieldIndexing, TextOptions,
};
use tantivy::tokenizer::{
    AsciiFoldingFilter, LowerCaser, RemoveLongFilter, SimpleTokenizer, TextAnalyzer,
    TokenizerManager,
};
use tantivy::{TantivyDocument, Term};
use uuid::Uuid;

use crate::BookDoc;

/// Name under which [`analyzer`] is registered; part of the on-disk schema.
pub(crate) const TOKENIZER: &str = "quire_en";

/// Fast-field names read by collectors (they address columns by name).
pub(crate) const BOOK_ID: &str = "book_id";
pub(crate) const GENRE: &str = "genre";
pub(crate) const PUBLISHED_AT: &str = "published_at";
pub(crate) const VERSION: &str = "version";

/// Sort key of a book without a publication date: last when browsing newest first.
pub(crate) const UNPUBLISHED: i64 = i64::MIN;

/// Lowercases and folds accents ("Émile" finds "emile"). No stemming on purpose: stems break
/// as-you-type prefixes ("happin" would miss the stem "happi"); fuzzy matching covers plurals.
pub(crate) fn analyzer() -> TextAnalyzer {
    TextAnalyzer::builder(SimpleTokenizer::default())
        .filter(RemoveLongFilter::limit(40))
        .filter(LowerCaser)
        .filter(AsciiFoldingFilter)
        .build()
}

pub(crate) fn tokenizers() -> TokenizerManager {
    let manager = TokenizerManager::default();
    manager.register(TOKENIZER, analyzer());
    manager
}

/// Handles of every field, resolved once at open.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Fields {
    pub book_id: Field,
    pub title: Field,
    pub author: Field,
    pub tags: Field,
    pub short_summary: Field,
    pub long_summary: Field,
    /// Lowercased exact tags, for the tag filter.
    pub tag_keys: Field,
    /// The genre as the catalog spells it: a fast column for the counts.
    pub genre: Field,
    /// Lowercased exact genre, for the genre filter.
    pub genre_key: Field,
    pub price_cents: Field,
    pub published_at: Field,
    pub assessment_score: Field,
    pub listed: Field,
    pub version: Field,
}

pub(crate) fn build() -> (Schema, Fields) {
    // Frequencies but no positions: there are no phrase queries, and positions would double
    // the postings the fuzzy expansions walk.
    let text = TextOptions::default().set_indexing_options(
        TextFieldIndexing::default()
            .set_tokenizer(TOKENIZER)
            .set_index_option(IndexRecordOption::WithFreqs),
    );
    let mut b = Schema::builder();
    let fields = Fields {
        book_id: b.add_text_field(BOOK_ID, STRING | STORED | FAST),
        title: b.add_text_field("title", text.clone()),
        author: b.add_text_field("author", text.clone()),
        tags: b.add_text_field("tags", text.clone()),
        short_summary: b.add_text_field("short_summary", text.clone()),
        long_summary: b.add_text_field("long_summary", text),
        tag_keys: b.add_text_field("tag_keys", STRING),
        genre: b.add_text_field(GENRE, TextOptions::default().set_fast(None)),
        genre_key: b.add_text_field("genre_key", STRING),
        price_cents: b.add_i64_field("price_cents", INDEXED | FAST),
        published_at: b.add_i64_field(PUBLISHED_AT, FAST),
        assessment_score: b.add_f64_field("assessment_score", FAST),
        listed: b.add_bool_field("listed", INDEXED),
        version: b.add_i64_field(VERSION, FAST | STORED),
    };
    (b.build(), fields)
}

/// Canonical key of a genre or tag: what filters compare.
pub(crate) fn keyword(s: &str) -> String {
    s.trim().to_lowercase()
}

pub(crate) fn id_term(fields: &Fields, id: Uuid) -> Term {
    let mut buf = Uuid::encode_buffer();
    Term::from_field_text(fields.book_id, id.hyphenated().encode_lower(&mut buf))
}

/// The tantivy document of a book. An unlisted book keeps only its id, version and the
/// `listed=false` flag: a tombstone that holds its version against stale events.
pub(crate) fn to_document(fields: &Fields, doc: &BookDoc) -> TantivyDocument {
    let mut d = TantivyDocument::new();
    let mut buf = Uuid::encode_buffer();
    d.add_text(
        fields.book_id,
        doc.book_id.hyphenated().encode_lower(&mut buf),
    );
    d.add_i64(fields.version, doc.version);
    d.add_bool(fields.listed, doc.listed);
    if !doc.listed {
        return d;
    }
    d.add_text(fields.title, &doc.title);
    d.add_text(fields.author, &doc.author);
    d.add_text(fields.short_summary, &doc.short_summary);
    d.add_text(fields.long_summary, &doc.long_summary);
    for tag in &doc.tags {
        let key = keyword(tag);
        if key.is_empty() {
            continue;
        }
        d.add_text(fields.tags, tag);
        d.add_text(fields.tag_keys, key);
    }
    let genre = doc.genre.trim();
    if !genre.is_empty() {
        d.add_text(fields.genre, genre);
        d.add_text(fields.genre_key, keyword(genre));
    }
    d.add_i64(fields.price_cents, doc.price_cents);
    d.add_i64(fields.published_at, doc.published_at.unwrap_or(UNPUBLISHED));
    d.add_f64(fields.assessment_score, doc.assessment_score);
    d
}

#[cfg(test)]
mod tests {
    use tantivy::tokenizer::TokenStream;

    use super::*;

    #[test]
    fn the_analyzer_lowercases_folds_and_splits_on_punctuation() {
        let mut a = analyzer();
        let mut s = a.token_stream("Moby-Dick, Émile's CAFÉ");
        let mut out = Vec::new();
        while let Some(t) = s.next() {
            out.push(t.text.clone());
        }
        assert_eq!(out, vec!["moby", "dick", "emile", "s", "cafe"]);
    }
}
