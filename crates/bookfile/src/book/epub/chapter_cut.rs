//! Cutting an epub chapter for the trial at a block boundary (or a word, in a long first
//! paragraph) while keeping it well-formed.

use quick_xml::Reader;
use quick_xml::events::Event;

use crate::common::xhtml::{is_block, is_hidden};
use crate::common::xml::{TextCollector, lenient_reader, resolve_ref};

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
    use crate::common::xhtml::read_xhtml;
    use crate::common::xhtml::tests::DOC;

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
