//! The epub package: container.xml -> the OPF (metadata, manifest, spine), and the paths
//! inside the container that hrefs resolve to.

use quick_xml::events::{BytesStart, Event};

use crate::common::error::BookFileError;
use crate::common::safe_zip::SafeZip;
use crate::common::xml::{TextCollector, attr, lenient_reader};

pub(crate) const CONTAINER_PATH: &str = "META-INF/container.xml";
const OPF_MEDIA_TYPE: &str = "application/oebps-package+xml";
const NCX_MEDIA_TYPE: &str = "application/x-dtbncx+xml";

#[derive(Debug, Clone)]
pub(crate) struct ManifestItem {
    pub(crate) id: String,
    /// As written in the OPF (relative to it, maybe percent-encoded).
    pub(crate) href: String,
    /// The zip entry it resolves to.
    pub(crate) path: String,
    pub(crate) media_type: String,
    pub(crate) properties: String,
}

impl ManifestItem {
    pub(crate) fn is_xhtml(&self) -> bool {
        self.media_type.contains("html")
    }
}

#[derive(Debug, Clone)]
pub(crate) struct Package {
    pub(crate) opf_path: String,
    pub(crate) opf_dir: String,
    pub(crate) title: Option<String>,
    pub(crate) creators: Vec<String>,
    pub(crate) language: Option<String>,
    pub(crate) manifest: Vec<ManifestItem>,
    /// Spine idrefs in reading order.
    pub(crate) spine: Vec<String>,
    /// The spine's `toc` attribute (the NCX's id), EPUB 2.
    pub(crate) toc_id: Option<String>,
}

impl Package {
    pub(crate) fn item(&self, id: &str) -> Option<&ManifestItem> {
        self.manifest.iter().find(|i| i.id == id)
    }

    /// The EPUB 3 navigation document.
    pub(crate) fn nav(&self) -> Option<&ManifestItem> {
        self.manifest
            .iter()
            .find(|i| i.properties.split_whitespace().any(|p| p == "nav"))
    }

    /// The EPUB 2 NCX.
    pub(crate) fn ncx(&self) -> Option<&ManifestItem> {
        self.toc_id
            .as_deref()
            .and_then(|id| self.item(id))
            .or_else(|| {
                self.manifest
                    .iter()
                    .find(|i| i.media_type == NCX_MEDIA_TYPE)
            })
    }

    /// The manifest items the spine lists, in reading order (unknown idrefs skipped).
    pub(crate) fn spine_items(&self) -> Vec<&ManifestItem> {
        self.spine.iter().filter_map(|id| self.item(id)).collect()
    }
}

/// Reads container.xml and the OPF it names.
pub(crate) fn open_package(zip: &mut SafeZip<'_>) -> Result<Package, BookFileError> {
    let container = zip
        .read(CONTAINER_PATH)?
        .ok_or_else(|| BookFileError::unreadable("epub", "container.xml is missing"))?;
    let opf_path = rootfile_path(&container)?;
    let opf = zip.read(&opf_path)?.ok_or_else(|| {
        BookFileError::unreadable(
            "epub",
            format!("the package document {opf_path} is missing"),
        )
    })?;
    let opf_dir = match opf_path.rfind('/') {
        Some(i) => opf_path[..=i].to_owned(),
        None => String::new(),
    };
    let mut package = parse_opf(&opf, &opf_dir)?;
    package.opf_path = opf_path;
    if package.spine_items().is_empty() {
        return Err(BookFileError::unreadable(
            "epub",
            "its spine lists no chapters",
        ));
    }
    Ok(package)
}

fn rootfile_path(container: &[u8]) -> Result<String, BookFileError> {
    let mut reader = lenient_reader(container);
    let mut first: Option<String> = None;
    loop {
        match reader.read_event() {
            Ok(Event::Start(e) | Event::Empty(e)) if e.local_name().as_ref() == b"rootfile" => {
                let Some(path) = attr(&e, b"full-path") else {
                    continue;
                };
                if attr(&e, b"media-type").as_deref() == Some(OPF_MEDIA_TYPE) {
                    return Ok(path);
                }
                first.get_or_insert(path);
            }
            Ok(Event::Eof) => break,
            Ok(_) => {}
            Err(_) => {
                return Err(BookFileError::unreadable(
                    "epub",
                    "container.xml is not well-formed",
                ));
            }
        }
    }
    first
        .ok_or_else(|| BookFileError::unreadable("epub", "container.xml names no package document"))
}

