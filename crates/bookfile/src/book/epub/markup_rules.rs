//! What the epub sanitiser (markup_clean) removes, decided one name or value at a time:
//! elements that run or embed something, event-handler attributes, and URLs with a script
//! scheme. Kept apart from the rewriting so the rules can be read (and tested) as a list.
//!
//! Names are compared by local name, ignoring ASCII case and prefix: an HTML parser (a
//! reader that opens a chapter as text/html) sees `<SCRIPT>` as a script, an XML parser
//! sees `<h:script>` as one when `h` is the XHTML namespace.

/// Elements removed with everything inside them: they run code, embed other documents or
/// submit data, and hold nothing a book needs.
const REMOVED: &[&[u8]] = &[
    b"script",
    b"iframe",
    b"frame",
    b"frameset",
    b"object",
    b"embed",
    b"applet",
    b"form",
    b"portal",
    b"base",
    // SVG Tiny 1.2 event handlers.
    b"handler",
    b"listener",
];

/// SVG animation elements: they may set any attribute, an href or a handler included.
const ANIMATIONS: &[&[u8]] = &[
    b"animate",
    b"set",
    b"animatemotion",
    b"animatetransform",
    b"animatecolor",
];

/// Attributes whose value a browser follows or loads as a URL (local names, lowercase).
const URL_ATTRIBUTES: &[&[u8]] = &[
    b"href",
    b"src",
    b"action",
    b"formaction",
    b"data",
    b"poster",
    b"background",
    b"cite",
    b"longdesc",
    b"dynsrc",
    b"lowsrc",
    b"codebase",
    b"classid",
    b"archive",
    b"usemap",
    b"icon",
    b"manifest",
    b"srcdoc",
    // xml:base: relative URLs resolve against it.
    b"base",
];

/// URL schemes that run script when followed.
const SCRIPT_SCHEMES: &[&[u8]] = &[b"javascript:", b"vbscript:", b"livescript:", b"mocha:"];

/// Media types a `data:` URL may carry: things a book shows, never a document.
const DATA_TYPES: &[&[u8]] = &[
    b"image/png",
    b"image/jpeg",
    b"image/jpg",
    b"image/gif",
    b"image/webp",
    b"image/avif",
    b"font/",
    b"audio/",
    b"video/",
    b"application/font",
    b"application/x-font",
    b"application/vnd.ms-opentype",
    b"text/css",
    b"text/plain",
];

/// The part after the last ':' of a qualified name.
pub(crate) fn local(qname: &[u8]) -> &[u8] {
    match qname.iter().rposition(|&b| b == b':') {
        Some(i) => &qname[i + 1..],
        None => qname,
    }
}

fn is_one_of(name: &[u8], list: &[&[u8]]) -> bool {
    let name = local(name);
    list.iter().any(|l| l.eq_ignore_ascii_case(name))
}

/// An element removed with its content.
pub(crate) fn is_removed_element(qname: &[u8]) -> bool {
    is_one_of(qname, REMOVED)
}

pub(crate) fn is_animation(qname: &[u8]) -> bool {
    is_one_of(qname, ANIMATIONS)
}

/// The `style` element (its text is CSS, raw text to an HTML parser).
pub(crate) fn is_style(qname: &[u8]) -> bool {
    local(qname).eq_ignore_ascii_case(b"style")
}

/// `meta http-equiv="refresh"` sends the reader elsewhere.
pub(crate) fn is_meta(qname: &[u8]) -> bool {
    local(qname).eq_ignore_ascii_case(b"meta")
}

/// An event handler: `onload`, `onclick`, `ONERROR`, `svg:onbegin` ...
pub(crate) fn is_handler(attr_name: &[u8]) -> bool {
    local(attr_name)
        .get(..2)
        .is_some_and(|p| p.eq_ignore_ascii_case(b"on"))
}

pub(crate) fn is_url_attribute(attr_name: &[u8]) -> bool {
    is_one_of(attr_name, URL_ATTRIBUTES)
}

/// A name both an XML and an HTML parser read the same way: no character an HTML
/// tokenizer treats as a separator (`/`, `=`, quotes, `<`, `>`, whitespace, controls).
/// Anything else is garbage that an HTML parser might split into a tag and attributes.
pub(crate) fn is_plain_name(name: &[u8]) -> bool {
    let Some(&first) = name.first() else {
        return false;
    };
    let first_ok = first >= 0x80 || first.is_ascii_alphabetic() || first == b'_';
    first_ok
        && name.iter().all(|&b| {
            b >= 0x80 || b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b':')
        })
}

/// Whether an attribute value (raw, as written, still escaped) is a URL that must not stay:
/// a script scheme, a `data:` URL of a document type, or a character reference we cannot
/// resolve (an HTML parser knows two thousand names, `&colon;` among them).
pub(crate) fn is_unsafe_url(raw: &[u8]) -> bool {
    let Some(head) = url_head(raw) else {
        return true;
    };
    if SCRIPT_SCHEMES.iter().any(|s| head.starts_with(s)) {
        return true;
    }
    if let Some(rest) = head.strip_prefix(b"data:") {
        let end = rest
            .iter()
            .position(|&b| b == b';' || b == b',')
            .unwrap_or(rest.len());
        let media_type = &rest[..end];
        // No type means text/plain.
        return !media_type.is_empty() && !DATA_TYPES.iter().any(|t| media_type.starts_with(t));
    }
    false
}

