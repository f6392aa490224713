//! The small parts of a docx: the styles (which paragraph styles are headings or the
//! title) and the core properties (title, creator, language).

use std::collections::HashMap;

use quick_xml::events::Event;

use crate::common::error::BookFileError;
use crate::common::xml::{TextCollector, attr, lenient_reader};
use crate::manuscript::deadline::Deadline;
use crate::manuscript::metadata_fields::split_names;

/// Longest `basedOn` chain followed (a cycle ends there).
const MAX_STYLE_DEPTH: usize = 10;

/// What a paragraph style makes of its paragraphs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum StyleRole {
    /// A heading of level 1 (top) to 9.
    Heading(u8),
    /// The document's title.
    Title,
    Body,
}

#[derive(Debug, Default)]
struct Style {
    name: String,
    based_on: Option<String>,
    outline: Option<u8>,
}

/// Paragraph styles by id, from word/styles.xml.
#[derive(Debug, Default)]
pub(crate) struct Styles(HashMap<String, Style>);

impl Styles {
    pub(crate) fn parse(xml: &[u8], deadline: &mut Deadline) -> Result<Styles, BookFileError> {
        let mut styles = HashMap::new();
        let mut current: Option<(String, Style)> = None;
        let mut reader = lenient_reader(xml);
        while let Ok(event) = reader.read_event() {
            deadline.step()?;
            match event {
                Event::Start(e) | Event::Empty(e) => match e.local_name().as_ref() {
                    b"style" => {
                        if let Some((id, s)) = current.take() {
                            styles.insert(id, s);
                        }
                        current = attr(&e, b"styleId").map(|id| (id, Style::default()));
                    }
                    b"name" => {
                        if let (Some((_, s)), Some(v)) = (current.as_mut(), attr(&e, b"val")) {
                            s.name = v.to_lowercase();
                        }
                    }
                    b"basedOn" => {
                        if let Some((_, s)) = current.as_mut() {
                            s.based_on = attr(&e, b"val");
                        }
                    }
                    b"outlineLvl" => {
                        if let Some((_, s)) = current.as_mut() {
                            s.outline = attr(&e, b"val").and_then(|v| v.parse().ok());
                        }
                    }
                    _ => {}
                },
                Event::End(e) if e.local_name().as_ref() == b"style" => {
                    if let Some((id, s)) = current.take() {
                        styles.insert(id, s);
                    }
                }
                Event::Eof => break,
                _ => {}
            }
        }
        if let Some((id, s)) = current {
            styles.insert(id, s);
        }
        Ok(Styles(styles))
    }

    /// The role of a paragraph with style `id` and its own outline level, if any.
    pub(crate) fn role(&self, id: Option<&str>, outline: Option<u8>) -> StyleRole {
        if let Some(level) = outline {
            return outline_role(level);
        }
        let mut id = id;
        for _ in 0..MAX_STYLE_DEPTH {
            let Some(current) = id else {
                break;
            };
            let style = self.0.get(current);
            let name = style.map_or("", |s| s.name.as_str());
            if name == "title" || current.eq_ignore_ascii_case("title") {
                return StyleRole::Title;
            }
            if let Some(level) = style.and_then(|s| s.outline) {
                return outline_role(level);
            }
            let numbered = name
                .strip_prefix("heading ")
                .or_else(|| strip_prefix_ignore_case(current, "heading"));
            if let Some(level) = numbered.and_then(|n| n.trim().parse::<u8>().ok())
                && (1..=9).contains(&level)
            {
                return StyleRole::Heading(level);
            }
            id = style.and_then(|s| s.based_on.as_deref());
        }
        StyleRole::Body
    }
}

/// `w:outlineLvl` 0-8 is a heading level 1-9; 9 is body text.
fn outline_role(level: u8) -> StyleRole {
    if level < 9 {
        StyleRole::Heading(level + 1)
    } else {
        StyleRole::Body
    }
}

fn strip_prefix_ignore_case<'a>(s: &'a str, prefix: &str) -> Option<&'a str> {
    let head = s.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix)
        .then(|| &s[prefix.len()..])
}

