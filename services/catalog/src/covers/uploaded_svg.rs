//! Uploaded SVG covers, written again from an allowlist. An SVG is a document: opened on
//! its own it can run script, load other files and link anywhere, and a cover is shown to
//! every visitor. Writers (and the demo shop) do upload vector covers, so instead of
//! refusing them we keep what draws a picture (shapes, text, gradients, clipping, filters,
//! embedded raster images) and write it out ourselves; scripts, event handlers, links,
//! foreign content, animation, references outside the file, comments and processing
//! instructions are left out, and a DTD (whose entities could expand without bound) is
//! refused.

use quick_xml::Reader;
use quick_xml::Writer;
use quick_xml::events::{BytesDecl, BytesStart, BytesText, Event};

use crate::error::{CatalogError, CommonErrors, Result};

const SVG_NS: &str = "http://www.w3.org/2000/svg";
const XLINK_NS: &str = "http://www.w3.org/1999/xlink";
const MAX_ELEMENTS: usize = 100_000;
const MAX_DEPTH: usize = 200;

/// Elements that draw (case matters in SVG). No `script`, `a`, `foreignObject`, `animate`,
/// `set`, `feImage` (loads a URL), `iframe`, `metadata` ...
const ELEMENTS: &str = "svg g defs title desc symbol use \
    rect circle ellipse line polyline polygon path text tspan textPath \
    linearGradient radialGradient stop clipPath mask pattern marker image style \
    filter feGaussianBlur feOffset feBlend feColorMatrix feComposite feFlood feMerge \
    feMergeNode feDropShadow feComponentTransfer feFuncR feFuncG feFuncB feFuncA \
    feMorphology feTurbulence";

/// Raster images an `image` element may embed (as a `data:` URL; nothing is fetched).
const EMBEDDED_IMAGES: &[&str] = &[
    "data:image/png;",
    "data:image/jpeg;",
    "data:image/gif;",
    "data:image/webp;",
];

fn not_svg(why: &str) -> CatalogError {
    CatalogError::invalid("cover", format!("the svg cover {why}"))
}

fn malformed<E>(_: E) -> CatalogError {
    not_svg("is not well-formed xml")
}

fn write_failed(e: std::io::Error) -> CatalogError {
    CatalogError::internal(format!("svg cover writing failed: {e}"))
}

/// The cover written again with only what draws. CPU work: call it off the async threads.
pub fn rebuild(data: &[u8]) -> Result<Vec<u8>> {
    let text = std::str::from_utf8(data).map_err(|_| not_svg("is not utf-8 text"))?;
    let mut reader = Reader::from_str(text.trim_start_matches('\u{feff}'));
    let mut out = Rebuilt {
        writer: Writer::new(Vec::with_capacity(data.len())),
        depth: 0,
        elements: 0,
        root_seen: false,
        style: None,
    };
    out.writer
        .write_event(Event::Decl(BytesDecl::new("1.0", Some("UTF-8"), None)))
        .map_err(write_failed)?;
    // Depth inside an element left out (0: not skipping).
    let mut skipped = 0usize;
    loop {
        let event = reader.read_event().map_err(malformed)?;
        if skipped > 0 {
            match event {
                Event::Start(_) => skipped += 1,
                Event::End(_) => skipped -= 1,
                Event::Eof => return Err(not_svg("is not well-formed xml")),
                _ => {}
            }
            continue;
        }
        match event {
            Event::Start(e) if !out.takes(&e) => skipped = 1,
            Event::Empty(e) if !out.takes(&e) => {}
            Event::Start(e) => out.start(&e, false)?,
            Event::Empty(e) => out.start(&e, true)?,
            Event::End(e) => out.end(e.name().as_ref())?,
            Event::Text(t) => out.text(&t.decode().map_err(malformed)?)?,
            Event::CData(c) => out.text(&c.decode().map_err(malformed)?)?,
            Event::GeneralRef(r) => {
                let c = match r.resolve_char_ref() {
                    Ok(Some(c)) => c.to_string(),
                    _ => predefined(&r.decode().map_err(malformed)?)
                        .ok_or_else(|| not_svg("uses an entity that is not defined"))?
                        .to_owned(),
                };
                out.text(&c)?;
            }
            Event::DocType(_) => return Err(not_svg("may not carry a dtd")),
            Event::Decl(_) | Event::PI(_) | Event::Comment(_) => {}
            Event::Eof => break,
        }
    }
    if !out.root_seen {
        return Err(not_svg("has no svg element"));
    }
    Ok(out.writer.into_inner())
}

fn predefined(name: &str) -> Option<&'static str> {
    Some(match name {
        "amp" => "&",
        "lt" => "<",
        "gt" => ">",
        "quot" => "\"",
        "apos" => "'",
        _ => return None,
    })
}

/// The SVG being written.
struct Rebuilt {
    writer: Writer<Vec<u8>>,
    depth: usize,
    elements: usize,
    root_seen: bool,
    /// The `style` element being read: written at its end tag, only when all of it is safe.
    style: Option<Style>,
}

