//! A docx manuscript: word/document.xml read paragraph by paragraph (runs' text, tabs,
//! line breaks; deleted text, field codes and fallback copies of text boxes left out),
//! chapters at paragraphs in heading styles, metadata from docProps/core.xml.

use quick_xml::events::{BytesStart, Event};

use crate::common::error::BookFileError;
use crate::common::safe_zip::SafeZip;
use crate::common::xml::{attr, lenient_reader, resolve_ref};
use crate::manuscript::chapters::ChapterBuilder;
use crate::manuscript::docx::parts::{CoreProperties, StyleRole, Styles};
use crate::manuscript::model::{Manuscript, ManuscriptFormat};

/// The main part of a Word document, where Word and every other writer put it; its
/// presence is what tells a docx from another zip.
pub(crate) const DOCX_DOCUMENT: &str = "word/document.xml";
const STYLES: &str = "word/styles.xml";
const CORE: &str = "docProps/core.xml";

struct Paragraph {
    role: StyleRole,
    text: String,
}

pub(crate) fn extract(
    mut zip: SafeZip<'_>,
    mut builder: ChapterBuilder,
) -> Result<Manuscript, BookFileError> {
    let document = zip.read_required(DOCX_DOCUMENT)?;
    let styles = match zip.read(STYLES)? {
        Some(xml) => Styles::parse(&xml, builder.deadline())?,
        None => Styles::default(),
    };
    let core = match zip.read(CORE)? {
        Some(xml) => CoreProperties::parse(&xml, builder.deadline())?,
        None => CoreProperties::default(),
    };
    let paragraphs = read_paragraphs(&document, &styles, &mut builder)?;
    let styled_title = paragraphs
        .iter()
        .find(|p| p.role == StyleRole::Title)
        .map(|p| p.text.split_whitespace().collect::<Vec<_>>().join(" "));
    let blocks: Vec<(Option<u8>, &str)> = paragraphs
        .iter()
        .map(|p| match p.role {
            StyleRole::Heading(level) => (Some(level), p.text.as_str()),
            StyleRole::Title | StyleRole::Body => (None, p.text.as_str()),
        })
        .collect();
    builder.add_blocks(&blocks)?;
    let (chapters, truncated) = builder.finish(ManuscriptFormat::Docx)?;
    Ok(Manuscript {
        format: ManuscriptFormat::Docx,
        title: core.title.or(styled_title),
        authors: core.authors,
        language: core.language,
        chapters,
        truncated,
    })
}

/// One paragraph being read (text boxes put paragraphs inside paragraphs).
#[derive(Default)]
struct Open {
    style: Option<String>,
    outline: Option<u8>,
    text: String,
}

/// The body's paragraphs with text, in document order.
fn read_paragraphs(
    xml: &[u8],
    styles: &Styles,
    builder: &mut ChapterBuilder,
) -> Result<Vec<Paragraph>, BookFileError> {
    let mut out = Vec::new();
    let mut open: Vec<Open> = Vec::new();
    let mut runs = 0usize;
    let mut in_text = false;
    // Depth inside content that is not shown (a fallback copy of a text box).
    let mut skipped = 0usize;
    let mut reader = lenient_reader(xml);
    loop {
        builder.deadline().step()?;
        let event = match reader.read_event() {
            Ok(Event::Eof) | Err(_) => break,
            Ok(e) => e,
        };
        match event {
            Event::Start(e) => {
                let name = e.local_name();
                match name.as_ref() {
                    b"Fallback" => skipped += 1,
                    _ if skipped > 0 => {}
                    b"p" => open.push(Open::default()),
                    b"r" => runs += 1,
                    b"t" => in_text = runs > 0,
                    _ => element(&e, &mut open, runs),
                }
            }
            Event::Empty(e) if skipped == 0 => element(&e, &mut open, runs),
            Event::End(e) => match e.local_name().as_ref() {
                b"Fallback" => skipped = skipped.saturating_sub(1),
                _ if skipped > 0 => {}
                b"p" => {
                    if let Some(p) = open.pop() {
                        let text = p.text.trim();
                        if !text.is_empty() {
                            out.push(Paragraph {
                                role: styles.role(p.style.as_deref(), p.outline),
                                text: text.to_owned(),
                            });
                        }
                    }
                }
                b"r" => runs = runs.saturating_sub(1),
                b"t" => in_text = false,
                _ => {}
            },
            Event::Text(t) if in_text && skipped == 0 => {
                if let (Some(p), Ok(s)) = (open.last_mut(), t.decode()) {
                    p.text.push_str(&s);
                }
            }
            Event::GeneralRef(r) if in_text && skipped == 0 => {
                if let (Some(p), Some(s)) = (open.last_mut(), resolve_ref(&r)) {
                    p.text.push_str(&s);
                }
            }
            _ => {}
        }
    }
    Ok(out)
}

