//! A markdown manuscript: front matter as metadata, the text without its markup (links
//! keep their words, images and raw HTML go), chapters at headings.

use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};

use crate::common::error::BookFileError;
use crate::common::txt_headings::is_heading_line;
use crate::manuscript::chapters::ChapterBuilder;
use crate::manuscript::metadata_fields::front_matter;
use crate::manuscript::model::{Manuscript, ManuscriptFormat};
use crate::manuscript::text_decode::decode_text;

/// A block of text: a heading (with its level), or a paragraph, list item, code block,
/// table row, ...
struct Block {
    heading: Option<u8>,
    text: String,
}

pub(crate) fn extract(
    data: &[u8],
    mut builder: ChapterBuilder,
) -> Result<Manuscript, BookFileError> {
    let text = decode_text(data, "md")?;
    let (front, body) = front_matter(&text);
    let blocks = read_blocks(body, &mut builder)?;
    let mut title = front.title;
    // A lone H1 opening the text, that is no chapter heading, is the title.
    let mut skip_first = false;
    if let Some(first) = blocks.first()
        && first.heading == Some(1)
        && blocks.iter().filter(|b| b.heading == Some(1)).count() == 1
        && !is_heading_line(&first.text)
    {
        skip_first = true;
        title = title.or_else(|| Some(first.text.clone()));
    }
    let blocks = &blocks[usize::from(skip_first)..];
    let blocks: Vec<(Option<u8>, &str)> = blocks
        .iter()
        .map(|b| (b.heading, b.text.as_str()))
        .collect();
    builder.add_blocks(&blocks)?;
    let (chapters, truncated) = builder.finish(ManuscriptFormat::Markdown)?;
    Ok(Manuscript {
        format: ManuscriptFormat::Markdown,
        title,
        authors: front.authors,
        language: front.language,
        chapters,
        truncated,
    })
}

fn read_blocks(body: &str, builder: &mut ChapterBuilder) -> Result<Vec<Block>, BookFileError> {
    let options = Options::ENABLE_TABLES
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_YAML_STYLE_METADATA_BLOCKS;
    let mut blocks = Vec::new();
    let mut text = String::new();
    let mut heading: Option<u8> = None;
    // Depth inside content that is not text (image descriptions, metadata blocks).
    let mut hidden = 0usize;
    for event in Parser::new_ext(body, options) {
        builder.deadline().step()?;
        match event {
            Event::Start(Tag::Heading { level, .. }) => {
                flush(&mut blocks, &mut text, None);
                heading = Some(level as u8);
            }
            Event::Start(Tag::Image { .. } | Tag::MetadataBlock(_)) => hidden += 1,
            // A block starting inside another (a nested list) ends the text before it.
            Event::Start(
                Tag::Paragraph
                | Tag::Item
                | Tag::List(_)
                | Tag::CodeBlock(_)
                | Tag::BlockQuote(_)
                | Tag::Table(_)
                | Tag::FootnoteDefinition(_),
            ) => flush(&mut blocks, &mut text, None),
            Event::End(TagEnd::Image | TagEnd::MetadataBlock(_)) => {
                hidden = hidden.saturating_sub(1);
            }
            Event::Start(Tag::TableCell) if !text.is_empty() => text.push('\t'),
            Event::End(TagEnd::Heading(_)) => flush(&mut blocks, &mut text, heading.take()),
            Event::End(
                TagEnd::Paragraph
                | TagEnd::Item
                | TagEnd::CodeBlock
                | TagEnd::TableRow
                | TagEnd::TableHead
                | TagEnd::BlockQuote(_)
                | TagEnd::FootnoteDefinition,
            ) => flush(&mut blocks, &mut text, None),
            Event::Text(t) | Event::Code(t) if hidden == 0 => text.push_str(&t),
            Event::SoftBreak if hidden == 0 => text.push(' '),
            Event::HardBreak if hidden == 0 => text.push('\n'),
            _ => {}
        }
    }
    flush(&mut blocks, &mut text, None);
    Ok(blocks)
}

fn flush(blocks: &mut Vec<Block>, text: &mut String, heading: Option<u8>) {
    let t = std::mem::take(text);
    let t = t.trim();
    if !t.is_empty() {
        blocks.push(Block {
            heading,
            text: t.to_owned(),
        });
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::manuscript::deadline::Deadline;

    #[test]
    fn markup_is_stripped() {
        let md = "- outer\n  - inner\n# Title\n\nSome *emphasis* and [a link](http://x) ![alt](i.png) `code`\nwrapped.  \nbroken\n\n- one\n- two\n\n<div>raw</div>\n\n| a | b |\n|---|---|\n| c | d |\n\n```\nfn x() {}\n```\n";
        let mut b = ChapterBuilder::new(1000, Deadline::new(Duration::from_secs(60)));
        let blocks: Vec<(Option<u8>, String)> = read_blocks(md, &mut b)
            .unwrap()
            .into_iter()
            .map(|b| (b.heading, b.text))
            .collect();
        let texts: Vec<&str> = blocks.iter().map(|(_, t)| t.as_str()).collect();
        assert_eq!(
            texts,
            [
                "outer",
                "inner",
                "Title",
                "Some emphasis and a link  code wrapped.\nbroken",
                "one",
                "two",
                "a\tb",
                "c\td",
                "fn x() {}"
            ]
        );
        assert_eq!(blocks[2].0, Some(1));
    }
}
