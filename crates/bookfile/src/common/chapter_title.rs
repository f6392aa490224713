//! A chapter title as books and manuscripts keep it, whatever the format gave: whitespace
//! collapsed, and clipped to a bound.

/// Longest chapter title kept (titles from headings can be whole paragraphs).
const MAX_TITLE_CHARS: usize = 200;

pub(crate) fn clip_title(title: &str) -> String {
    let collapsed = title.split_whitespace().collect::<Vec<_>>().join(" ");
    match collapsed.char_indices().nth(MAX_TITLE_CHARS) {
        Some((i, _)) => format!("{}\u{2026}", &collapsed[..i]),
        None => collapsed,
    }
}
