//! Variety in what is shown: walking the ranked books best first, at most
//! [`PER_AUTHOR`] by one author and [`PER_GENRE`] of one genre are taken, unless the
//! reader asked for that author or genre (or for books like one of that genre). When the
//! caps would leave the list short, the books they held back fill it, in rank order, so a
//! small shop still shows all it has.

use std::collections::HashMap;

/// The most books by one author in one answer, unless the reader asked for the author.
pub const PER_AUTHOR: usize = 2;
/// The most books of one genre in one answer, unless the reader asked for the genre.
pub const PER_GENRE: usize = 3;

/// One ranked book as the caps see it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Slot<'a> {
    /// Lowercase display line of its authors.
    pub author: &'a str,
    /// Lowercase genre.
    pub genre: &'a str,
    /// Whether the reader asked for this book's genre.
    pub genre_asked: bool,
}

/// The positions in `ranked` (best first) to show, at most `limit`, in the order to show.
pub(crate) fn pick(ranked: &[Slot<'_>], limit: usize, author_asked: bool) -> Vec<usize> {
    // Counts of what is chosen so far, so each book is checked in constant time (a list of
    // candidates may be long: the service ranks many to keep those catalog confirms).
    let mut by_author: HashMap<&str, usize> = HashMap::new();
    let mut of_genre: HashMap<&str, usize> = HashMap::new();
    let mut chosen: Vec<usize> = Vec::with_capacity(limit.min(ranked.len()));
    let mut held: Vec<usize> = Vec::new();
    for (i, slot) in ranked.iter().enumerate() {
        if chosen.len() == limit {
            break;
        }
        let author_full = !author_asked
            && !slot.author.is_empty()
            && by_author.get(slot.author).copied().unwrap_or(0) >= PER_AUTHOR;
        let genre_full = !slot.genre_asked
            && !slot.genre.is_empty()
            && of_genre.get(slot.genre).copied().unwrap_or(0) >= PER_GENRE;
        if author_full || genre_full {
            held.push(i);
        } else {
            *by_author.entry(slot.author).or_default() += 1;
            *of_genre.entry(slot.genre).or_default() += 1;
            chosen.push(i);
        }
    }
    for i in held {
        if chosen.len() == limit {
            break;
        }
        chosen.push(i);
    }
    chosen
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slot<'a>(author: &'a str, genre: &'a str) -> Slot<'a> {
        Slot {
            author,
            genre,
            genre_asked: false,
        }
    }

    #[test]
    fn no_more_than_two_by_one_author_unless_asked_for() {
        let ranked = [
            slot("pell", "mystery"),
            slot("pell", "mystery"),
            slot("pell", "mystery"),
            slot("wren", "mystery"),
        ];
        assert_eq!(pick(&ranked, 3, false), [0, 1, 3]);
        assert_eq!(pick(&ranked, 3, true), [0, 1, 2]);
    }

    #[test]
    fn a_genre_not_asked_for_is_capped_and_the_held_back_fill_a_short_list() {
        let ranked = [
            slot("a", "romance"),
            slot("b", "romance"),
            slot("c", "romance"),
            slot("d", "romance"),
            slot("e", "mystery"),
            slot("f", "romance"),
        ];
        assert_eq!(pick(&ranked, 5, false), [0, 1, 2, 4, 3]);
        let asked: Vec<Slot<'_>> = ranked
            .iter()
            .map(|s| Slot {
                genre_asked: true,
                ..*s
            })
            .collect();
        assert_eq!(pick(&asked, 5, false), [0, 1, 2, 3, 4]);
        assert_eq!(pick(&ranked, 0, false), Vec::<usize>::new());
    }
}
