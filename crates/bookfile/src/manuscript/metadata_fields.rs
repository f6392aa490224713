//! Metadata written as text: names in one field, and a markdown file's front matter.

/// Names a metadata field holds together: "A; B", "A and B", "A & B". Placeholder names
/// word processors fill in for an unnamed user ("Microsoft Office User") are left out.
pub(crate) fn split_names(field: &str) -> Vec<String> {
    const PLACEHOLDERS: &[&str] = &[
        "microsoft office user",
        "windows user",
        "user",
        "admin",
        "administrator",
        "unknown",
        "author",
    ];
    field
        .split([';', '&'])
        .flat_map(|part| part.split(" and "))
        .map(|name| name.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|name| !name.is_empty() && !PLACEHOLDERS.contains(&name.to_lowercase().as_str()))
        .collect()
}

/// What a markdown file's front matter says.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct FrontMatter {
    pub(crate) title: Option<String>,
    pub(crate) authors: Vec<String>,
    pub(crate) language: Option<String>,
}

/// Splits YAML-style front matter ("---" lines around `key: value` lines) off a markdown
/// text: `title`, `author`/`authors` (one value, or a list of "- name" lines), `lang` or
/// `language`. Other keys are ignored. A text without it is returned whole.
pub(crate) fn front_matter(text: &str) -> (FrontMatter, &str) {
    let mut meta = FrontMatter::default();
    let body_start = text.trim_start_matches('\u{feff}');
    let Some(rest) = body_start
        .strip_prefix("---\n")
        .or_else(|| body_start.strip_prefix("---\r\n"))
    else {
        return (meta, text);
    };
    let mut consumed = body_start.len() - rest.len();
    let mut list_key: Option<String> = None;
    for line in rest.split_inclusive('\n') {
        consumed += line.len();
        let line = line.trim_end();
        if line == "---" || line == "..." {
            return (meta, &body_start[consumed..]);
        }
        if let Some(item) = line.trim_start().strip_prefix("- ") {
            if list_key.as_deref().is_some_and(is_author_key) {
                meta.authors.extend(split_names(unquote(item)));
            }
            continue;
        }
        let Some((key, value)) = line.split_once(':') else {
            continue;
        };
        let key = key.trim().to_lowercase();
        let value = unquote(value.trim());
        list_key = value.is_empty().then(|| key.clone());
        match key.as_str() {
            "title" if !value.is_empty() => meta.title = Some(value.to_owned()),
            k if is_author_key(k) => meta.authors.extend(split_names(
                value
                    .trim_start_matches('[')
                    .trim_end_matches(']')
                    .replace(',', ";")
                    .as_str(),
            )),
            "lang" | "language" if !value.is_empty() => meta.language = Some(value.to_owned()),
            _ => {}
        }
    }
    // No closing line: not front matter after all.
    (FrontMatter::default(), text)
}

fn is_author_key(key: &str) -> bool {
    matches!(key, "author" | "authors" | "creator")
}

fn unquote(value: &str) -> &str {
    let v = value.trim();
    v.strip_prefix('"')
        .and_then(|v| v.strip_suffix('"'))
        .or_else(|| v.strip_prefix('\'').and_then(|v| v.strip_suffix('\'')))
        .unwrap_or(v)
        .trim()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_split_and_placeholders_dropped() {
        assert_eq!(
            split_names("Ada  Lovelace; Mary Shelley and Bo & Co"),
            ["Ada Lovelace", "Mary Shelley", "Bo", "Co"]
        );
        assert!(split_names(" ; Microsoft Office User").is_empty());
    }

    #[test]
    fn front_matter_fields() {
        let (m, body) = front_matter(
            "---\ntitle: \"The River\"\nauthor: Ada Lovelace\nlang: en\ntags: [a]\n---\n# One\n",
        );
        assert_eq!(m.title.as_deref(), Some("The River"));
        assert_eq!(m.authors, ["Ada Lovelace"]);
        assert_eq!(m.language.as_deref(), Some("en"));
        assert_eq!(body, "# One\n");
        let (m, _) = front_matter("---\nauthors:\n  - Ada Lovelace\n  - 'Mary Shelley'\n---\n");
        assert_eq!(m.authors, ["Ada Lovelace", "Mary Shelley"]);
        let (m, _) = front_matter("---\nauthor: [Ada Lovelace, Mary Shelley]\n---\n");
        assert_eq!(m.authors, ["Ada Lovelace", "Mary Shelley"]);
        let unclosed = "---\ntitle: x\nno end";
        assert_eq!(front_matter(unclosed), (FrontMatter::default(), unclosed));
        assert_eq!(front_matter("# Title\n").1, "# Title\n");
    }
}
