//! Turning a [`SearchQuery`] into tantivy queries: the per-word alternatives (exact, fuzzy,
//! prefix) over the weighted text fields, and the filters.

use std::ops::Bound;
use std::sync::Arc;

use tantivy::Term;
use tantivy::query::{
    BooleanQuery, BoostQuery, ConstScoreQuery, Occur, Query, RangeQuery, TermQuery,
};
use tantivy::schema::{Field, IndexRecordOption};
use tantivy::tokenizer::TokenStream;

use crate::SearchQuery;
use crate::automata::{Automata, AutomatonQuery, Matches};
use crate::schema::{Fields, analyzer, keyword};

/// More words than this are ignored: each word costs several term lookups and automata.
const MAX_TERMS: usize = 12;
/// What a fuzzy (or prefix) match scores relative to the field's weight. Exact matches also
/// add their BM25 score on top, so they always rank above fuzzy-only ones.
const FUZZY_WEIGHT: f32 = 0.5;
const PREFIX_WEIGHT: f32 = 0.6;

/// Very common English words: dropped from a query that has other words, so "pride and
/// prejudice" is judged on its two meaningful words. Only the commonest of the platform's
/// stop words (quire-english, a unit test checks), deliberately: people search by title,
/// and a title may be mostly function words ("Never Let Me Go" would be searched as "go").
const STOP_WORDS: &[&str] = &[
    "a", "an", "and", "are", "as", "at", "be", "by", "for", "from", "in", "into", "is", "it", "of",
    "on", "or", "the", "to", "with",
];

/// One word of the query and how loosely it may match.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct QueryTerm {
    pub text: String,
    /// 0 for words under 4 characters, 1 for 4-7, 2 for 8 and more.
    pub distance: u8,
    /// The word the user is still typing: also matched as a prefix.
    pub prefix: bool,
}

/// Splits the free text into words with the index's analyzer.
pub(crate) fn terms(text: &str) -> Vec<QueryTerm> {
    let mut analyzer = analyzer();
    let mut stream = analyzer.token_stream(text);
    let mut words: Vec<String> = Vec::new();
    let mut last_token = None;
    while let Some(token) = stream.next() {
        if !words.contains(&token.text) {
            words.push(token.text.clone());
        }
        last_token = Some(token.text.clone());
    }
    // Still typing when the text does not end with a separator ("moby d", not "moby d ").
    let typing = text.chars().last().is_some_and(|c| c.is_alphanumeric());
    let last = last_token.filter(|_| typing);
    if words
        .iter()
        .any(|w| !STOP_WORDS.contains(&w.as_str()) || Some(w) == last.as_ref())
    {
        words.retain(|w| !STOP_WORDS.contains(&w.as_str()) || Some(w) == last.as_ref());
    }
    words.truncate(MAX_TERMS);
    words
        .into_iter()
        .map(|text| {
            let chars = text.chars().count();
            let distance = match chars {
                0..=3 => 0,
                4..=7 => 1,
                _ => 2,
            };
            let prefix = last.as_ref() == Some(&text);
            QueryTerm {
                text,
                distance,
                prefix,
            }
        })
        .collect()
}

/// Exact fields searched, with their weights.
fn exact_fields(f: &Fields) -> [(Field, f32); 5] {
    [
        (f.title, 3.0),
        (f.author, 2.0),
        (f.tags, 1.5),
        (f.short_summary, 1.0),
        (f.long_summary, 1.0),
    ]
}

/// Where typos and prefixes are tolerated: title, author and tags, the short texts people
/// type from memory, indexed together in one field so each word walks one term dictionary
/// (that walk was the largest cost of a search). Summaries only match exactly: their
/// vocabulary is large and a fuzzy hit there says little about the book. The weight sits
/// between the title's and the tags'.
fn loose_fields(f: &Fields) -> [(Field, f32); 1] {
    [(f.names, 2.0)]
}

fn exact(field: Field, word: &str) -> Box<dyn Query> {
    Box::new(TermQuery::new(
        Term::from_field_text(field, word),
        IndexRecordOption::WithFreqs,
    ))
}

/// The fuzzy and prefix alternatives of one word in one field (none for a short, finished word).
fn loose<'a>(
    automata: &'a Automata,
    matches: &'a Arc<Matches>,
    field: Field,
    t: &'a QueryTerm,
) -> impl Iterator<Item = (Box<dyn Query>, f32)> + 'a {
    let fuzzy = (t.distance > 0).then(|| {
        let q: Box<dyn Query> = Box::new(AutomatonQuery::new(
            field,
            automata.get(&t.text, t.distance, false),
            matches.clone(),
        ));
        (q, FUZZY_WEIGHT)
    });
    let prefix = t.prefix.then(|| {
        let q: Box<dyn Query> = Box::new(AutomatonQuery::new(
            field,
            automata.get(&t.text, 0, true),
            matches.clone(),
        ));
        (q, PREFIX_WEIGHT)
    });
    fuzzy.into_iter().chain(prefix)
}

