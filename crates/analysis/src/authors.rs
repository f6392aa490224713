//! Authors: from the file's metadata when it names any, else from the title page (the
//! first [`TITLE_PAGE`] characters): a line "by ...", "written by ...", "author: ...", a
//! lone "by" over the names, or a short title line that ends "... by Name Surname".

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
    let lines: Vec<&str> = opening[..end]
        .lines()
        .map(|l| l.trim().trim_matches(['*', '_', '[', ']']).trim())
        .collect();
    for (i, line) in lines.iter().enumerate() {
        let lower = line.to_lowercase();
        // "by" alone on its line: the names are on the next line with text.
        if matches!(lower.as_str(), "by" | "written by" | "by the author") {
            let next = lines[i + 1..].iter().find(|l| !l.is_empty());
            if let Some(names) = next.and_then(|n| byline_names(n)) {
                return names;
            }
            continue;
        }
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
        if let Some(names) = title_then_byline(line, &lower) {
            return names;
        }
    }
    Vec::new()
}

/// A title line that ends with its byline ("The Tragedie of Hamlet by William Shakespeare
/// 1599", "Lycidas. By John Milton"): a short line whose words after its last "by" are a
/// name of two to five words, a year after them allowed. A translator's or reviser's line
/// ("Translated by ...") names no author.
fn title_then_byline(line: &str, lower: &str) -> Option<Vec<String>> {
    const MAX_TITLE_LINE_WORDS: usize = 16;
    if line.split_whitespace().count() > MAX_TITLE_LINE_WORDS {
        return None;
    }
    let at = lower.rfind(" by ")?;
    let before = lower[..at].trim_end();
    if before.is_empty()
        || [
            "translated",
            "revised",
            "edited",
            "illustrated",
            "introduction",
            "note",
        ]
        .iter()
        .any(|w| before.ends_with(w))
    {
        return None;
    }
    // What comes before is a title: its words capitalised, but for the small ones.
    let title_like = line[..at].split_whitespace().all(|w| {
        !w.chars().next().is_some_and(char::is_lowercase)
            || matches!(
                w,
                "of" | "the" | "and" | "a" | "an" | "in" | "on" | "or" | "to"
            )
    });
    if !title_like {
        return None;
    }
    let rest = &line[at + 4..];
    let mut words: Vec<&str> = rest.split_whitespace().collect();
    if words
        .last()
        .is_some_and(|w| w.len() == 4 && w.chars().all(|c| c.is_ascii_digit()))
    {
        words.pop();
    }
    if !(2..=5).contains(&words.len()) {
        return None;
    }
    byline_names(&words.join(" "))
}

/// The names in the rest of a byline ("Jane Doe and John Roe"), if it reads as names:
/// every word capitalised or an initial, except the joining "and".
fn byline_names(rest: &str) -> Option<Vec<String>> {
    let rest = without_honorifics(rest.trim().trim_end_matches(['.', ',', ';']));
    let rest = rest.as_str();
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
    (!names.is_empty()).then_some(names.iter().map(|n| name_case(n)).collect())
}

/// "The Late Mr. Kin-nosuke Natsume" is Kin-nosuke Natsume: a title page's courtesies are
/// not part of the name.
fn without_honorifics(rest: &str) -> String {
    let mut words: Vec<&str> = rest.split_whitespace().collect();
    loop {
        let first = words.first().map(|w| w.to_lowercase());
        let courtesy = matches!(
            first.as_deref(),
            Some("the" | "late" | "mr." | "mr" | "messrs." | "dr." | "dr")
        );
        // Never the name itself: at least two words stay.
        if !courtesy || words.len() <= 2 {
            break;
        }
        words.remove(0);
    }
    words.join(" ")
}

/// A name as a librarian writes it: "CHARLES DICKENS" is Charles Dickens; names in mixed
/// case ("Ann McCoy", "J. R. Moss") stay as written.
fn name_case(name: &str) -> String {
    if name.chars().any(char::is_lowercase) {
        return name.to_owned();
    }
    name.split(' ')
        .map(|word| {
            let mut out = String::with_capacity(word.len());
            let mut start = true;
            for c in word.chars() {
                if start {
                    out.extend(c.to_uppercase());
                } else {
                    out.extend(c.to_lowercase());
                }
                // A new part of the name after a hyphen or an apostrophe ("O'Brien").
                start = matches!(c, '-' | '\'' | '.');
            }
            out
        })
        .collect::<Vec<_>>()
        .join(" ")
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
    fn bylines_on_their_own_line_or_after_the_title_are_read() {
        let alone = "BARNABY RUDGE - A TALE OF THE RIOTS\n\nby\n\nCharles Dickens\n\nPREFACE";
        assert_eq!(authors(&[], alone), vec!["Charles Dickens"]);
        let bracket = "[The Tragedie of Hamlet by William Shakespeare 1599]\n\nActus Primus.";
        assert_eq!(authors(&[], bracket), vec!["William Shakespeare"]);
        let inline = "L'ALLEGRO, IL PENSEROSO, COMUS, AND LYCIDAS By John Milton\n\nHENCE";
        assert_eq!(authors(&[], inline), vec!["John Milton"]);
        let caps = "DAVID COPPERFIELD\n\nby CHARLES DICKENS\n";
        assert_eq!(authors(&[], caps), vec!["Charles Dickens"]);
        let courtesy =
            "BOTCHAN\nBy The Late Mr. Kin-nosuke Natsume\nTRANSLATED By Yasotaro Morri\n";
        assert_eq!(authors(&[], courtesy), vec!["Kin-nosuke Natsume"]);
    }

    #[test]
    fn a_translator_or_a_title_with_by_in_it_is_no_author() {
        assert!(authors(&[], "Translated by Yasotaro Morri\n").is_empty());
        assert!(authors(&[], "Stand By Me\n\nIt was summer.").is_empty());
        assert!(authors(&[], "A tale told by an idiot, full of sound.").is_empty());
        let prose = "He was sitting by the window of the Old Mill, waiting for news from the coast, when it came.";
        assert!(authors(&[], prose).is_empty());
        assert!(authors(&[], "He sat by Old Mill Lane").is_empty());
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
