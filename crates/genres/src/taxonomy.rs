//! The genres of the platform, and how a writer's or reader's own genre name maps onto
//! them.
//!
//! The names follow the catalog and the demo shop where they overlap ("Science Fiction",
//! "Humour", "Children", "History", "Politics", "Biography", ...). Names the catalog uses
//! that are not content genres map onto the nearest one ("Classics" and "Fiction" onto
//! "Literary Fiction", "Crime" onto "Mystery"); the README of quire-analysis's
//! `data/genres` has the table.

/// Genres of the taxonomy, in a fixed order; a genre's id is its index here.
pub const GENRES: &[&str] = &[
    "Mystery",
    "Thriller",
    "Romance",
    "Fantasy",
    "Science Fiction",
    "Horror",
    "Literary Fiction",
    "Historical Fiction",
    "Poetry",
    "Children",
    "Young Adult",
    "Humour",
    "History",
    "Politics",
    "Biography",
    "Science",
    "Self-help",
    "Cookery",
];

/// Other names writers and shops use, as (lookup key, genre). Keys are in the form
/// [`lookup_key`] makes: lowercase, "&" as "and", punctuation as single spaces.
const SYNONYMS: &[(&str, &str)] = &[
    ("crime", "Mystery"),
    ("crime fiction", "Mystery"),
    ("detective", "Mystery"),
    ("detective fiction", "Mystery"),
    ("whodunit", "Mystery"),
    ("whodunnit", "Mystery"),
    ("cozy mystery", "Mystery"),
    ("cosy mystery", "Mystery"),
    ("mystery and crime", "Mystery"),
    ("crime and mystery", "Mystery"),
    ("suspense", "Thriller"),
    ("spy", "Thriller"),
    ("espionage", "Thriller"),
    ("action", "Thriller"),
    ("thriller and suspense", "Thriller"),
    ("mystery and thriller", "Thriller"),
    ("love story", "Romance"),
    ("romantic fiction", "Romance"),
    ("romantic comedy", "Romance"),
    ("romcom", "Romance"),
    ("rom com", "Romance"),
    ("epic fantasy", "Fantasy"),
    ("urban fantasy", "Fantasy"),
    ("high fantasy", "Fantasy"),
    ("fairy tale", "Fantasy"),
    ("fairy tales", "Fantasy"),
    ("sword and sorcery", "Fantasy"),
    ("sci fi", "Science Fiction"),
    ("scifi", "Science Fiction"),
    ("sf", "Science Fiction"),
    ("speculative fiction", "Science Fiction"),
    ("space opera", "Science Fiction"),
    ("cyberpunk", "Science Fiction"),
    ("dystopia", "Science Fiction"),
    ("dystopian", "Science Fiction"),
    ("ghost story", "Horror"),
    ("ghost stories", "Horror"),
    ("gothic", "Horror"),
    ("supernatural", "Horror"),
    ("literary", "Literary Fiction"),
    ("fiction", "Literary Fiction"),
    ("general fiction", "Literary Fiction"),
    ("contemporary fiction", "Literary Fiction"),
    ("novel", "Literary Fiction"),
    ("literature", "Literary Fiction"),
    ("classics", "Literary Fiction"),
    ("classic", "Literary Fiction"),
    ("historical", "Historical Fiction"),
    ("historical novel", "Historical Fiction"),
    ("poems", "Poetry"),
    ("poem", "Poetry"),
    ("verse", "Poetry"),
    ("kids", "Children"),
    ("kid", "Children"),
    ("childrens", "Children"),
    ("childrens books", "Children"),
    ("picture book", "Children"),
    ("picture books", "Children"),
    ("middle grade", "Children"),
    ("juvenile", "Children"),
    ("ya", "Young Adult"),
    ("teen", "Young Adult"),
    ("teens", "Young Adult"),
    ("teen fiction", "Young Adult"),
    ("humor", "Humour"),
    ("comedy", "Humour"),
    ("funny", "Humour"),
    ("satire", "Humour"),
    ("world history", "History"),
    ("military history", "History"),
    ("political", "Politics"),
    ("political science", "Politics"),
    ("current affairs", "Politics"),
    ("politics and government", "Politics"),
    ("biographies", "Biography"),
    ("memoir", "Biography"),
    ("memoirs", "Biography"),
    ("autobiography", "Biography"),
    ("biography and memoir", "Biography"),
    ("popular science", "Science"),
    ("nature", "Science"),
    ("natural history", "Science"),
    ("selfhelp", "Self-help"),
    ("self improvement", "Self-help"),
    ("personal development", "Self-help"),
    ("personal growth", "Self-help"),
    ("cooking", "Cookery"),
    ("cookbook", "Cookery"),
    ("cookbooks", "Cookery"),
    ("cook book", "Cookery"),
    ("recipes", "Cookery"),
    ("food", "Cookery"),
    ("food and drink", "Cookery"),
    ("baking", "Cookery"),
];

