//! The text layer of a pdf page as lines, read from its content stream: text shown by
//! Tj, TJ, ' and " in the fonts' encodings, placed by the text matrix (Tm, Td, TD, T*).
//! Lines and word gaps are told from the positions (lopdf's own extraction joins every
//! fragment of a text object, running lines and words together).

use std::collections::BTreeMap;

use lopdf::content::{Content, Operation};
use lopdf::{Dictionary, Document, Encoding, Object, ObjectId};

use crate::common::pdf::page::PageBounds;

/// Page tree levels searched for inherited resources (a cycle ends there).
const MAX_TREE_DEPTH: usize = 32;
/// A TJ adjustment (thousandths of the font size) wider than this is a word gap.
const TJ_WORD_GAP: f32 = 200.0;
/// Estimated glyph width, as a share of the font size (no font metrics are read).
const GLYPH_WIDTH: f32 = 0.5;
/// A move on the same line further right than this share of the font size past the
/// estimated end of the text before is a word gap.
const MOVE_WORD_GAP: f32 = 0.15;
/// A vertical move of more than this share of the font size starts a new line.
const NEW_LINE_SHIFT: f32 = 0.5;

/// One line of text on a page, with the position of its start.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PageLine {
    pub(crate) text: String,
    pub(crate) y: f32,
    pub(crate) size: f32,
}

/// The lines of a page in the order its content shows them. A page whose fonts or
/// content cannot be read gives the lines read before the damage; one whose content is
/// past `page::MAX_PAGE_CONTENT` none, and a font whose map is, none of its text.
pub(crate) fn page_lines(
    doc: &Document,
    page_id: ObjectId,
    bounds: &mut PageBounds,
) -> Vec<PageLine> {
    let encodings: BTreeMap<Vec<u8>, Encoding<'_>> = page_fonts(doc, page_id)
        .into_iter()
        .filter(|(_, font)| bounds.font_fits(doc, font))
        .filter_map(|(name, font)| font.get_font_encoding(doc).ok().map(|e| (name, e)))
        .collect();
    let Some(content) = bounds.content(doc, page_id) else {
        return Vec::new();
    };
    let Ok(content) = Content::decode(&content) else {
        return Vec::new();
    };
    let mut state = TextState::new(&encodings);
    for operation in &content.operations {
        state.apply(operation);
    }
    state.lines
}

/// The fonts a page can use by name: its own resources', then those it inherits from the
/// page tree nodes above it (inline or referenced; lopdf's own lookup misses inherited
/// resources written inline).
fn page_fonts(doc: &Document, page_id: ObjectId) -> BTreeMap<Vec<u8>, &Dictionary> {
    let mut fonts = BTreeMap::new();
    let mut node = doc.get_dictionary(page_id).ok();
    for _ in 0..MAX_TREE_DEPTH {
        let Some(current) = node else {
            break;
        };
        let font_dict = current
            .get_deref(b"Resources", doc)
            .and_then(Object::as_dict)
            .and_then(|r| r.get_deref(b"Font", doc))
            .and_then(Object::as_dict);
        if let Ok(font_dict) = font_dict {
            for (name, font) in font_dict.iter() {
                let font = match font {
                    Object::Reference(id) => doc.get_dictionary(*id).ok(),
                    Object::Dictionary(d) => Some(d),
                    _ => None,
                };
                if let Some(font) = font {
                    fonts.entry(name.clone()).or_insert(font);
                }
            }
        }
        node = current
            .get(b"Parent")
            .and_then(Object::as_reference)
            .and_then(|id| doc.get_dictionary(id))
            .ok();
    }
    fonts
}

/// A 2-D affine matrix [a b c d e f], as pdf writes them.
#[derive(Debug, Clone, Copy)]
struct Matrix([f32; 6]);

impl Matrix {
    const IDENTITY: Matrix = Matrix([1.0, 0.0, 0.0, 1.0, 0.0, 0.0]);

    /// This matrix moved by (tx, ty) in its own space (Td).
    fn translated(self, tx: f32, ty: f32) -> Matrix {
        let [a, b, c, d, e, f] = self.0;
        Matrix([a, b, c, d, tx * a + ty * c + e, tx * b + ty * d + f])
    }

    fn y_scale(self) -> f32 {
        self.0[2].hypot(self.0[3])
    }
}

struct TextState<'a, 'e> {
    encodings: &'a BTreeMap<Vec<u8>, Encoding<'e>>,
    encoding: Option<&'a Encoding<'e>>,
    font_size: f32,
    leading: f32,
    matrix: Matrix,
    line_matrix: Matrix,
    lines: Vec<PageLine>,
    /// Where the text shown last is estimated to end, in page space.
    end_x: f32,
}

impl<'a, 'e> TextState<'a, 'e> {
    fn new(encodings: &'a BTreeMap<Vec<u8>, Encoding<'e>>) -> Self {
        TextState {
            encodings,
            encoding: None,
            font_size: 12.0,
            leading: 0.0,
            matrix: Matrix::IDENTITY,
            line_matrix: Matrix::IDENTITY,
            lines: Vec::new(),
            end_x: f32::MIN,
        }
    }

