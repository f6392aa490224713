//! Removes what can run from one XHTML, HTML or SVG document of an epub, keeping every
//! other byte as it was (it is a book: its markup is not reformatted).
//!
//! Readers open a chapter either as XML (application/xhtml+xml) or as HTML, and the two
//! parsers disagree on comments, CDATA sections, processing instructions and malformed
//! tags. The rules below (see markup_rules for the names) therefore also rewrite or drop
//! every construct that one parser could read as markup where the other reads text:
//! - removed with their content: `script`, `iframe`, `object`, `embed`, `form`, ... (the end
//!   is found as an HTML parser finds it, the first `</name`; what follows is read again);
//! - attributes: every `on*` handler, and URL attributes with a script or document URL;
//! - a tag whose name or attributes an HTML parser would split differently, or that holds
//!   a `<` in a value, is written again from its parsed attributes, properly quoted;
//! - CDATA becomes escaped text (raw only inside `style`, when it holds no `<`);
//! - comments holding `--`, `<` or `>`, processing instructions (XSLT could run) and the
//!   internal DTD subset (its entities could expand to markup) are dropped;
//! - from a syntax error on, the rest of the document is dropped: what cannot be read
//!   cannot be checked.

use quick_xml::Reader;
use quick_xml::events::{BytesStart, Event};

use crate::book::epub::markup_rules::{
    is_animation, is_handler, is_meta, is_plain_name, is_removed_element, is_style, is_unsafe_url,
    is_url_attribute, local,
};
use crate::common::xml::lenient_reader;

/// The document with nothing left that runs, or None when it had nothing to remove.
pub(crate) fn clean(doc: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(doc.len());
    let mut changed = false;
    let mut style_depth = 0usize;
    // Where the current reader started: a removed element is skipped by starting a new one.
    let mut offset = 0usize;
    'document: loop {
        let mut reader = lenient_reader(&doc[offset..]);
        loop {
            let before = offset + pos(&reader);
            let Ok(event) = reader.read_event() else {
                changed = true;
                break 'document;
            };
            let after = offset + pos(&reader);
            let raw = &doc[before..after];
            // What to write instead of the event's bytes; None: the bytes as they were.
            let replacement: Option<Vec<u8>> = match event {
                Event::Eof => break 'document,
                Event::Start(e) => match judge_tag(&e, raw, false) {
                    Tag::Remove => {
                        changed = true;
                        match find_end(doc, after, e.name().as_ref()) {
                            Some(end) => {
                                offset = end;
                                continue 'document;
                            }
                            None => break 'document,
                        }
                    }
                    Tag::Drop => Some(Vec::new()),
                    fate => {
                        if is_style(e.name().as_ref()) {
                            style_depth += 1;
                        }
                        fate.into_bytes()
                    }
                },
                Event::Empty(e) => match judge_tag(&e, raw, true) {
                    Tag::Remove | Tag::Drop => Some(Vec::new()),
                    fate => fate.into_bytes(),
                },
                Event::End(e) => {
                    let name = e.name();
                    if !is_plain_name(name.as_ref()) {
                        Some(Vec::new())
                    } else {
                        if is_style(name.as_ref()) {
                            style_depth = style_depth.saturating_sub(1);
                        }
                        None
                    }
                }
                Event::Text(_) | Event::GeneralRef(_) => None,
                Event::CData(c) => {
                    let text: &[u8] = &c;
                    if style_depth > 0 {
                        (text.contains(&b'<')).then(Vec::new)
                    } else {
                        Some(escape_text(text))
                    }
                }
                Event::Comment(c) => (!safe_comment(&c)).then(Vec::new),
                Event::Decl(_) => has_angle_inside(raw).then(Vec::new),
                Event::PI(pi) => (!safe_pi(&pi, raw)).then(Vec::new),
                Event::DocType(d) => doctype(&d),
            };
            match replacement {
                None => out.extend_from_slice(raw),
                Some(bytes) => {
                    changed = true;
                    out.extend_from_slice(&bytes);
                }
            }
        }
    }
    changed.then_some(out)
}

fn pos(reader: &Reader<&[u8]>) -> usize {
    usize::try_from(reader.buffer_position()).unwrap_or(usize::MAX)
}

enum Tag {
    /// Written as it was.
    Keep,
    /// Written again without what was removed.
    Rebuilt(Vec<u8>),
    /// The tag goes, its content stays.
    Drop,
    /// The element goes with its content.
    Remove,
}

impl Tag {
    /// What to write instead of the tag as it was; None: the tag as it was.
    fn into_bytes(self) -> Option<Vec<u8>> {
        match self {
            Tag::Keep => None,
            Tag::Rebuilt(bytes) => Some(bytes),
            Tag::Drop | Tag::Remove => Some(Vec::new()),
        }
    }
}