/// The id (index into [`GENRES`]) of a genre name or synonym, ignoring case, spacing and
/// punctuation ("SCI-FI", "sci fi", "Humor", "self help"); `None` for anything else.
pub fn genre_id(name: &str) -> Option<usize> {
    let key = lookup_key(name);
    if key.is_empty() {
        return None;
    }
    let by_name = |k: &str| GENRES.iter().position(|g| lookup_key(g) == k);
    by_name(&key).or_else(|| {
        SYNONYMS
            .iter()
            .find(|(synonym, _)| *synonym == key)
            .and_then(|(_, genre)| by_name(&lookup_key(genre)))
    })
}

/// The taxonomy's name for a genre name or synonym, ignoring case, spacing and
/// punctuation ("sci-fi" gives "Science Fiction"); `None` when it names no genre.
pub fn canonical_genre(name: &str) -> Option<&'static str> {
    genre_id(name).map(|id| GENRES[id])
}

/// `name` lowercased, "&" spelled "and", every run of other non-alphanumeric characters
/// (hyphens, apostrophes, slashes, spaces) made one space, trimmed.
fn lookup_key(name: &str) -> String {
    let mut key = String::with_capacity(name.len());
    let mut gap = false;
    for c in name.chars() {
        if c.is_alphanumeric() {
            if gap && !key.is_empty() {
                key.push(' ');
            }
            gap = false;
            key.extend(c.to_lowercase());
        } else if c == '&' {
            if !key.is_empty() {
                key.push(' ');
            }
            key.push_str("and");
            gap = true;
        } else if c == '\'' || c == '\u{2019}' {
            // "children's" reads as "childrens", not "children s".
        } else {
            gap = true;
        }
    }
    key
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_synonym_names_a_genre_and_no_key_is_ambiguous() {
        for (synonym, genre) in SYNONYMS {
            assert!(GENRES.contains(genre), "{synonym} -> {genre}");
            assert_eq!(lookup_key(synonym), *synonym, "keys are stored normalised");
            assert!(
                !GENRES.iter().any(|g| lookup_key(g) == *synonym),
                "{synonym} shadows a genre name"
            );
        }
        let mut keys: Vec<&str> = SYNONYMS.iter().map(|(k, _)| *k).collect();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), SYNONYMS.len());
    }

    #[test]
    fn names_match_ignoring_case_spacing_and_punctuation() {
        assert_eq!(canonical_genre("science fiction"), Some("Science Fiction"));
        assert_eq!(canonical_genre("  SCI-FI "), Some("Science Fiction"));
        assert_eq!(canonical_genre("Sci Fi"), Some("Science Fiction"));
        assert_eq!(canonical_genre("SF"), Some("Science Fiction"));
        assert_eq!(canonical_genre("humor"), Some("Humour"));
        assert_eq!(canonical_genre("Cooking"), Some("Cookery"));
        assert_eq!(canonical_genre("kids"), Some("Children"));
        assert_eq!(canonical_genre("Children's"), Some("Children"));
        assert_eq!(canonical_genre("children’s"), Some("Children"));
        assert_eq!(canonical_genre("YA"), Some("Young Adult"));
        assert_eq!(canonical_genre("self help"), Some("Self-help"));
        assert_eq!(canonical_genre("Self-Help"), Some("Self-help"));
        assert_eq!(canonical_genre("Food & Drink"), Some("Cookery"));
        assert_eq!(canonical_genre("Classics"), Some("Literary Fiction"));
        assert_eq!(canonical_genre("Western"), None);
        assert_eq!(canonical_genre(""), None);
        assert_eq!(canonical_genre("--"), None);
    }
}
