//! Authors: from the file's metadata when it names any, else from the title page (the
//! first [`TITLE_PAGE`] characters): a line "by ...", "written by ...", "author: ...".

/// Characters of the opening searched for a byline.
const TITLE_PAGE: usize = 2_000;
/// A byline longer than this is prose that happens to start with "by".
const MAX_BYLINE_WORDS: usize = 8;

/// The authors of a book: the metadata's, trimmed and deduplicated, or the title page's.
pub(crate) fn authors(metadata: &[String], opening: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for name in metadata {
        let name = name.split_whitespace().collect::<Vec<_>>().join(" ");
        if !name.is_empty() && !out.iter().any(|o| o.eq_ignore_ascii_case(&name)) {
            out.push(name);
        }
    }
    if out.is_empty() {
        out = from_title_page(opening);
    }
    out
}

fn from_title_page(opening: &str) -> Vec<String> {
    let end = opening
        .char_indices()
        .nth(TITLE_PAGE)
        .map_or(opening.len(), |(at, _)| at);
    for line in opening[..end].lines() {
        let line = line.trim().trim_matches(['*', '_']).trim();
        let lower = line.to_lowercase();
        let rest = [
            "written by ",
            "by ",
            "author: ",
            "authors: ",
            "author ",
            "von ",
            "par ",
        ]
        .iter()
        .find_map(|prefix| {
            lower
                .strip_prefix(prefix)
                .map(|r| &line[line.len() - r.len()..])
        });
        if let Some(names) = rest.and_then(byline_names) {
            return names;
        }
    }
    Vec::new()
}

/// The names in the rest of a byline ("Jane Doe and John Roe"), if it reads as names:
/// every word capitalised or an initial, except the joining "and".
fn byline_names(rest: &str) -> Option<Vec<String>> {
    let rest = rest.trim().trim_end_matches(['.', ',', ';']);
    let words: Vec<&str> = rest.split_whitespace().collect();
    if words.is_empty() || words.len() > MAX_BYLINE_WORDS {
        return None;
    }
    let name_like = words.iter().all(|w| {
        matches!(*w, "and" | "&" | "with")
            || w.chars().next().is_some_and(char::is_uppercase)
            || w.starts_with("de")
            || w.starts_with("van")
            || w.starts_with("von")
    });
    if !name_like {
        return None;
    }
    let mut names: Vec<String> = Vec::new();
    let parts = rest
        .split([',', '&'])
        .flat_map(|part| part.split(" and "))
        .flat_map(|part| part.split(" with "))
        .map(|part| part.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|n| !n.is_empty());
    for part in parts {
        let suffix = matches!(
            part.trim_end_matches('.'),
            "Jr" | "Sr" | "II" | "III" | "IV"
        );
        match names.last_mut() {
            Some(last) if suffix => {
                last.push_str(", ");
                last.push_str(&part);
            }
            _ => names.push(part),
        }
    }
    (!names.is_empty()).then_some(names)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metadata_wins_and_is_cleaned() {
        let meta = vec![
            " Herman   Melville ".to_owned(),
            "herman melville".to_owned(),
            String::new(),
        ];
        assert_eq!(authors(&meta, "by Someone Else"), vec!["Herman Melville"]);
    }

    #[test]
    fn title_page_bylines_are_read() {
        let page = "MOBY-DICK\n\nor, THE WHALE.\n\nBy Herman Melville\n\nCHAPTER 1. Loomings.";
        assert_eq!(authors(&[], page), vec!["Herman Melville"]);
        let two = "The Book\nwritten by Ann Lee and J. R. Moss, Jr.\n";
        assert_eq!(authors(&[], two), vec!["Ann Lee", "J. R. Moss, Jr"]);
        assert_eq!(authors(&[], "Author: Mary Shelley"), vec!["Mary Shelley"]);
    }

    #[test]
    fn prose_starting_with_by_is_not_a_byline() {
        let text = "By the time the ship came in, everyone had gone home.\nBy noon.";
        assert!(authors(&[], text).is_empty());
        let late = format!("{}\nby Hidden Author", "x".repeat(3_000));
        assert!(authors(&[], &late).is_empty());
        assert!(authors(&[], "").is_empty());
    }
}
