//! Bytes of a text file (txt, markdown) to a string: the encoding from a BOM, else UTF-8
//! when the bytes are valid UTF-8, else UTF-16 recognised by its zero bytes, else the
//! guess of `chardetng` (Windows-1252, Latin-1, Shift_JIS, ...). Binary data is refused.

use std::borrow::Cow;

use chardetng::EncodingDetector;
use encoding_rs::{Encoding, UTF_16BE, UTF_16LE};

use crate::common::error::BookFileError;

/// Bytes looked at to recognise UTF-16 without a BOM.
const UTF16_SNIFF_BYTES: usize = 4096;
/// Share of control characters (in per mille) past which a file is binary, not text.
const MAX_CONTROL_PER_MILLE: usize = 5;

/// The text of `data`, or why it is not text. `kind` names the format in messages. Valid
/// UTF-8 without a BOM (most files) is borrowed, not copied: a novel is a megabyte or more.
pub(crate) fn decode_text<'a>(data: &'a [u8], kind: &str) -> Result<Cow<'a, str>, BookFileError> {
    let text = if let Some((encoding, bom_len)) = Encoding::for_bom(data) {
        decode_with(encoding, &data[bom_len..])
    } else if let Some(encoding) = utf16_without_bom(data) {
        decode_with(encoding, data)
    } else if data.contains(&0) {
        return Err(not_text(kind));
    } else if let Ok(text) = std::str::from_utf8(data) {
        Cow::Borrowed(text)
    } else {
        let mut detector = EncodingDetector::new();
        detector.feed(data, true);
        decode_with(detector.guess(None, true), data)
    };
    if looks_binary(&text) {
        return Err(not_text(kind));
    }
    Ok(text)
}

fn decode_with<'a>(encoding: &'static Encoding, bytes: &'a [u8]) -> Cow<'a, str> {
    encoding.decode_without_bom_handling(bytes).0
}

fn not_text(kind: &str) -> BookFileError {
    BookFileError::Unsupported(format!(
        "The file is named .{kind} but does not hold text (it looks like binary data)"
    ))
}

/// UTF-16 text of mostly Latin letters has a zero in every other byte.
fn utf16_without_bom(data: &[u8]) -> Option<&'static Encoding> {
    let head = &data[..data.len().min(UTF16_SNIFF_BYTES)];
    if head.len() < 4 || !data.len().is_multiple_of(2) {
        return None;
    }
    let pairs = head.len() / 2;
    let zeros_at = |parity: usize| {
        head.iter()
            .skip(parity)
            .step_by(2)
            .filter(|b| **b == 0)
            .count()
    };
    let (even, odd) = (zeros_at(0), zeros_at(1));
    let mostly = |n: usize| n * 10 >= pairs * 7;
    let hardly = |n: usize| n * 50 <= pairs;
    if mostly(odd) && hardly(even) {
        Some(UTF_16LE)
    } else if mostly(even) && hardly(odd) {
        Some(UTF_16BE)
    } else {
        None
    }
}

/// Control characters other than tab, line breaks and form feed, and replacement
/// characters (bytes the encoding could not map), past a few per mille.
fn looks_binary(text: &str) -> bool {
    let mut total = 0usize;
    let mut odd = 0usize;
    for c in text.chars() {
        total += 1;
        let control = c.is_control() && !matches!(c, '\t' | '\n' | '\r' | '\x0c');
        if control || c == '\u{fffd}' {
            odd += 1;
        }
    }
    odd > 0 && odd * 1000 > total * MAX_CONTROL_PER_MILLE
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodings_are_recognised() {
        assert_eq!(decode_text("héllo".as_bytes(), "txt").unwrap(), "héllo");
        assert_eq!(decode_text(b"\xEF\xBB\xBFh\xC3\xA9", "txt").unwrap(), "hé");
        let le: Vec<u8> = "Ünïcode text"
            .encode_utf16()
            .flat_map(u16::to_le_bytes)
            .collect();
        let be: Vec<u8> = "Ünïcode text"
            .encode_utf16()
            .flat_map(u16::to_be_bytes)
            .collect();
        assert_eq!(decode_text(&le, "txt").unwrap(), "Ünïcode text");
        assert_eq!(decode_text(&be, "txt").unwrap(), "Ünïcode text");
        let mut with_bom = vec![0xFF, 0xFE];
        with_bom.extend_from_slice(&le);
        assert_eq!(decode_text(&with_bom, "txt").unwrap(), "Ünïcode text");
        let cp1252 = b"Caf\xe9 cr\xe8me \x93quoted\x94 and na\xefve fa\xe7ade, d\xe9j\xe0 vu.";
        assert_eq!(
            decode_text(cp1252, "txt").unwrap(),
            "Café crème \u{201c}quoted\u{201d} and naïve façade, déjà vu."
        );
    }

    #[test]
    fn binary_is_refused() {
        let png = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x01\x00";
        assert!(matches!(
            decode_text(png, "txt"),
            Err(BookFileError::Unsupported(_))
        ));
        let noise: Vec<u8> = (0..4000u32).map(|i| (i * 7919 % 251) as u8 | 1).collect();
        assert!(decode_text(&noise, "txt").is_err());
    }
}
