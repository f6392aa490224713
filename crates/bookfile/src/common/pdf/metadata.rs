//! What a pdf says about itself: title and authors from the Info dictionary, language from
//! the catalog.

use lopdf::{Document, decode_text_string};

/// What the Info dictionary and the catalog say about the document.
pub(crate) struct Metadata {
    pub(crate) title: Option<String>,
    pub(crate) authors: Vec<String>,
    pub(crate) language: Option<String>,
}

pub(crate) fn metadata(doc: &Document) -> Metadata {
    let authors = info_string(doc, b"Author")
        .map(|a| {
            a.split(';')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default();
    let language = doc
        .catalog()
        .ok()
        .and_then(|c| c.get(b"Lang").ok())
        .and_then(|l| decode_text_string(l).ok())
        .map(|l| l.trim().to_owned())
        .filter(|l| !l.is_empty());
    Metadata {
        title: info_string(doc, b"Title"),
        authors,
        language,
    }
}

fn info_string(doc: &Document, key: &[u8]) -> Option<String> {
    let info = doc.trailer.get(b"Info").ok()?;
    let (_, info) = doc.dereference(info).ok()?;
    let value = info.as_dict().ok()?.get(key).ok()?;
    let (_, value) = doc.dereference(value).ok()?;
    let text = decode_text_string(value).ok()?;
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    (!text.is_empty()).then_some(text)
}