/// The start of a value as a URL parser sees it: character references resolved, ASCII
/// whitespace and controls dropped (browsers skip tabs and newlines even inside a scheme),
/// lowercased. None when it holds a reference we cannot resolve.
fn url_head(raw: &[u8]) -> Option<Vec<u8>> {
    const ENOUGH: usize = 64;
    let mut out = Vec::with_capacity(ENOUGH);
    let mut i = 0;
    while i < raw.len() && out.len() < ENOUGH {
        let (c, next) = if raw[i] == b'&' {
            reference(&raw[i..]).map(|(c, len)| (c, i + len))?
        } else {
            (u32::from(raw[i]), i + 1)
        };
        i = next;
        match u8::try_from(c) {
            Ok(b) if b <= 0x20 || b == 0x7f => {}
            Ok(b) => out.push(b.to_ascii_lowercase()),
            // Outside ASCII: no scheme letter; a placeholder keeps positions honest.
            Err(_) => out.push(0x80),
        }
    }
    Some(out)
}

/// The code point a reference at the start of `s` stands for, and its length. A lone `&`
/// (no name and `;` right after it) is itself; numeric references count with or without
/// their `;` (as HTML reads them); named ones only when XML predefines them.
fn reference(s: &[u8]) -> Option<(u32, usize)> {
    if let Some(num) = s.strip_prefix(b"&#") {
        let (hex, digits) = match num.first() {
            Some(b'x' | b'X') => (true, &num[1..]),
            _ => (false, num),
        };
        let len = digits
            .iter()
            .take_while(|b| {
                if hex {
                    b.is_ascii_hexdigit()
                } else {
                    b.is_ascii_digit()
                }
            })
            .count();
        let text = std::str::from_utf8(&digits[..len]).ok()?;
        let value = u32::from_str_radix(text, if hex { 16 } else { 10 }).ok()?;
        let used = 2 + usize::from(hex) + len;
        let used = used + usize::from(s.get(used) == Some(&b';'));
        return Some((value, used));
    }
    let name_len = s[1..]
        .iter()
        .take_while(|b| b.is_ascii_alphanumeric())
        .count();
    if name_len == 0 || s.get(1 + name_len) != Some(&b';') {
        return Some((u32::from(b'&'), 1));
    }
    let c = match &s[1..=name_len] {
        b"amp" => b'&',
        b"lt" => b'<',
        b"gt" => b'>',
        b"quot" => b'"',
        b"apos" => b'\'',
        _ => return None,
    };
    Some((u32::from(c), name_len + 2))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn script_urls_are_found_however_they_are_written() {
        for bad in [
            "javascript:alert(1)",
            "  JavaScript:alert(1)",
            "java\tscript:alert(1)",
            "java&#x09;script:alert(1)",
            "&#106;avascript:alert(1)",
            "&#x6A;avascript:alert(1)",
            "&#106avascript:alert(1)",
            "javascript&colon;alert(1)",
            "vbscript:msgbox",
            "data:text/html,<script>alert(1)</script>",
            "DATA:text/html;base64,PHNjcmlwdD4=",
            "data:image/svg+xml,<svg onload=alert(1)>",
            "data:application/xhtml+xml,x",
        ] {
            assert!(is_unsafe_url(bad.as_bytes()), "{bad}");
        }
        for good in [
            "chapter2.xhtml#p4",
            "../images/map.png",
            "https://example.org/a?x=1&amp;y=2",
            "https://example.org/a?x=1&y=2",
            "mailto:author@example.org",
            "data:image/png;base64,iVBORw0KGgo=",
            "data:,hello",
            "#note-3",
        ] {
            assert!(!is_unsafe_url(good.as_bytes()), "{good}");
        }
    }

    #[test]
    fn names_are_matched_by_local_name_in_any_case() {
        assert!(is_removed_element(b"script"));
        assert!(is_removed_element(b"SCRIPT"));
        assert!(is_removed_element(b"h:script"));
        assert!(!is_removed_element(b"scripture"));
        assert!(is_handler(b"onload"));
        assert!(is_handler(b"OnClick"));
        assert!(is_handler(b"svg:onbegin"));
        assert!(!is_handler(b"opacity"));
        assert!(is_url_attribute(b"xlink:href"));
        assert!(is_url_attribute(b"xml:base"));
        assert!(!is_url_attribute(b"alt"));
    }

    #[test]
    fn names_an_html_parser_would_split_are_not_plain() {
        for name in ["p", "h1", "epub:type", "xml:lang", "data-x", "é"] {
            assert!(is_plain_name(name.as_bytes()), "{name}");
        }
        for name in ["a/onclick=x", "img\x0csrc", "a\"b", "", "1p", "p<"] {
            assert!(!is_plain_name(name.as_bytes()), "{name:?}");
        }
    }
}
