//! The epub's own table of contents (EPUB 3 nav document, EPUB 2 NCX): chapter titles by
//! target path.

use std::collections::HashMap;

use quick_xml::events::Event;

use crate::common::epub::package::{Package, resolve};
use crate::common::error::BookFileError;
use crate::common::safe_zip::SafeZip;
use crate::common::xml::{TextCollector, attr, lenient_reader};

/// Titles by target path from the nav document, else from the NCX.
pub(crate) fn toc_titles(
    zip: &mut SafeZip<'_>,
    package: &Package,
) -> Result<HashMap<String, String>, BookFileError> {
    let mut titles = HashMap::new();
    if let Some(nav) = package.nav()
        && let Some(bytes) = zip.read(&nav.path)?
    {
        titles = nav_titles(&bytes, dir_of(&nav.path));
    }
    if titles.is_empty()
        && let Some(ncx) = package.ncx()
        && let Some(bytes) = zip.read(&ncx.path)?
    {
        titles = ncx_titles(&bytes, dir_of(&ncx.path));
    }
    Ok(titles)
}

/// The directory part of a zip path, with its trailing '/', or "".
pub(crate) fn dir_of(path: &str) -> &str {
    match path.rfind('/') {
        Some(i) => &path[..=i],
        None => "",
    }
}

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

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A nav document: a toc of three chapters (the second with a sub-entry) and landmarks.
    pub(crate) const NAV: &str = r#"<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><body>
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
}
