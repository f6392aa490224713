//! The epub's own table of contents (EPUB 3 nav document, EPUB 2 NCX): chapter titles by
//! target, and removing the entries that point past a trial.

use std::collections::{HashMap, HashSet};

use quick_xml::Writer;
use quick_xml::events::Event;

use crate::epub_package::{attr, resolve};
use crate::xhtml::{TextCollector, lenient_reader};

/// Titles by target path (fragment dropped); the first entry for a path wins.
pub(crate) fn nav_titles(nav: &[u8], nav_dir: &str) -> HashMap<String, String> {
    let mut titles = HashMap::new();
    let mut reader = lenient_reader(nav);
    // Depth inside the chosen <nav>, and whether a toc nav was seen at all.
    let mut nav_depth = 0usize;
    let mut in_toc = false;
    let mut done = false;
    let mut link: Option<(String, TextCollector)> = None;
    while let Ok(event) = reader.read_event() {
        match event {
            Event::Start(e) => {
                let name = e.local_name();
                if name.as_ref() == b"nav" && !in_toc && !done {
                    let kind = attr(&e, b"type").unwrap_or_default();
                    if kind.split_whitespace().any(|k| k == "toc") {
                        in_toc = true;
                        nav_depth = 0;
                    }
                } else if in_toc {
                    nav_depth += 1;
                    if name.as_ref() == b"a" {
                        link = attr(&e, b"href").map(|h| (h, TextCollector::default()));
                    }
                }
            }
            Event::End(e) => {
                if !in_toc {
                    continue;
                }
                if e.local_name().as_ref() == b"a"
                    && let Some((href, text)) = link.take()
                    && let Some(path) = resolve(nav_dir, &href)
                    && !text.text.is_empty()
                {
                    titles.entry(path).or_insert(text.text);
                }
                if nav_depth == 0 {
                    in_toc = false;
                    done = true;
                } else {
                    nav_depth -= 1;
                }
            }
            Event::Text(_) | Event::GeneralRef(_) => {
                if let Some((_, c)) = link.as_mut() {
                    c.push_event(&event);
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    titles
}

/// Titles by target path from an NCX navMap.
pub(crate) fn ncx_titles(ncx: &[u8], ncx_dir: &str) -> HashMap<String, String> {
    let mut titles = HashMap::new();
    let mut reader = lenient_reader(ncx);
    let mut label: Option<TextCollector> = None;
    let mut last_label = String::new();
    let mut in_nav_map = false;
    while let Ok(event) = reader.read_event() {
        match event {
            Event::Start(e) => match e.local_name().as_ref() {
                b"navMap" => in_nav_map = true,
                b"text" if in_nav_map => label = Some(TextCollector::default()),
                b"content" if in_nav_map => add_ncx_target(&e, ncx_dir, &last_label, &mut titles),
                _ => {}
            },
            Event::Empty(e) if in_nav_map && e.local_name().as_ref() == b"content" => {
                add_ncx_target(&e, ncx_dir, &last_label, &mut titles);
            }
            Event::End(e) => match e.local_name().as_ref() {
                b"navMap" => in_nav_map = false,
                b"text" => {
                    if let Some(l) = label.take() {
                        last_label = l.text;
                    }
                }
                _ => {}
            },
            Event::Text(_) | Event::GeneralRef(_) => {
                if let Some(c) = label.as_mut() {
                    c.push_event(&event);
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    titles
}

fn add_ncx_target(
    e: &quick_xml::events::BytesStart<'_>,
    dir: &str,
    label: &str,
    titles: &mut HashMap<String, String>,
) {
    if label.is_empty() {
        return;
    }
    if let Some(path) = attr(e, b"src").and_then(|src| resolve(dir, &src)) {
        titles.entry(path).or_insert_with(|| label.to_owned());
    }
}

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

    const NAV: &str = r#"<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><body>
<nav epub:type="toc"><ol><li><a href="c1.xhtml">One</a></li><li><a href="c2.xhtml#x">Two &amp; more</a>
<ol><li><a href="c2.xhtml#y">Two b</a></li></ol></li><li><a href="c3.xhtml">Three</a></li></ol></nav>
<nav epub:type="landmarks"><ol><li><a href="c3.xhtml">Not a title</a></li></ol></nav></body></html>"#;

    #[test]
    fn nav_titles_by_path() {
        let t = nav_titles(NAV.as_bytes(), "OEBPS/");
        assert_eq!(t["OEBPS/c1.xhtml"], "One");
        assert_eq!(t["OEBPS/c2.xhtml"], "Two & more");
        assert_eq!(t["OEBPS/c3.xhtml"], "Three");
    }

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
