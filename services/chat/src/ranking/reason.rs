//! The one plain line that says why a book is shown, built from what of the request it
//! met: "A cosy mystery under $5", "Fantasy about dragons, popular with readers",
//! "Because you liked The Clockmaker's Alibi: same author", "A free children's book".
//! It names only what matched, so it never claims more than the match percentage does.

use super::Reader;
use super::fit::Fit;
use super::index::{Entry, Index};
use super::query::Query;
use super::similar::{self, Shared};

/// How a genre reads in a sentence: the noun, and whether it takes "a".
fn genre_noun(genre: &str) -> (String, bool) {
    let (noun, countable) = match genre.to_lowercase().as_str() {
        "mystery" => ("mystery", true),
        "romance" => ("romance", true),
        "thriller" => ("thriller", true),
        "horror" => ("horror story", true),
        "fantasy" => ("fantasy", false),
        "science fiction" => ("science fiction", false),
        "literary fiction" => ("literary fiction", false),
        "historical fiction" => ("historical fiction", false),
        "poetry" => ("poetry", false),
        "children" => ("children's book", true),
        "young adult" => ("young adult book", true),
        "humour" => ("funny book", true),
        "history" => ("history book", true),
        "politics" => ("book on politics", true),
        "science" => ("science book", true),
        "classics" => ("classic", true),
        "biography" => ("biography", true),
        "self-help" => ("self-help book", true),
        "cookery" => ("cookbook", true),
        "" => ("book", true),
        other => return (format!("{other} book"), true),
    };
    (noun.to_owned(), countable)
}

/// "$5" or "$4.99".
fn dollars(cents: u32) -> String {
    if cents.is_multiple_of(100) {
        format!("${}", cents / 100)
    } else {
        format!("${}.{:02}", cents / 100, cents % 100)
    }
}

/// The reason `entry` is shown for `query`.
pub(crate) fn line(
    query: &Query<'_>,
    index: &Index,
    entry: &Entry,
    fit: &Fit,
    like: Option<&Entry>,
    reader: &Reader<'_>,
) -> String {
    let extra = extra(index, entry, reader);
    if let Some(source) = like
        && fit.like >= fit.genre.max(fit.mood)
    {
        return format!(
            "Because you liked {}: {}{extra}",
            source.doc.title,
            alike(&similar::shared(source, entry), &entry.doc.genre)
        );
    }

    let r = query.request;
    let mut adjectives: Vec<&str> = Vec::new();
    if r.max_price_cents == Some(0) {
        adjectives.push("free");
    }
    if r.recent && fit.recent > 0.0 {
        adjectives.push("new");
    }
    if r.length.is_some() && query.pages.any() && entry.doc.pages > 0 {
        adjectives.push(if query.pages.short { "short" } else { "long" });
    }
    let genre_known = fit.genre > 0.0 || fit.mood > 0.0 || r.audience.is_some();
    let (noun, countable) = if genre_known || fit.like > 0.0 {
        genre_noun(&entry.doc.genre)
    } else {
        ("book".to_owned(), true)
    };
    // "romantic romance", "funny funny book": the noun says it already.
    let said_by = |adjective: &str| noun.contains(adjective.get(..5).unwrap_or(adjective));
    let mut partly: Option<&str> = None;
    for (i, m) in query.moods.iter().enumerate() {
        let adjective = m.cues.adjective;
        if i < 32 && fit.moods_met & (1 << i) != 0 {
            if !said_by(adjective) {
                adjectives.push(adjective);
            }
            partly = None;
            break;
        }
        if partly.is_none() && fit.mood > 0.0 {
            partly = Some(adjective);
        }
    }
    let mut phrase = adjectives.join(", ");
    if !phrase.is_empty() {
        phrase.push(' ');
    }
    phrase.push_str(&noun);
    if countable || !adjectives.is_empty() {
        let article = if phrase.starts_with(['a', 'e', 'i', 'o', 'u']) {
            "an"
        } else {
            "a"
        };
        phrase = format!("{article} {phrase}");
    }

    let met = |i: usize, mask: u32| i < 32 && mask & (1 << i) != 0;
    let topics: Vec<&str> = query
        .keywords
        .iter()
        .enumerate()
        .filter(|(i, k)| met(*i, fit.keywords) && !met(*i, fit.keywords_name_author) && !k.of_name)
        .map(|(_, k)| k.said.as_str())
        .take(3)
        .collect();
    if !topics.is_empty() {
        phrase.push_str(" about ");
        phrase.push_str(&topics.join(" and "));
    }
    if let Some(adjective) = partly {
        phrase.push_str(", partly ");
        phrase.push_str(adjective);
    }
    if fit.author > 0.0 || fit.title >= 1.0 || fit.keywords_name_author != 0 {
        phrase.push_str(" by ");
        phrase.push_str(&entry.doc.author);
    }
    match (r.min_price_cents, r.max_price_cents) {
        (_, Some(0)) => {}
        (Some(lo), Some(hi)) => {
            phrase.push_str(&format!(" between {} and {}", dollars(lo), dollars(hi)))
        }
        (None, Some(hi)) => phrase.push_str(&format!(" under {}", dollars(hi))),
        (Some(lo), None) => phrase.push_str(&format!(" over {}", dollars(lo))),
        (None, None) => {}
    }
    let nothing_named = !genre_known
        && topics.is_empty()
        && partly.is_none()
        && fit.author == 0.0
        && fit.keywords_name_author == 0
        && adjectives.is_empty();
    if nothing_named
        && r.max_price_cents.is_none()
        && r.min_price_cents.is_none()
        && !query.pages.any()
    {
        let (noun, countable) = genre_noun(&entry.doc.genre);
        let article = if countable { "a " } else { "" };
        phrase = if fit.semantic.is_some_and(|s| s > 0.0) {
            format!("Close to what you asked for: {article}{noun}")
        } else {
            format!("Found by the search for your words: {article}{noun}")
        };
        if let Some(tag) = entry.features.tags.first() {
            phrase.push_str(&format!(" about {tag}"));
        }
    }
    capitalise(&format!("{phrase}{extra}"))
}