#[derive(Default)]
struct Style {
    css: String,
    /// Elements inside it: not CSS, so the element is left out.
    holds_markup: bool,
}

impl Rebuilt {
    /// Whether an element is written (with what it holds); inside `style` none is.
    fn takes(&mut self, e: &BytesStart<'_>) -> bool {
        if let Some(style) = self.style.as_mut() {
            style.holds_markup = true;
            return false;
        }
        std::str::from_utf8(e.name().as_ref())
            .is_ok_and(|n| ELEMENTS.split_whitespace().any(|allowed| allowed == n))
    }

    fn start(&mut self, e: &BytesStart<'_>, empty: bool) -> Result<()> {
        self.elements += 1;
        if !empty {
            self.depth += 1;
        }
        if self.elements > MAX_ELEMENTS || self.depth > MAX_DEPTH {
            return Err(not_svg("is too complex"));
        }
        let name = std::str::from_utf8(e.name().as_ref())
            .map_err(malformed)?
            .to_owned();
        let root = !self.root_seen;
        if root && name != "svg" {
            return Err(not_svg("must have svg as its root element"));
        }
        self.root_seen = true;
        if name == "style" && !empty {
            self.style = Some(Style::default());
            return Ok(());
        }
        let mut out = BytesStart::new(name.as_str());
        if root {
            out.push_attribute(("xmlns", SVG_NS));
            out.push_attribute(("xmlns:xlink", XLINK_NS));
        }
        for a in e.attributes() {
            let a = a.map_err(malformed)?;
            let key = std::str::from_utf8(a.key.as_ref()).map_err(malformed)?;
            let value = a.unescape_value().map_err(malformed)?;
            if attribute_is_safe(&name, key, &value) {
                out.push_attribute((key, value.as_ref()));
            }
        }
        let event = if empty {
            Event::Empty(out)
        } else {
            Event::Start(out)
        };
        self.writer.write_event(event).map_err(write_failed)
    }

    fn end(&mut self, name: &[u8]) -> Result<()> {
        self.depth = self.depth.saturating_sub(1);
        if let Some(style) = self.style.take() {
            if !style.holds_markup && css_is_safe(&style.css) {
                self.writer
                    .create_element("style")
                    .write_text_content(text_event(&style.css))
                    .map_err(write_failed)?;
            }
            return Ok(());
        }
        let name = std::str::from_utf8(name).map_err(malformed)?;
        self.writer
            .write_event(Event::End(quick_xml::events::BytesEnd::new(name)))
            .map_err(write_failed)
    }

    fn text(&mut self, text: &str) -> Result<()> {
        if let Some(style) = self.style.as_mut() {
            style.css.push_str(text);
            return Ok(());
        }
        self.writer
            .write_event(Event::Text(text_event(text)))
            .map_err(write_failed)
    }
}

/// Text with `<`, `>` and `&` escaped (quotes need no escaping in text, and CSS reads
/// better without).
fn text_event(text: &str) -> BytesText<'static> {
    BytesText::from_escaped(quick_xml::escape::partial_escape(text).into_owned())
}

/// Namespace declarations are the root's (written by us); links may only point inside the
/// file (or, for `image`, embed a raster picture); no handler, and no value that fetches.
fn attribute_is_safe(element: &str, key: &str, value: &str) -> bool {
    let local = match key.split_once(':') {
        None => key,
        Some(("xlink", local)) => local,
        Some(("xml", "space" | "lang")) => return true,
        Some(_) => return false,
    };
    if local == "xmlns" || local.to_ascii_lowercase().starts_with("on") {
        return false;
    }
    if local == "href" {
        let compact = compact(value);
        return compact.starts_with('#')
            || (element == "image" && EMBEDDED_IMAGES.iter().any(|p| compact.starts_with(p)));
    }
    css_is_safe(value)
}

/// The value lowercased without whitespace or control characters, as a URL or CSS parser
/// would skip them.
fn compact(value: &str) -> String {
    value
        .chars()
        .filter(|c| !c.is_whitespace() && !c.is_control())
        .flat_map(char::to_lowercase)
        .collect()
}

/// CSS (a style element or attribute, or a presentation attribute such as `fill`) that
/// fetches nothing and runs nothing: `url(...)` only to a fragment of this file, no
/// `@import`, no escapes (which could spell either), no script scheme.
fn css_is_safe(css: &str) -> bool {
    let css = compact(css);
    let refused = [
        "\\",
        "@import",
        "javascript:",
        "vbscript:",
        "expression(",
        "behavior:",
    ];
    if refused.iter().any(|r| css.contains(r)) || css.contains("-moz-binding") {
        return false;
    }
    css.match_indices("url(").all(|(i, _)| {
        css[i + 4..]
            .trim_start_matches(['"', '\''])
            .starts_with('#')
    })
}

#[cfg(test)]
mod tests;