fn parse_opf(opf: &[u8], opf_dir: &str) -> Result<Package, BookFileError> {
    let mut package = Package {
        opf_path: String::new(),
        opf_dir: opf_dir.to_owned(),
        title: None,
        creators: Vec::new(),
        language: None,
        manifest: Vec::new(),
        spine: Vec::new(),
        toc_id: None,
    };
    let mut reader = lenient_reader(opf);
    // The metadata element whose text is being collected.
    let mut field: Option<(&'static str, TextCollector)> = None;
    loop {
        let event = reader.read_event().map_err(|_| {
            BookFileError::unreadable("epub", "the package document (OPF) is not well-formed")
        })?;
        match event {
            Event::Start(e) => {
                let name = e.local_name();
                field = match name.as_ref() {
                    b"title" if package.title.is_none() => {
                        Some(("title", TextCollector::default()))
                    }
                    b"creator" => Some(("creator", TextCollector::default())),
                    b"language" if package.language.is_none() => {
                        Some(("language", TextCollector::default()))
                    }
                    _ => field,
                };
                opf_element(&e, opf_dir, &mut package);
            }
            Event::Empty(e) => opf_element(&e, opf_dir, &mut package),
            Event::Text(_) | Event::GeneralRef(_) => {
                if let Some((_, c)) = field.as_mut() {
                    c.push_event(&event);
                }
            }
            Event::End(_) => {
                if let Some((kind, c)) = field.take() {
                    let value = c.text;
                    if !value.is_empty() {
                        match kind {
                            "title" => package.title = Some(value),
                            "creator" => package.creators.push(value),
                            _ => package.language = Some(value),
                        }
                    }
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    Ok(package)
}

fn opf_element(e: &BytesStart<'_>, opf_dir: &str, package: &mut Package) {
    match e.local_name().as_ref() {
        b"item" => {
            let (Some(id), Some(href)) = (attr(e, b"id"), attr(e, b"href")) else {
                return;
            };
            let Some(path) = resolve(opf_dir, &href) else {
                return;
            };
            package.manifest.push(ManifestItem {
                id,
                href,
                path,
                media_type: attr(e, b"media-type").unwrap_or_default(),
                properties: attr(e, b"properties").unwrap_or_default(),
            });
        }
        b"itemref" => {
            if let Some(idref) = attr(e, b"idref") {
                package.spine.push(idref);
            }
        }
        b"spine" => package.toc_id = attr(e, b"toc"),
        _ => {}
    }
}

/// Resolves `href` (relative to the directory `base`, which ends in '/' or is empty) to a
/// zip entry path: fragment dropped, percent-decoded, dot segments applied. None when it
/// leaves the container, is absolute or names another site.
pub(crate) fn resolve(base: &str, href: &str) -> Option<String> {
    let href = href.split('#').next().unwrap_or_default();
    if href.is_empty() || href.starts_with('/') || href.contains("://") {
        return None;
    }
    let decoded = percent_decode(href);
    let mut parts: Vec<&str> = base.split('/').filter(|p| !p.is_empty()).collect();
    for part in decoded.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            p => parts.push(p),
        }
    }
    Some(parts.join("/"))
}

fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && let Some(hex) = s.get(i + 1..i + 3)
            && let Ok(b) = u8::from_str_radix(hex, 16)
        {
            out.push(b);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8(out).unwrap_or_else(|_| s.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hrefs_resolve_inside_the_container() {
        assert_eq!(
            resolve("OEBPS/", "text/ch1.xhtml#p3").as_deref(),
            Some("OEBPS/text/ch1.xhtml")
        );
        assert_eq!(
            resolve("OEBPS/text/", "../css/a.css").as_deref(),
            Some("OEBPS/css/a.css")
        );
        assert_eq!(resolve("", "ch%201.xhtml").as_deref(), Some("ch 1.xhtml"));
        assert_eq!(resolve("OEBPS/", "../../x"), None);
        assert_eq!(resolve("OEBPS/", "/etc/passwd"), None);
        assert_eq!(resolve("OEBPS/", "https://example.org/x"), None);
    }

    #[test]
    fn opf_metadata_manifest_and_spine() {
        let opf = br#"<?xml version="1.0"?>
<package xmlns="http://www.idpf.org/2007/opf" version="3.0">
<metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
<dc:title>A &amp; B</dc:title><dc:creator>Ann Writer</dc:creator><dc:creator>Bo Co</dc:creator>
<dc:language>en</dc:language></metadata>
<manifest><item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>
<item id="c1" href="c1.xhtml" media-type="application/xhtml+xml"/></manifest>
<spine toc="ncx"><itemref idref="c1"/><itemref idref="missing"/></spine></package>"#;
        let p = parse_opf(opf, "OEBPS/").unwrap();
        assert_eq!(p.title.as_deref(), Some("A & B"));
        assert_eq!(p.creators, vec!["Ann Writer", "Bo Co"]);
        assert_eq!(p.language.as_deref(), Some("en"));
        assert_eq!(p.nav().unwrap().path, "OEBPS/nav.xhtml");
        assert_eq!(p.spine_items().len(), 1);
        assert_eq!(p.toc_id.as_deref(), Some("ncx"));
    }
}
