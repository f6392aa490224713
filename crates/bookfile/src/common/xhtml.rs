//! Visible text of XHTML documents (epub chapters) and their first heading.

use quick_xml::events::Event;

use crate::common::xml::{TextCollector, lenient_reader, resolve_ref};

/// Elements whose content a reader never sees as text.
const HIDDEN: &[&[u8]] = &[b"head", b"script", b"style", b"template", b"noscript"];
/// Elements that end a block: text on either side is not one run.
const BLOCKS: &[&[u8]] = &[
    b"p",
    b"div",
    b"h1",
    b"h2",
    b"h3",
    b"h4",
    b"h5",
    b"h6",
    b"li",
    b"ul",
    b"ol",
    b"dl",
    b"dt",
    b"dd",
    b"blockquote",
    b"pre",
    b"section",
    b"article",
    b"aside",
    b"header",
    b"footer",
    b"nav",
    b"figure",
    b"figcaption",
    b"table",
    b"tr",
    b"td",
    b"th",
    b"main",
    b"address",
    b"hr",
    b"br",
    b"body",
];

pub(crate) fn is_block(local: &[u8]) -> bool {
    BLOCKS.iter().any(|b| b.eq_ignore_ascii_case(local))
}

pub(crate) fn is_hidden(local: &[u8]) -> bool {
    HIDDEN.iter().any(|b| b.eq_ignore_ascii_case(local))
}

fn is_heading(local: &[u8]) -> bool {
    local.eq_ignore_ascii_case(b"h1") || local.eq_ignore_ascii_case(b"h2")
}

/// What a chapter document says.
#[derive(Debug, Default)]
pub(crate) struct XhtmlText {
    pub(crate) text: String,
    pub(crate) chars: u64,
    pub(crate) heading: Option<String>,
    pub(crate) title: Option<String>,
}

/// Reads the visible text (inside body, outside hidden elements), the first h1/h2 and the
/// title. Stops quietly at the first syntax error, keeping what it read.
pub(crate) fn read_xhtml(bytes: &[u8]) -> XhtmlText {
    let mut reader = lenient_reader(bytes);
    let mut body = TextCollector::default();
    let mut heading: Option<TextCollector> = None;
    let mut heading_done = false;
    let mut heading_depth = 0usize;
    let mut title = TextCollector::default();
    let mut in_title = false;
    let mut hidden = 0usize;
    while let Ok(event) = reader.read_event() {
        match event {
            Event::Start(e) => {
                let name = e.local_name();
                let local = name.as_ref();
                if local.eq_ignore_ascii_case(b"title") && hidden > 0 {
                    in_title = true;
                }
                if is_hidden(local) {
                    hidden += 1;
                } else if is_block(local) {
                    body.block_break();
                }
                if !heading_done && heading.is_none() && hidden == 0 && is_heading(local) {
                    heading = Some(TextCollector::default());
                    heading_depth = 0;
                } else if heading.is_some() && !heading_done {
                    heading_depth += 1;
                }
            }
            Event::End(e) => {
                let name = e.local_name();
                let local = name.as_ref();
                if local.eq_ignore_ascii_case(b"title") {
                    in_title = false;
                }
                if is_hidden(local) {
                    hidden = hidden.saturating_sub(1);
                } else if is_block(local) {
                    body.block_break();
                }
                if heading.is_some() && !heading_done {
                    if heading_depth == 0 {
                        heading_done = true;
                    } else {
                        heading_depth -= 1;
                    }
                }
            }
            Event::Empty(e) if is_block(e.local_name().as_ref()) => body.block_break(),
            Event::Text(t) => {
                let Ok(s) = t.decode() else { break };
                push_text(
                    &s,
                    hidden,
                    in_title,
                    &mut body,
                    &mut title,
                    heading_open(&mut heading, heading_done),
                );
            }
            Event::CData(t) => {
                let Ok(s) = t.decode() else { break };
                push_text(
                    &s,
                    hidden,
                    in_title,
                    &mut body,
                    &mut title,
                    heading_open(&mut heading, heading_done),
                );
            }
            Event::GeneralRef(r) => {
                if let Some(s) = resolve_ref(&r) {
                    push_text(
                        &s,
                        hidden,
                        in_title,
                        &mut body,
                        &mut title,
                        heading_open(&mut heading, heading_done),
                    );
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    XhtmlText {
        chars: body.chars,
        text: body.text,
        heading: heading.map(|h| h.text).filter(|h| !h.is_empty()),
        title: Some(title.text).filter(|t| !t.is_empty()),
    }
}

fn heading_open(heading: &mut Option<TextCollector>, done: bool) -> Option<&mut TextCollector> {
    if done { None } else { heading.as_mut() }
}

fn push_text(
    s: &str,
    hidden: usize,
    in_title: bool,
    body: &mut TextCollector,
    title: &mut TextCollector,
    heading: Option<&mut TextCollector>,
) {
    if in_title {
        title.push(s);
    }
    if hidden == 0 {
        body.push(s);
        if let Some(h) = heading {
            h.push(s);
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A chapter with a title, a heading, hidden style and three paragraphs.
    pub(crate) const DOC: &str = r#"<?xml version="1.0" encoding="utf-8"?>
<html xmlns="http://www.w3.org/1999/xhtml"><head><title>T &amp; t</title><style>p{}</style></head>
<body><section><h1>The <em>First</em> Day</h1>
<p>One two three four five.</p>
<p>Six seven&nbsp;eight nine ten.</p>
<p>Eleven twelve thirteen.</p></section></body></html>"#;

    #[test]
    fn reads_visible_text_heading_and_title() {
        let x = read_xhtml(DOC.as_bytes());
        assert_eq!(x.heading.as_deref(), Some("The First Day"));
        assert_eq!(x.title.as_deref(), Some("T & t"));
        assert!(x.text.starts_with("The First Day\nOne two"), "{}", x.text);
        assert!(x.text.contains("seven\u{a0}eight"));
        assert!(!x.text.contains("p{}"));
        assert_eq!(x.chars, x.text.chars().count() as u64);
    }
}