fn judge_tag(e: &BytesStart<'_>, raw: &[u8], empty: bool) -> Tag {
    let name = e.name();
    let name = name.as_ref();
    if !is_plain_name(name) {
        return Tag::Drop;
    }
    if is_removed_element(name) {
        return Tag::Remove;
    }
    // As an HTML parser reads them (unquoted values, bare names), up to the first error.
    let mut attrs: Vec<(&[u8], Vec<u8>)> = Vec::new();
    let mut complete = true;
    let mut lenient = e.html_attributes();
    lenient.with_checks(false);
    for a in lenient {
        match a {
            Ok(a) => attrs.push((a.key.into_inner(), a.value.into_owned())),
            Err(_) => {
                complete = false;
                break;
            }
        }
    }
    let value_of = |wanted: &[u8]| {
        attrs
            .iter()
            .find(|(k, _)| local(k).eq_ignore_ascii_case(wanted))
            .map(|(_, v)| v.trim_ascii().to_ascii_lowercase())
    };
    if is_animation(name)
        && value_of(b"attributename").is_some_and(|a| {
            let target = local(&a);
            target == b"href" || target.starts_with(b"on")
        })
    {
        return Tag::Remove;
    }
    if is_meta(name) && value_of(b"http-equiv").is_some_and(|v| v == b"refresh") {
        return Tag::Remove;
    }
    let before = attrs.len();
    attrs.retain(|(key, value)| {
        is_plain_name(key) && !is_handler(key) && !(is_url_attribute(key) && is_unsafe_url(value))
    });
    // Well-formed XML attributes (quoted, separated, unique) read the same to both parsers.
    let strict = e.attributes().all(|a| a.is_ok());
    if complete && strict && attrs.len() == before && !raw[1..].contains(&b'<') {
        return Tag::Keep;
    }
    let mut out = Vec::with_capacity(raw.len());
    out.push(b'<');
    out.extend_from_slice(name);
    for (key, value) in &attrs {
        out.push(b' ');
        out.extend_from_slice(key);
        out.extend_from_slice(b"=\"");
        for &b in value {
            match b {
                b'<' => out.extend_from_slice(b"&lt;"),
                b'"' => out.extend_from_slice(b"&quot;"),
                _ => out.push(b),
            }
        }
        out.push(b'"');
    }
    out.extend_from_slice(if empty { b"/>" } else { b">" });
    Tag::Rebuilt(out)
}

/// Just past the `>` of the first `</name` (any case) from `from`, as an HTML parser ends
/// a script; None when there is none.
fn find_end(doc: &[u8], from: usize, name: &[u8]) -> Option<usize> {
    let mut i = from;
    while let Some(found) = doc.get(i..)?.windows(2).position(|w| w == b"</") {
        let start = i + found + 2;
        let end_of_name = start + name.len();
        let matches = doc
            .get(start..end_of_name)
            .is_some_and(|n| n.eq_ignore_ascii_case(name))
            && doc
                .get(end_of_name)
                .is_some_and(|&b| b == b'>' || b == b'/' || b.is_ascii_whitespace());
        if matches {
            let close = doc[end_of_name..].iter().position(|&b| b == b'>')?;
            return Some(end_of_name + close + 1);
        }
        i = start;
    }
    None
}

/// A comment both parsers end at the same place: HTML also ends one at `--!>`, and takes
/// `<!-->` and `<!--->` as whole comments.
fn safe_comment(body: &[u8]) -> bool {
    !(body.windows(2).any(|w| w == b"--")
        || body.contains(&b'<')
        || body.contains(&b'>')
        || body.starts_with(b"-")
        || body.ends_with(b"-"))
}

/// Only a CSS stylesheet instruction stays: an XSLT one runs a program over the document,
/// and to an HTML parser an instruction is a comment that ends at the first `>`.
fn safe_pi(pi: &[u8], raw: &[u8]) -> bool {
    let lower = pi.to_ascii_lowercase();
    lower.starts_with(b"xml-stylesheet")
        && lower.windows(8).any(|w| w == b"text/css")
        && !lower.windows(3).any(|w| w == b"xsl")
        && !has_angle_inside(raw)
}

/// A `<` or `>` between the first and the last byte of a `<?...?>`.
fn has_angle_inside(raw: &[u8]) -> bool {
    raw.get(1..raw.len().saturating_sub(1))
        .is_some_and(|inner| inner.iter().any(|&b| b == b'<' || b == b'>'))
}

/// The document type declaration without an internal subset (its entities could expand
/// to markup no one checked) and without `<` or `>` (which end it early for HTML).
fn doctype(content: &[u8]) -> Option<Vec<u8>> {
    if !content.iter().any(|b| matches!(b, b'[' | b'<' | b'>')) {
        return None;
    }
    let root = content
        .split(|b| b.is_ascii_whitespace())
        .find(|w| !w.is_empty())
        .filter(|w| is_plain_name(w))
        .unwrap_or(b"html");
    let mut out = b"<!DOCTYPE ".to_vec();
    out.extend_from_slice(root);
    out.push(b'>');
    Some(out)
}

/// CDATA content as escaped text: the same characters to an XML parser, and no markup to
/// an HTML one (which reads `<![CDATA[` as a comment ending at the first `>`).
fn escape_text(text: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len() + 16);
    for &b in text {
        match b {
            b'<' => out.extend_from_slice(b"&lt;"),
            b'>' => out.extend_from_slice(b"&gt;"),
            b'&' => out.extend_from_slice(b"&amp;"),
            _ => out.push(b),
        }
    }
    out
}

#[cfg(test)]
mod tests;
