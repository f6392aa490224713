//! Removing the entries of an epub's table of contents (nav document, NCX) that point past
//! a trial.

use std::collections::HashSet;

use quick_xml::Writer;
use quick_xml::events::Event;

use crate::common::epub::package::resolve;
use crate::common::xml::{attr, lenient_reader};

/// Which entries a pruning pass removes: an `entry` element (li, navPoint, pageTarget) goes
/// when the first `link` element (a, content) inside it, before any nested entry, points at
/// a removed document.
pub(crate) struct PruneRule {
    pub(crate) entries: &'static [&'static [u8]],
    pub(crate) link: &'static [u8],
    pub(crate) link_attr: &'static [u8],
}

pub(crate) const NAV_RULE: PruneRule = PruneRule {
    entries: &[b"li"],
    link: b"a",
    link_attr: b"href",
};
pub(crate) const NCX_RULE: PruneRule = PruneRule {
    entries: &[b"navPoint", b"pageTarget"],
    link: b"content",
    link_attr: b"src",
};

/// Rewrites a nav or NCX document without the entries pointing at `removed` paths. None
/// when the document cannot be parsed; the caller then keeps it unchanged (its links to
/// removed documents dangle, but it holds no text of them).
pub(crate) fn prune_toc(
    doc: &[u8],
    doc_dir: &str,
    removed: &HashSet<String>,
    rule: &PruneRule,
) -> Option<Vec<u8>> {
    let mut reader = lenient_reader(doc);
    let mut events = Vec::new();
    loop {
        match reader.read_event() {
            Ok(Event::Eof) => break,
            Ok(e) => events.push(e.into_owned()),
            Err(_) => return None,
        }
    }
    let mut writer = Writer::new(Vec::with_capacity(doc.len()));
    let mut i = 0;
    while i < events.len() {
        if let Event::Start(e) = &events[i]
            && rule.entries.contains(&e.local_name().as_ref())
        {
            let end = matching_end(&events, i);
            if entry_target(&events[i + 1..end], doc_dir, rule)
                .is_some_and(|t| removed.contains(&t))
            {
                i = end + 1;
                continue;
            }
        }
        writer.write_event(events[i].borrow()).ok()?;
        i += 1;
    }
    Some(writer.into_inner())
}

/// Index of the End event closing the Start at `start` (or the last event).
fn matching_end(events: &[Event<'static>], start: usize) -> usize {
    let mut depth = 0usize;
    for (j, e) in events.iter().enumerate().skip(start) {
        match e {
            Event::Start(_) => depth += 1,
            Event::End(_) => {
                depth -= 1;
                if depth == 0 {
                    return j;
                }
            }
            _ => {}
        }
    }
    events.len() - 1
}

fn entry_target(inner: &[Event<'static>], dir: &str, rule: &PruneRule) -> Option<String> {
    for e in inner {
        match e {
            Event::Start(s) | Event::Empty(s) => {
                let name = s.local_name();
                if rule.entries.contains(&name.as_ref()) {
                    return None;
                }
                if name.as_ref() == rule.link {
                    return attr(s, rule.link_attr).and_then(|h| resolve(dir, &h));
                }
            }
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::common::epub::toc::ncx_titles;
    use crate::common::epub::toc::tests::NAV;

    #[test]
    fn pruning_removes_entries_past_the_trial() {
        let removed: HashSet<String> =
            ["OEBPS/c2.xhtml".to_owned(), "OEBPS/c3.xhtml".to_owned()].into();
        let out = prune_toc(NAV.as_bytes(), "OEBPS/", &removed, &NAV_RULE).unwrap();
        let s = String::from_utf8(out).unwrap();
        assert!(s.contains("c1.xhtml"));
        assert!(!s.contains("c2.xhtml") && !s.contains("c3.xhtml"), "{s}");
        assert!(s.contains("epub:type=\"landmarks\""));
    }

    #[test]
    fn ncx_titles_and_pruning() {
        let ncx = r#"<ncx><navMap><navPoint id="a"><navLabel><text>First</text></navLabel><content src="t/c1.xhtml"/></navPoint>
<navPoint id="b"><navLabel><text>Second</text></navLabel><content src="t/c2.xhtml"/></navPoint></navMap></ncx>"#;
        let t = ncx_titles(ncx.as_bytes(), "");
        assert_eq!(t["t/c2.xhtml"], "Second");
        let removed: HashSet<String> = ["t/c2.xhtml".to_owned()].into();
        let s =
            String::from_utf8(prune_toc(ncx.as_bytes(), "", &removed, &NCX_RULE).unwrap()).unwrap();
        assert!(s.contains("First") && !s.contains("Second"));
    }
}
