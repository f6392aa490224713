//! Visible text of XHTML documents (epub chapters), their first heading, and cutting one at
//! a block boundary while keeping it well-formed.

use quick_xml::Reader;
use quick_xml::events::{BytesRef, Event};

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

/// A lenient reader: chapters in the wild are not always well-formed.
pub(crate) fn lenient_reader(bytes: &[u8]) -> Reader<&[u8]> {
    let mut reader = Reader::from_reader(bytes);
    let config = reader.config_mut();
    config.check_end_names = false;
    config.allow_unmatched_ends = true;
    config.allow_dangling_amp = true;
    reader
}

/// The character an entity reference stands for (XML's five, numeric ones, and the HTML
/// names common in books); None for unknown names.
pub(crate) fn resolve_ref(r: &BytesRef<'_>) -> Option<String> {
    if let Ok(Some(c)) = r.resolve_char_ref() {
        return Some(c.to_string());
    }
    let name = r.decode().ok()?;
    let s = match name.as_ref() {
        "amp" => "&",
        "lt" => "<",
        "gt" => ">",
        "quot" => "\"",
        "apos" => "'",
        "nbsp" => "\u{a0}",
        "mdash" => "\u{2014}",
        "ndash" => "\u{2013}",
        "hellip" => "\u{2026}",
        "lsquo" => "\u{2018}",
        "rsquo" => "\u{2019}",
        "ldquo" => "\u{201c}",
        "rdquo" => "\u{201d}",
        "laquo" => "\u{ab}",
        "raquo" => "\u{bb}",
        "copy" => "\u{a9}",
        "reg" => "\u{ae}",
        "trade" => "\u{2122}",
        "bull" => "\u{2022}",
        "middot" => "\u{b7}",
        "shy" => "",
        _ => return None,
    };
    Some(s.to_owned())
}

/// Entity resolver for attribute values.
pub(crate) fn attr_entity(name: &str) -> Option<&'static str> {
    match name {
        "nbsp" => Some("\u{a0}"),
        "mdash" => Some("\u{2014}"),
        "ndash" => Some("\u{2013}"),
        _ => None,
    }
}

/// Collects text with whitespace collapsed and blocks separated by one newline; the
/// character count is a chapter's weight.
#[derive(Default)]
pub(crate) struct TextCollector {
    pub(crate) text: String,
    pub(crate) chars: u64,
    pending_space: bool,
    pending_break: bool,
}

impl TextCollector {
    pub(crate) fn push(&mut self, s: &str) {
        for c in s.chars() {
            self.push_char(c);
        }
    }

    pub(crate) fn push_char(&mut self, c: char) {
        if c.is_whitespace() && c != '\u{a0}' {
            self.pending_space = true;
            return;
        }
        if !self.text.is_empty() {
            if self.pending_break {
                self.text.push('\n');
                self.chars += 1;
            } else if self.pending_space {
                self.text.push(' ');
                self.chars += 1;
            }
        }
        self.pending_space = false;
        self.pending_break = false;
        self.text.push(c);
        self.chars += 1;
    }

    /// Adds the text an event carries (text, or an entity reference); others add nothing.
    pub(crate) fn push_event(&mut self, event: &Event<'_>) {
        match event {
            Event::Text(t) => {
                if let Ok(s) = t.decode() {
                    self.push(&s);
                }
            }
            Event::GeneralRef(r) => {
                if let Some(s) = resolve_ref(r) {
                    self.push(&s);
                }
            }
            _ => {}
        }
    }

    pub(crate) fn block_break(&mut self) {
        self.pending_break = true;
    }
}

pub(crate) fn is_block(local: &[u8]) -> bool {
    BLOCKS.iter().any(|b| b.eq_ignore_ascii_case(local))
}