/// docProps/core.xml: dc:title, dc:creator, dc:language.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct CoreProperties {
    pub(crate) title: Option<String>,
    pub(crate) authors: Vec<String>,
    pub(crate) language: Option<String>,
}

impl CoreProperties {
    pub(crate) fn parse(
        xml: &[u8],
        deadline: &mut Deadline,
    ) -> Result<CoreProperties, BookFileError> {
        let mut props = CoreProperties::default();
        let mut field: Option<(Vec<u8>, TextCollector)> = None;
        let mut reader = lenient_reader(xml);
        while let Ok(event) = reader.read_event() {
            deadline.step()?;
            match event {
                Event::Start(e) => {
                    let name = e.local_name().as_ref().to_vec();
                    if matches!(name.as_slice(), b"title" | b"creator" | b"language") {
                        field = Some((name, TextCollector::default()));
                    }
                }
                Event::Text(_) | Event::GeneralRef(_) => {
                    if let Some((_, c)) = field.as_mut() {
                        c.push_event(&event);
                    }
                }
                Event::End(_) => {
                    if let Some((name, c)) = field.take()
                        && !c.text.is_empty()
                    {
                        match name.as_slice() {
                            b"title" => props.title = Some(c.text),
                            b"creator" => props.authors = split_names(&c.text),
                            _ => props.language = Some(c.text),
                        }
                    }
                }
                Event::Eof => break,
                _ => {}
            }
        }
        Ok(props)
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    fn deadline() -> Deadline {
        Deadline::new(Duration::from_secs(60))
    }

    #[test]
    fn heading_styles_by_name_id_and_outline() {
        let xml = br#"<w:styles xmlns:w="w">
<w:style w:type="paragraph" w:styleId="berschrift1"><w:name w:val="heading 1"/></w:style>
<w:style w:type="paragraph" w:styleId="Mine"><w:name w:val="Mine"/><w:basedOn w:val="berschrift1"/></w:style>
<w:style w:type="paragraph" w:styleId="Deep"><w:name w:val="Deep"/><w:pPr><w:outlineLvl w:val="2"/></w:pPr></w:style>
<w:style w:type="paragraph" w:styleId="Title"><w:name w:val="Title"/></w:style>
<w:style w:type="paragraph" w:styleId="LoopA"><w:name w:val="a"/><w:basedOn w:val="LoopB"/></w:style>
<w:style w:type="paragraph" w:styleId="LoopB"><w:name w:val="b"/><w:basedOn w:val="LoopA"/></w:style>
</w:styles>"#;
        let s = Styles::parse(xml, &mut deadline()).unwrap();
        assert_eq!(s.role(Some("berschrift1"), None), StyleRole::Heading(1));
        assert_eq!(s.role(Some("Mine"), None), StyleRole::Heading(1));
        assert_eq!(s.role(Some("Deep"), None), StyleRole::Heading(3));
        assert_eq!(s.role(Some("Title"), None), StyleRole::Title);
        assert_eq!(s.role(Some("Heading2"), None), StyleRole::Heading(2));
        assert_eq!(s.role(Some("LoopA"), None), StyleRole::Body);
        assert_eq!(s.role(None, Some(0)), StyleRole::Heading(1));
        assert_eq!(s.role(Some("Heading2"), Some(9)), StyleRole::Body);
        assert_eq!(s.role(None, None), StyleRole::Body);
    }

    #[test]
    fn core_properties() {
        let xml = br#"<cp:coreProperties xmlns:cp="c" xmlns:dc="http://purl.org/dc/elements/1.1/">
<dc:title>The River &amp; the Rain</dc:title><dc:creator>Ada Lovelace; Mary Shelley</dc:creator>
<cp:lastModifiedBy>Someone Else</cp:lastModifiedBy><dc:language>en-GB</dc:language></cp:coreProperties>"#;
        let p = CoreProperties::parse(xml, &mut deadline()).unwrap();
        assert_eq!(p.title.as_deref(), Some("The River & the Rain"));
        assert_eq!(p.authors, ["Ada Lovelace", "Mary Shelley"]);
        assert_eq!(p.language.as_deref(), Some("en-GB"));
    }
}
