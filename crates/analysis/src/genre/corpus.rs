//! The labelled passages the built-in model learns from, and their file format.
//!
//! `data/genres/train/<genre>.txt` holds one genre's passages, separated by lines that
//! are exactly `---`. Only the training files are compiled in: the held-out files in
//! `data/genres/test/` are read by the accuracy test alone, so they cannot leak into the
//! model.

/// The line that separates two passages in a genre file.
pub const SEPARATOR: &str = "---";

/// The training files, in the order of [`quire_genres::GENRES`] (checked by a unit test).
const TRAIN: [(&str, &str); 18] = [
    (
        "Mystery",
        include_str!("../../data/genres/train/mystery.txt"),
    ),
    (
        "Thriller",
        include_str!("../../data/genres/train/thriller.txt"),
    ),
    (
        "Romance",
        include_str!("../../data/genres/train/romance.txt"),
    ),
    (
        "Fantasy",
        include_str!("../../data/genres/train/fantasy.txt"),
    ),
    (
        "Science Fiction",
        include_str!("../../data/genres/train/science-fiction.txt"),
    ),
    ("Horror", include_str!("../../data/genres/train/horror.txt")),
    (
        "Literary Fiction",
        include_str!("../../data/genres/train/literary-fiction.txt"),
    ),
    (
        "Historical Fiction",
        include_str!("../../data/genres/train/historical-fiction.txt"),
    ),
    ("Poetry", include_str!("../../data/genres/train/poetry.txt")),
    (
        "Children",
        include_str!("../../data/genres/train/children.txt"),
    ),
    (
        "Young Adult",
        include_str!("../../data/genres/train/young-adult.txt"),
    ),
    ("Humour", include_str!("../../data/genres/train/humour.txt")),
    (
        "History",
        include_str!("../../data/genres/train/history.txt"),
    ),
    (
        "Politics",
        include_str!("../../data/genres/train/politics.txt"),
    ),
    (
        "Biography",
        include_str!("../../data/genres/train/biography.txt"),
    ),
    (
        "Science",
        include_str!("../../data/genres/train/science.txt"),
    ),
    (
        "Self-help",
        include_str!("../../data/genres/train/self-help.txt"),
    ),
    (
        "Cookery",
        include_str!("../../data/genres/train/cookery.txt"),
    ),
];

/// The passages of one genre file: the text between separator lines, trimmed, without
/// empty ones. Line breaks inside a passage (verse) are kept.
pub fn passages(file: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut offset = 0;
    for line in file.split_inclusive('\n') {
        if line.trim_end() == SEPARATOR {
            push_passage(&file[start..offset], &mut out);
            start = offset + line.len();
        }
        offset += line.len();
    }
    push_passage(&file[start..], &mut out);
    out
}

/// The file name (without `.txt`) of a genre: "Science Fiction" is `science-fiction`.
pub fn file_stem(genre: &str) -> String {
    genre.to_lowercase().replace(' ', "-")
}

/// Every built-in training passage as (genre, text), genre by genre in the order of
/// [`quire_genres::GENRES`]: what [`super::GenreModel::train`] takes.
pub fn training_set() -> Vec<(&'static str, &'static str)> {
    TRAIN
        .iter()
        .flat_map(|&(genre, file)| passages(file).into_iter().map(move |p| (genre, p)))
        .collect()
}

/// The same passages as (genre id, text).
pub(super) fn indexed_training_set() -> Vec<(usize, &'static str)> {
    TRAIN
        .iter()
        .enumerate()
        .flat_map(|(id, (_, file))| passages(file).into_iter().map(move |p| (id, p)))
        .collect()
}

fn push_passage<'a>(text: &'a str, out: &mut Vec<&'a str>) {
    let trimmed = text.trim();
    if !trimmed.is_empty() {
        out.push(trimmed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quire_genres::GENRES;

    #[test]
    fn training_files_follow_the_taxonomy_and_hold_twenty_six_passages_each() {
        assert_eq!(TRAIN.len(), GENRES.len());
        for ((genre, file), expected) in TRAIN.iter().zip(GENRES) {
            assert_eq!(genre, expected);
            let ps = passages(file);
            assert_eq!(ps.len(), 26, "{genre}");
            for p in ps {
                let words = p.split_whitespace().count();
                assert!((80..=200).contains(&words), "{genre}: {words} words");
            }
        }
        assert_eq!(training_set().len(), 26 * GENRES.len());
        assert_eq!(indexed_training_set().len(), training_set().len());
    }

    #[test]
    fn passages_split_on_separator_lines_only() {
        let file = "One\nline two\n---\n\n  Two --- not a separator\n---\r\n---\nThree\n";
        assert_eq!(
            passages(file),
            vec!["One\nline two", "Two --- not a separator", "Three"]
        );
        assert!(passages("").is_empty());
        assert!(passages("---\n---").is_empty());
    }

    #[test]
    fn file_stems_are_lowercase_and_hyphenated() {
        assert_eq!(file_stem("Science Fiction"), "science-fiction");
        assert_eq!(file_stem("Self-help"), "self-help");
    }
}