fn is_hidden(local: &[u8]) -> bool {
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

/// Cuts a chapter after at most `budget` visible characters: at the end of the last block
/// element that fits, or, when that would keep less than half the budget (a long first
/// paragraph), inside the overflowing text at a word boundary; then closes every open
/// element so the result stays well-formed.
pub(crate) fn cut_xhtml(bytes: &[u8], budget: u64) -> Vec<u8> {
    let mut reader = lenient_reader(bytes);
    let mut collector = TextCollector::default();
    let mut stack: Vec<Vec<u8>> = Vec::new();
    let mut hidden = 0usize;
    // Where to cut, the elements open there, and the characters kept.
    let mut best: Option<(usize, Vec<Vec<u8>>, u64)> = None;
    let too_little = |best: &Option<(usize, Vec<Vec<u8>>, u64)>| {
        best.as_ref()
            .is_none_or(|(_, _, kept)| kept.saturating_mul(2) < budget)
    };
    loop {
        let before = pos(&reader);
        let Ok(event) = reader.read_event() else {
            break;
        };
        match event {
            Event::Start(e) => {
                let local = e.local_name().as_ref().to_vec();
                if is_hidden(&local) {
                    hidden += 1;
                } else if is_block(&local) {
                    collector.block_break();
                }
                stack.push(e.name().as_ref().to_vec());
            }
            Event::End(e) => {
                let local = e.local_name().as_ref().to_vec();
                stack.pop();
                if is_hidden(&local) {
                    hidden = hidden.saturating_sub(1);
                } else if is_block(&local) {
                    collector.block_break();
                    if collector.chars <= budget && stack.len() > 1 {
                        best = Some((pos(&reader), stack.clone(), collector.chars));
                    }
                }
            }
            Event::Text(t) if hidden == 0 => {
                let Ok(s) = t.decode() else { break };
                let start_chars = collector.chars;
                collector.push(&s);
                if collector.chars > budget {
                    if too_little(&best) {
                        let keep = budget.saturating_sub(start_chars);
                        let cut = before + word_cut(&s, keep);
                        best = Some((cut, stack.clone(), budget));
                    }
                    break;
                }
            }
            Event::GeneralRef(r) if hidden == 0 => {
                if let Some(s) = resolve_ref(&r) {
                    collector.push(&s);
                }
                if collector.chars > budget {
                    if too_little(&best) {
                        best = Some((before, stack.clone(), budget));
                    }
                    break;
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    let Some((cut, open, _)) = best else {
        return bytes.to_vec();
    };
    let mut out = bytes[..cut.min(bytes.len())].to_vec();
    for name in open.iter().rev() {
        out.extend_from_slice(b"</");
        out.extend_from_slice(name);
        out.push(b'>');
    }
    out.push(b'\n');
    out
}

fn pos(reader: &Reader<&[u8]>) -> usize {
    usize::try_from(reader.buffer_position()).unwrap_or(usize::MAX)
}

/// The byte length of `text` that holds about `keep` visible characters, ending at the
/// last whitespace before that point (or exactly there when there is none).
fn word_cut(text: &str, keep: u64) -> usize {
    let mut seen = 0u64;
    let mut end = 0usize;
    let mut last_space = None;
    let mut was_space = true;
    for (i, c) in text.char_indices() {
        let space = c.is_whitespace();
        if !space || !was_space {
            seen += 1;
        }
        was_space = space;
        if seen > keep {
            break;
        }
        if space {
            last_space = Some(i);
        }
        end = i + c.len_utf8();
    }
    last_space.unwrap_or(end)
}

#[cfg(test)]
mod tests {
    use super::*;

    const DOC: &str = r#"<?xml version="1.0" encoding="utf-8"?>
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

    #[test]
    fn cuts_at_a_block_and_stays_well_formed() {
        let full = read_xhtml(DOC.as_bytes()).chars;
        let cut = cut_xhtml(DOC.as_bytes(), full - 10);
        let s = String::from_utf8(cut.clone()).unwrap();
        assert!(s.contains("Six seven"));
        assert!(!s.contains("Eleven"));
        assert!(s.trim_end().ends_with("</section></body></html>"), "{s}");
        assert_well_formed(&cut);
    }

    #[test]
    fn cuts_inside_one_long_paragraph_at_a_word() {
        let doc = "<html><body><p>alpha beta gamma delta epsilon zeta</p></body></html>";
        let cut = cut_xhtml(doc.as_bytes(), 14);
        let s = String::from_utf8(cut.clone()).unwrap();
        assert!(s.starts_with("<html><body><p>alpha beta"), "{s}");
        assert!(!s.contains("delta"));
        assert_well_formed(&cut);
    }

    fn assert_well_formed(bytes: &[u8]) {
        let mut reader = Reader::from_reader(bytes);
        loop {
            match reader.read_event() {
                Ok(Event::Eof) => break,
                Ok(_) => {}
                Err(e) => panic!("not well-formed: {e}"),
            }
        }
    }
}