/// What a book shares with the one the reader liked, in words: "the same author, also a
/// mystery, also about the sea and lighthouses"; "a similar story" when it is only alike
/// as a whole.
fn alike(shared: &[Shared], genre: &str) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut tags: Vec<&str> = Vec::new();
    for s in shared {
        match s {
            Shared::Author => parts.push("the same author".to_owned()),
            Shared::Genre => {
                let (noun, countable) = genre_noun(genre);
                parts.push(format!("also {}{noun}", if countable { "a " } else { "" }));
            }
            Shared::Tag(tag) => tags.push(tag),
        }
    }
    if !tags.is_empty() {
        parts.push(format!("also about {}", tags.join(" and ")));
    }
    if parts.is_empty() {
        return "a similar story".to_owned();
    }
    parts.join(", ")
}

/// ", popular with readers" for a book among the best sellers, ", a genre you read
/// often" for the reader's most read genre.
fn extra(index: &Index, entry: &Entry, reader: &Reader<'_>) -> String {
    let sales = index.sales(&entry.doc.book_id);
    if sales >= 3 && sales * 2 >= index.top_sales {
        return ", popular with readers".to_owned();
    }
    let most_read = reader
        .genres_read
        .iter()
        .max_by(|a, b| a.1.cmp(b.1).then_with(|| b.0.cmp(a.0)))
        .map(|(g, _)| g);
    if most_read.is_some_and(|g| !g.is_empty() && g.eq_ignore_ascii_case(&entry.doc.genre)) {
        return ", a genre you read often".to_owned();
    }
    String::new()
}

fn capitalise(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prices_read_as_dollars() {
        assert_eq!(dollars(500), "$5");
        assert_eq!(dollars(499), "$4.99");
        assert_eq!(dollars(5), "$0.05");
    }

    #[test]
    fn what_two_books_share_reads_as_words() {
        let all = [
            Shared::Author,
            Shared::Genre,
            Shared::Tag("sea".into()),
            Shared::Tag("lighthouses".into()),
        ];
        assert_eq!(
            alike(&all, "Mystery"),
            "the same author, also a mystery, also about sea and lighthouses"
        );
        assert_eq!(alike(&[], "Mystery"), "a similar story");
        assert_eq!(alike(&all[1..2], "Fantasy"), "also fantasy");
    }

    #[test]
    fn genres_read_as_nouns() {
        assert_eq!(genre_noun("Mystery"), ("mystery".to_owned(), true));
        assert_eq!(genre_noun("Fantasy"), ("fantasy".to_owned(), false));
        assert_eq!(genre_noun("Westerns"), ("westerns book".to_owned(), true));
        assert_eq!(capitalise("a cosy mystery"), "A cosy mystery");
    }
}
