//! XML as the book and manuscript readers take it: a lenient reader (files in the wild are
//! not always well-formed), entity references, attributes by local name, and text
//! collected with its whitespace collapsed.

use quick_xml::Reader;
use quick_xml::events::{BytesRef, BytesStart, Event};

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
fn attr_entity(name: &str) -> Option<&'static str> {
    match name {
        "nbsp" => Some("\u{a0}"),
        "mdash" => Some("\u{2014}"),
        "ndash" => Some("\u{2013}"),
        _ => None,
    }
}

/// An attribute's unescaped value, matched by local name (so `opf:role` is `role`).
pub(crate) fn attr(e: &BytesStart<'_>, local: &[u8]) -> Option<String> {
    e.attributes().with_checks(false).flatten().find_map(|a| {
        (a.key.local_name().as_ref() == local)
            .then(|| {
                a.unescape_value_with(attr_entity)
                    .ok()
                    .map(|v| v.into_owned())
            })
            .flatten()
    })
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
