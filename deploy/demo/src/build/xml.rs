//! XML escaping for the EPUB documents and the SVG covers.

/// Escapes text for XML content and attribute values (quick-xml does the escaping),
/// dropping characters XML 1.0 forbids.
pub fn esc(text: &str) -> String {
    let text: String = text
        .chars()
        .filter(|&c| {
            matches!(c, '\t' | '\n' | '\r')
                || !((c as u32) < 0x20 || c == '\u{fffe}' || c == '\u{ffff}')
        })
        .collect();
    quick_xml::escape::escape(text.as_str()).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_drops_control_characters() {
        assert_eq!(esc("a\u{1}<b>&'\""), "a&lt;b&gt;&amp;&apos;&quot;");
    }
}