    fn apply(&mut self, op: &Operation) {
        let num = |i: usize| op.operands.get(i).and_then(|o| o.as_float().ok());
        match op.operator.as_str() {
            "BT" => {
                self.matrix = Matrix::IDENTITY;
                self.line_matrix = Matrix::IDENTITY;
            }
            "Tf" => {
                self.encoding = op
                    .operands
                    .first()
                    .and_then(|o| o.as_name().ok())
                    .and_then(|name| self.encodings.get(name));
                if let Some(size) = num(1) {
                    self.font_size = size;
                }
            }
            "TL" => {
                if let Some(l) = num(0) {
                    self.leading = l;
                }
            }
            "Td" | "TD" => {
                if let (Some(tx), Some(ty)) = (num(0), num(1)) {
                    if op.operator == "TD" {
                        self.leading = -ty;
                    }
                    self.move_line(tx, ty);
                }
            }
            "Tm" => {
                let values: Vec<f32> = (0..6).filter_map(num).collect();
                if let Ok(m) = <[f32; 6]>::try_from(values) {
                    self.matrix = Matrix(m);
                    self.line_matrix = Matrix(m);
                }
            }
            "T*" => self.move_line(0.0, -self.leading),
            "Tj" => self.show_operand(op.operands.first()),
            "'" => {
                self.move_line(0.0, -self.leading);
                self.show_operand(op.operands.first());
            }
            "\"" => {
                self.move_line(0.0, -self.leading);
                self.show_operand(op.operands.get(2));
            }
            "TJ" => {
                let Some(Object::Array(items)) = op.operands.first() else {
                    return;
                };
                for item in items {
                    match item {
                        Object::String(bytes, _) => self.show(bytes),
                        other => {
                            if let Ok(adjust) = other.as_float() {
                                self.adjust(adjust);
                            }
                        }
                    }
                }
            }
            _ => {}
        }
    }

    fn move_line(&mut self, tx: f32, ty: f32) {
        self.line_matrix = self.line_matrix.translated(tx, ty);
        self.matrix = self.line_matrix;
    }

    fn size(&self) -> f32 {
        (self.font_size * self.matrix.y_scale()).abs().max(0.1)
    }

    fn show_operand(&mut self, operand: Option<&Object>) {
        if let Some(Object::String(bytes, _)) = operand {
            self.show(bytes);
        }
    }

    /// A TJ number: moves the next glyphs left (positive) or right (negative).
    fn adjust(&mut self, thousandths: f32) {
        let shift = -thousandths / 1000.0 * self.font_size;
        self.matrix = self.matrix.translated(shift, 0.0);
        if thousandths < -TJ_WORD_GAP
            && let Some(line) = self.lines.last_mut()
            && !line.text.ends_with(' ')
        {
            line.text.push(' ');
        }
    }

    fn show(&mut self, bytes: &[u8]) {
        let Some(encoding) = self.encoding else {
            return;
        };
        let Ok(text) = Document::decode_text(encoding, bytes) else {
            return;
        };
        let [.., x, y] = self.matrix.0;
        let size = self.size();
        let same_line = self
            .lines
            .last()
            .is_some_and(|l| (l.y - y).abs() <= NEW_LINE_SHIFT * size);
        if !same_line {
            self.lines.push(PageLine {
                text: String::new(),
                y,
                size,
            });
        } else if x > self.end_x + MOVE_WORD_GAP * size
            && let Some(line) = self.lines.last_mut()
            && !line.text.ends_with(' ')
            && !text.starts_with(' ')
        {
            line.text.push(' ');
        }
        let glyphs = text.chars().count() as f32;
        if let Some(line) = self.lines.last_mut() {
            line.text
                .extend(text.chars().map(|c| if c.is_control() { ' ' } else { c }));
        }
        let advance = glyphs * GLYPH_WIDTH * self.font_size;
        self.matrix = self.matrix.translated(advance, 0.0);
        self.end_x = self.matrix.0[4];
    }
}

#[cfg(test)]
mod tests {
    use lopdf::content::Operation;
    use lopdf::dictionary;

    use super::*;

    fn run(ops: Vec<Operation>) -> Vec<PageLine> {
        let font = dictionary! { "Type" => "Font", "Encoding" => "WinAnsiEncoding" };
        let doc = Document::new();
        let mut encodings = BTreeMap::new();
        encodings.insert(b"F1".to_vec(), font.get_font_encoding(&doc).unwrap());
        let mut state = TextState::new(&encodings);
        for op in &ops {
            state.apply(op);
        }
        state.lines
    }

    fn op(name: &str, operands: Vec<Object>) -> Operation {
        Operation::new(name, operands)
    }

    #[test]
    fn lines_and_word_gaps_follow_the_positions() {
        let lines = run(vec![
            op("BT", vec![]),
            op("Tf", vec!["F1".into(), 10.into()]),
            op("Td", vec![72.into(), 700.into()]),
            op(
                "TJ",
                vec![Object::Array(vec![
                    Object::string_literal("Hel"),
                    (-20).into(),
                    Object::string_literal("lo"),
                    (-400).into(),
                    Object::string_literal("world"),
                ])],
            ),
            op("TL", vec![12.into()]),
            op("T*", vec![]),
            op("Tj", vec![Object::string_literal("next")]),
            op("Td", vec![60.into(), 0.into()]),
            op("Tj", vec![Object::string_literal("word")]),
            op("'", vec![Object::string_literal("third line")]),
            op("ET", vec![]),
        ]);
        let text: Vec<&str> = lines.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(text, ["Hello world", "next word", "third line"]);
        assert_eq!(lines[0].y, 700.0);
        assert_eq!(lines[1].y, 688.0);
        assert_eq!(lines[0].size, 10.0);
    }

    #[test]
    fn text_in_an_unknown_font_is_skipped() {
        let lines = run(vec![
            op("Tf", vec!["F9".into(), 10.into()]),
            op("Tj", vec![Object::string_literal("lost")]),
            op("Tj", vec![]),
            op("Tm", vec![1.into()]),
        ]);
        assert!(lines.is_empty());
    }
}
