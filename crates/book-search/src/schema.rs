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
/// The book id's two halves as numbers: a hit's id is read straight from these columns,
/// where the text column would decompress a dictionary block for every hit.
pub(crate) const ID_HIGH: &str = "id_high";
pub(crate) const ID_LOW: &str = "id_low";
pub(crate) const GENRE: &str = "genre";
pub(crate) const PUBLISHED_AT: &str = "published_at";
pub(crate) const VERSION: &str = "version";

/// Sort key of a book without a publication date: last when browsing newest first.
pub(crate) const UNPUBLISHED: i64 = i64::MIN;

/// The genre column's value for a book without one (and for tombstones): counted nowhere.
pub(crate) const NO_GENRE: &str = "";

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
    pub id_high: Field,
    pub id_low: Field,
    pub title: Field,
    pub author: Field,
    pub tags: Field,
    pub short_summary: Field,
    pub long_summary: Field,
    /// Title, author and tags together, where typos and prefixes are matched: one term
    /// dictionary walk per word instead of one per field.
    pub names: Field,
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
    // Fuzzy and prefix matches score a constant: document ids are all they read.
    let names = TextOptions::default().set_indexing_options(
        TextFieldIndexing::default()
            .set_tokenizer(TOKENIZER)
            .set_index_option(IndexRecordOption::Basic),
    );
    let mut b = Schema::builder();
    let fields = Fields {
        book_id: b.add_text_field(BOOK_ID, STRING | STORED | FAST),
        id_high: b.add_u64_field(ID_HIGH, FAST),
        id_low: b.add_u64_field(ID_LOW, FAST),
        title: b.add_text_field("title", text.clone()),
        author: b.add_text_field("author", text.clone()),
        tags: b.add_text_field("tags", text.clone()),
        short_summary: b.add_text_field("short_summary", text.clone()),
        long_summary: b.add_text_field("long_summary", text),
        names: b.add_text_field("names", names),
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
/// `listed=false` flag (a tombstone that holds its version against stale events), plus
/// placeholder values in the fast columns: a column every document fills is read by doc id
/// directly, while one with gaps goes through a rank lookup on every read (a sixth of the
/// search time when a few tombstones were around).
pub(crate) fn to_document(fields: &Fields, doc: &BookDoc) -> TantivyDocument {
    let mut d = TantivyDocument::new();
    let mut buf = Uuid::encode_buffer();
    d.add_text(
        fields.book_id,
        doc.book_id.hyphenated().encode_lower(&mut buf),
    );
    let (high, low) = doc.book_id.as_u64_pair();
    d.add_u64(fields.id_high, high);
    d.add_u64(fields.id_low, low);
    d.add_i64(fields.version, doc.version);
    d.add_bool(fields.listed, doc.listed);
    if !doc.listed {
        d.add_text(fields.genre, NO_GENRE);
        d.add_i64(fields.price_cents, 0);
        d.add_i64(fields.published_at, UNPUBLISHED);
        d.add_f64(fields.assessment_score, 0.0);
        return d;
    }
    d.add_text(fields.title, &doc.title);
    d.add_text(fields.author, &doc.author);
    d.add_text(fields.names, &doc.title);
    d.add_text(fields.names, &doc.author);
    d.add_text(fields.short_summary, &doc.short_summary);
    d.add_text(fields.long_summary, &doc.long_summary);
    for tag in &doc.tags {
        let key = keyword(tag);
        if key.is_empty() {
            continue;
        }
        d.add_text(fields.tags, tag);
        d.add_text(fields.names, tag);
        d.add_text(fields.tag_keys, key);
    }
    let genre = doc.genre.trim();
    d.add_text(fields.genre, genre);
    if !genre.is_empty() {
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