/// The scored text query: any word may match (partial matches still rank), each word by any of
/// its alternatives in any field. One flat union of every word's alternatives: it scores the
/// same sum as a union per word inside a union of words, and each matching document passes
/// one union instead of two (nested unions re-buffer every document).
pub(crate) fn text_query(
    f: &Fields,
    automata: &Automata,
    matches: &Arc<Matches>,
    terms: &[QueryTerm],
) -> Box<dyn Query> {
    let mut alternatives: Vec<(Occur, Box<dyn Query>)> = Vec::with_capacity(terms.len() * 7);
    for t in terms {
        for (field, boost) in exact_fields(f) {
            alternatives.push((
                Occur::Should,
                Box::new(BoostQuery::new(exact(field, &t.text), boost)),
            ));
        }
        for (field, boost) in loose_fields(f) {
            for (q, weight) in loose(automata, matches, field, t) {
                alternatives.push((Occur::Should, Box::new(BoostQuery::new(q, boost * weight))));
            }
        }
    }
    Box::new(BooleanQuery::new(alternatives))
}

/// Unscored queries telling whether a document holds a word exactly, and (when the word has
/// loose alternatives) whether it holds it fuzzily or as a prefix.
pub(crate) fn word_checks(
    f: &Fields,
    automata: &Automata,
    matches: &Arc<Matches>,
    t: &QueryTerm,
) -> (Box<dyn Query>, Option<Box<dyn Query>>) {
    let exact_any = BooleanQuery::new(
        exact_fields(f)
            .into_iter()
            .map(|(field, _)| (Occur::Should, exact(field, &t.text)))
            .collect(),
    );
    let loose_any: Vec<(Occur, Box<dyn Query>)> = loose_fields(f)
        .into_iter()
        .flat_map(|(field, _)| loose(automata, matches, field, t))
        .map(|(q, _)| (Occur::Should, q))
        .collect();
    let loose_any =
        (!loose_any.is_empty()).then(|| Box::new(BooleanQuery::new(loose_any)) as Box<dyn Query>);
    (Box::new(exact_any), loose_any)
}

fn filter(q: Box<dyn Query>) -> (Occur, Box<dyn Query>) {
    (Occur::Must, Box::new(ConstScoreQuery::new(q, 0.0)))
}

fn keyword_filter(field: Field, key: &str) -> (Occur, Box<dyn Query>) {
    filter(Box::new(TermQuery::new(
        Term::from_field_text(field, key),
        IndexRecordOption::Basic,
    )))
}

/// The request's filters, each a required clause that adds no score, plus listed-only when
/// there is no text: a tombstone holds no text, so no text query can match it, and leaving
/// out that clause (nearly every document) saves intersecting with it.
pub(crate) fn filters(f: &Fields, q: &SearchQuery, has_text: bool) -> Vec<(Occur, Box<dyn Query>)> {
    let mut clauses = Vec::new();
    if !has_text {
        clauses.push(filter(Box::new(TermQuery::new(
            Term::from_field_bool(f.listed, true),
            IndexRecordOption::Basic,
        ))));
    }
    if let Some(genre) = q.genre.as_deref().map(keyword).filter(|g| !g.is_empty()) {
        clauses.push(keyword_filter(f.genre_key, &genre));
    }
    for tag in q.tags.iter().map(|t| keyword(t)).filter(|t| !t.is_empty()) {
        clauses.push(keyword_filter(f.tag_keys, &tag));
    }
    if let Some(author) = q.author.as_deref() {
        let mut analyzer = analyzer();
        let mut stream = analyzer.token_stream(author);
        while let Some(token) = stream.next() {
            clauses.push(keyword_filter(f.author, &token.text));
        }
    }
    let bound = |v: Option<i64>| match v {
        Some(cents) => Bound::Included(Term::from_field_i64(f.price_cents, cents)),
        None => Bound::Unbounded,
    };
    if q.price_min_cents.is_some() || q.price_max_cents.is_some() {
        clauses.push(filter(Box::new(RangeQuery::new(
            bound(q.price_min_cents),
            bound(q.price_max_cents),
        ))));
    }
    clauses
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<(String, u8, bool)> {
        terms(text)
            .into_iter()
            .map(|t| (t.text, t.distance, t.prefix))
            .collect()
    }

    #[test]
    fn distances_grow_with_word_length_and_the_typed_word_is_a_prefix() {
        assert_eq!(
            words("Cat Pride Prejudice"),
            vec![
                ("cat".into(), 0, false),
                ("pride".into(), 1, false),
                ("prejudice".into(), 2, true),
            ]
        );
    }

    #[test]
    fn a_trailing_separator_ends_the_prefix() {
        assert_eq!(words("moby "), vec![("moby".into(), 1, false)]);
        assert_eq!(
            words("moby-d"),
            vec![("moby".into(), 1, false), ("d".into(), 0, true)]
        );
    }

    #[test]
    fn stop_words_go_unless_they_are_all_there_is_or_being_typed() {
        assert_eq!(words("pride and prejudice ").len(), 2);
        assert_eq!(words("the "), vec![("the".into(), 0, false)]);
        assert_eq!(
            words("war and"),
            vec![("war".into(), 0, false), ("and".into(), 0, true)]
        );
    }

    #[test]
    fn the_stop_words_dropped_are_english_stop_words_and_titles_keep_the_rest() {
        for word in STOP_WORDS {
            assert!(quire_english::is_stop_word(word), "{word}");
        }
        assert_eq!(words("never let me go").len(), 4);
    }

    #[test]
    fn repeated_words_count_once_and_empty_text_has_none() {
        assert_eq!(words("sea sea SEA").len(), 1);
        assert_eq!(
            words("sea pride sea"),
            vec![("sea".into(), 0, true), ("pride".into(), 1, false)]
        );
        assert!(words("  -- ").is_empty());
    }
}