/// Paragraph properties, and what a run holds besides text.
fn element(e: &BytesStart<'_>, open: &mut [Open], runs: usize) {
    let Some(p) = open.last_mut() else {
        return;
    };
    match e.local_name().as_ref() {
        // The first style wins: a tracked change lists the old one after it.
        b"pStyle" if p.style.is_none() => p.style = attr(e, b"val"),
        b"outlineLvl" if p.outline.is_none() => {
            p.outline = attr(e, b"val").and_then(|v| v.parse().ok());
        }
        b"tab" if runs > 0 => p.text.push('\t'),
        b"br" | b"cr" if runs > 0 => p.text.push('\n'),
        b"noBreakHyphen" if runs > 0 => p.text.push('-'),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::manuscript::deadline::Deadline;

    fn paragraphs(xml: &str) -> Vec<(StyleRole, String)> {
        let mut b = ChapterBuilder::new(1000, Deadline::new(Duration::from_secs(60)));
        read_paragraphs(xml.as_bytes(), &Styles::default(), &mut b)
            .unwrap()
            .into_iter()
            .map(|p| (p.role, p.text))
            .collect()
    }

    #[test]
    fn runs_breaks_and_hidden_text() {
        let xml = r#"<w:document xmlns:w="w" xmlns:mc="mc"><w:body>
<w:p><w:pPr><w:pStyle w:val="Heading1"/><w:tabs><w:tab w:val="left"/></w:tabs>
<w:pPrChange><w:pPr><w:pStyle w:val="Normal"/></w:pPr></w:pPrChange></w:pPr>
<w:r><w:t>Chapter</w:t></w:r><w:r><w:t xml:space="preserve"> One</w:t></w:r></w:p>
<w:p><w:r><w:t>Rock &amp; roll</w:t><w:br/><w:t>next line</w:t><w:tab/><w:t>tabbed</w:t></w:r>
<w:del><w:r><w:delText>deleted</w:delText></w:r></w:del>
<w:r><w:instrText>PAGE</w:instrText></w:r></w:p>
<w:p><w:r><mc:AlternateContent><mc:Choice><w:drawing><w:txbxContent><w:p><w:r><w:t>boxed</w:t></w:r></w:p></w:txbxContent></w:drawing></mc:Choice>
<mc:Fallback><w:pict><w:txbxContent><w:p><w:r><w:t>boxed</w:t></w:r></w:p></w:txbxContent></w:pict></mc:Fallback></mc:AlternateContent></w:r></w:p>
<w:p><w:pPr><w:outlineLvl w:val="1"/></w:pPr><w:r><w:t>Outlined</w:t></w:r></w:p>
<w:p></w:p></w:body></w:document>"#;
        let p = paragraphs(xml);
        assert_eq!(
            p,
            [
                (StyleRole::Heading(1), "Chapter One".to_owned()),
                (StyleRole::Body, "Rock & roll\nnext line\ttabbed".to_owned()),
                (StyleRole::Body, "boxed".to_owned()),
                (StyleRole::Heading(2), "Outlined".to_owned()),
            ]
        );
    }
}
