//! Text for the standard Type 1 fonts (Helvetica), which need no font file: Unicode to
//! WinAnsiEncoding bytes, and the glyph widths that line wrapping needs.

/// The WinAnsi byte of `c`, or a near ASCII stand-in, or `?`.
fn byte_of(c: char) -> Option<u8> {
    let b = match c {
        ' '..='~' => c as u8,
        '\u{a0}'..='\u{ff}' => c as u32 as u8,
        '\u{20ac}' => 0x80,
        '\u{201a}' => 0x82,
        '\u{192}' => 0x83,
        '\u{201e}' => 0x84,
        '\u{2026}' => 0x85,
        '\u{2020}' => 0x86,
        '\u{2021}' => 0x87,
        '\u{2c6}' => 0x88,
        '\u{2030}' => 0x89,
        '\u{160}' => 0x8a,
        '\u{2039}' => 0x8b,
        '\u{152}' => 0x8c,
        '\u{17d}' => 0x8e,
        '\u{2018}' => 0x91,
        '\u{2019}' => 0x92,
        '\u{201c}' => 0x93,
        '\u{201d}' => 0x94,
        '\u{2022}' => 0x95,
        '\u{2013}' => 0x96,
        '\u{2014}' => 0x97,
        '\u{2dc}' => 0x98,
        '\u{2122}' => 0x99,
        '\u{161}' => 0x9a,
        '\u{203a}' => 0x9b,
        '\u{153}' => 0x9c,
        '\u{17e}' => 0x9e,
        '\u{178}' => 0x9f,
        '\t' | '\n' | '\r' => b' ',
        _ => return None,
    };
    Some(b)
}

/// `text` in WinAnsiEncoding; characters the encoding lacks become `?`.
pub(crate) fn encode(text: &str) -> Vec<u8> {
    text.chars().map(|c| byte_of(c).unwrap_or(b'?')).collect()
}

/// Widths of Helvetica's glyphs for bytes 32..=126, in 1/1000 of the font size (the AFM).
const HELVETICA_ASCII: [u16; 95] = [
    278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, // 32-47
    556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556, // 48-63
    1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778, // 64-79
    667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556, // 80-95
    333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556, // 96-111
    556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584, // 112-126
];

/// Helvetica-Bold is wider; scaling the regular widths is close enough to wrap headings.
const BOLD_SCALE_PERMILLE: u32 = 1080;

/// Width of WinAnsi `bytes` in points at `size`.
pub(crate) fn width(bytes: &[u8], size: f32, bold: bool) -> f32 {
    let units: u32 = bytes
        .iter()
        .map(|&b| match b {
            32..=126 => u32::from(HELVETICA_ASCII[usize::from(b - 32)]),
            0x96 => 556,
            0x97 | 0x85 | 0x89 | 0x8c | 0x9c => 1000,
            0x91 | 0x92 | 0x82 => 222,
            0x93 | 0x94 | 0x84 => 333,
            // Accented letters are about as wide as their base letters.
            _ => 600,
        })
        .sum();
    let units = if bold {
        units * BOLD_SCALE_PERMILLE / 1000
    } else {
        units
    };
    units as f32 * size / 1000.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn curly_quotes_and_dashes_map_to_their_winansi_codes() {
        assert_eq!(
            encode("\u{201c}Café\u{201d} \u{2014} \u{4e2d}"),
            vec![0x93, b'C', b'a', b'f', 0xe9, 0x94, b' ', 0x97, b' ', b'?']
        );
    }

    #[test]
    fn widths_follow_the_font_metrics() {
        assert!((width(b"Hi", 10.0, false) - 9.44).abs() < 0.01);
        assert!(width(b"Hi", 10.0, true) > width(b"Hi", 10.0, false));
    }
}
