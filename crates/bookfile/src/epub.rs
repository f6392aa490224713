//! epub: metadata and chapters (one per spine item), and plain text.

use std::collections::{HashMap, HashSet};

use quick_xml::events::Event;

use crate::epub_package::{Package, attr, open_package, resolve};
use crate::epub_toc::{nav_titles, ncx_titles};
use crate::limits::SafeZip;
use crate::xhtml::{lenient_reader, read_xhtml};
use crate::{BookFileError, Chapter, Format, Inspected, Limits};

const ENCRYPTION_PATH: &str = "META-INF/encryption.xml";
/// Longest chapter title kept (titles from headings can be whole paragraphs).
const MAX_TITLE_CHARS: usize = 200;

pub(crate) fn inspect(data: &[u8], limits: &Limits) -> Result<Inspected, BookFileError> {
    let mut zip = SafeZip::open(data, limits, "epub")?;
    let package = open_package(&mut zip)?;
    refuse_encrypted_chapters(&mut zip, &package)?;
    let chapters = read_chapters(&mut zip, &package)?;
    Ok(Inspected {
        format: Format::Epub,
        title: package.title.clone(),
        authors: package.creators.clone(),
        language: package.language.clone(),
        total_weight: chapters.iter().map(|c| c.weight).sum(),
        chapters,
    })
}

/// DRM-protected epubs list their encrypted documents in META-INF/encryption.xml (font
/// obfuscation lists only fonts, which is fine); encrypted chapters cannot be read or cut.
pub(crate) fn refuse_encrypted_chapters(
    zip: &mut SafeZip<'_>,
    package: &Package,
) -> Result<(), BookFileError> {
    let Some(xml) = zip.read(ENCRYPTION_PATH)? else {
        return Ok(());
    };
    let spine: HashSet<&str> = package
        .spine_items()
        .iter()
        .map(|i| i.path.as_str())
        .collect();
    let mut reader = lenient_reader(&xml);
    while let Ok(event) = reader.read_event() {
        match event {
            Event::Start(e) | Event::Empty(e) if e.local_name().as_ref() == b"CipherReference" => {
                let encrypted = attr(&e, b"URI").and_then(|uri| resolve("", &uri));
                if encrypted.is_some_and(|p| spine.contains(p.as_str())) {
                    return Err(BookFileError::unreadable(
                        "epub",
                        "it is DRM-protected (its chapters are encrypted)",
                    ));
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    Ok(())
}

/// One chapter per spine item, titled from the nav document, else the NCX, else the
/// document's first h1/h2 or title, else "Chapter N".
pub(crate) fn read_chapters(
    zip: &mut SafeZip<'_>,
    package: &Package,
) -> Result<Vec<Chapter>, BookFileError> {
    let titles = toc_titles(zip, package)?;
    let mut chapters = Vec::new();
    for (i, item) in package.spine_items().into_iter().enumerate() {
        let number = i + 1;
        let bytes = zip.read(&item.path)?.ok_or_else(|| {
            BookFileError::unreadable(
                "epub",
                format!("chapter {number} ({}) is missing", item.href),
            )
        })?;
        let (weight, own_title) = if item.is_xhtml() {
            let x = read_xhtml(&bytes);
            (x.chars, x.heading.or(x.title))
        } else {
            (0, None)
        };
        let title = titles
            .get(&item.path)
            .cloned()
            .or(own_title)
            .map(|t| clip_title(&t))
            .filter(|t| !t.is_empty())
            .unwrap_or_else(|| format!("Chapter {number}"));
        chapters.push(Chapter {
            index: u32::try_from(i).unwrap_or(u32::MAX),
            title,
            href: item.href.clone(),
            weight,
        });
    }
    Ok(chapters)
}

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

pub(crate) fn clip_title(title: &str) -> String {
    let collapsed = title.split_whitespace().collect::<Vec<_>>().join(" ");
    match collapsed.char_indices().nth(MAX_TITLE_CHARS) {
        Some((i, _)) => format!("{}\u{2026}", &collapsed[..i]),
        None => collapsed,
    }
}

/// The spine's text in reading order, chapters separated by a blank line.
pub(crate) fn extract_text(data: &[u8], max_chars: usize) -> Result<String, BookFileError> {
    let mut zip = SafeZip::open(data, &Limits::default(), "epub")?;
    let package = open_package(&mut zip)?;
    let mut out = String::new();
    let mut count = 0usize;
    for item in package.spine_items() {
        if count >= max_chars {
            break;
        }
        if !item.is_xhtml() {
            continue;
        }
        let Some(bytes) = zip.read(&item.path)? else {
            continue;
        };
        let text = read_xhtml(&bytes).text;
        if text.is_empty() {
            continue;
        }
        if !out.is_empty() {
            for c in "\n\n".chars().take(max_chars - count) {
                out.push(c);
                count += 1;
            }
        }
        for c in text.chars().take(max_chars - count) {
            out.push(c);
            count += 1;
        }
    }
    Ok(out)
}
