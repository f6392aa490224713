//! XML escaping for the EPUB documents and the SVG covers.

/// Escapes text for XML content and attribute values, dropping characters XML 1.0 forbids.
pub fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if (c as u32) < 0x20 || c == '\u{fffe}' || c == '\u{ffff}' => {}
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_drops_control_characters() {
        assert_eq!(esc("a\u{1}<b>&'\""), "a&lt;b&gt;&amp;&apos;&quot;");
    }
}
