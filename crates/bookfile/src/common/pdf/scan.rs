//! A lexical pass over pdf bytes (the raw file, or one decoded stream) that bounds, from
//! above, how deeply lopdf's recursive parser can nest arrays and dictionaries when it
//! starts parsing anywhere in them, and spots the names that make a pdf refused
//! (`/Encrypt`, and the `/LZWDecode` and `/ASCII85Decode` filters, whose output the
//! bomb and nesting checks do not see).
//!
//! `judge` turns what a pass found into the refusal.
//!
//! Deep nesting is refused before lopdf runs: its parser recurses once per level and would
//! overflow the stack (an abort no panic handler catches) on a few kilobytes of `[`.
//!
//! The bound follows every way a parse could be going at each byte: between tokens
//! (where `[` and `<<` open a level and a byte no token can hold ends the parse), inside a
//! literal string, a comment or a name (which hold anything, so nothing ends there). A
//! parse may have started at any byte, so each mode keeps the deepest level any parse in
//! it can be at, and moves it on as the modes change.

use crate::common::error::BookFileError;
use crate::common::pdf::load::ENCRYPTED;

/// Deepest nesting accepted (real files nest a handful of levels).
pub const MAX_NESTING: usize = 2048;
/// Names longer than this cannot be one of the names looked for.
const MAX_NAME: usize = 32;

/// What a pass found so far.
#[derive(Debug, Default)]
pub(crate) struct Scan {
    /// Deepest level of a parse between tokens, in a literal string, a comment, a name.
    between: usize,
    string: usize,
    comment: usize,
    name: usize,
    in_name: Option<Vec<u8>>,
    /// A `<` or `>` waiting for its pair.
    half: Option<u8>,
    pub(crate) deepest: usize,
    pub(crate) encrypted: bool,
    pub(crate) old_filter: bool,
}

fn is_whitespace(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b'\0' | b'\x0c')
}

fn is_delimiter(b: u8) -> bool {
    matches!(
        b,
        b'(' | b')' | b'<' | b'>' | b'[' | b']' | b'{' | b'}' | b'/' | b'%'
    )
}

/// Bytes a token between delimiters may hold: numbers, keywords, operators.
fn is_token_byte(b: u8) -> bool {
    b.is_ascii_graphic()
}

impl Scan {
    pub(crate) fn feed(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.byte(b);
        }
    }

    /// True once the nesting bound passed `MAX_NESTING`.
    pub(crate) fn too_deep(&self) -> bool {
        self.deepest > MAX_NESTING
    }

    fn byte(&mut self, b: u8) {
        // A name ends at whitespace or a delimiter; the byte then counts between tokens.
        if let Some(name) = self.in_name.as_mut() {
            if !is_whitespace(b) && !is_delimiter(b) {
                if name.len() <= MAX_NAME {
                    name.push(b);
                }
                return;
            }
            self.end_name();
        }
        // Literal strings and comments hold anything; they end at `)` (which ends every
        // parse between tokens) and at a line end.
        if b == b')' {
            self.between = self.string;
        }
        if b == b'\n' || b == b'\r' {
            self.between = self.between.max(self.comment);
            self.comment = 0;
        }
        let half = self.half.take();
        match b {
            b'[' => self.open(),
            b']' => self.between = self.between.saturating_sub(1),
            b'<' if half == Some(b'<') => self.open(),
            b'>' if half == Some(b'>') => self.between = self.between.saturating_sub(1),
            b'<' | b'>' => self.half = Some(b),
            b'(' => {
                self.string = self.string.max(self.between);
                self.between = 0;
            }
            b'%' => {
                self.comment = self.comment.max(self.between);
                self.between = 0;
            }
            b'/' => {
                self.name = self.between;
                self.between = 0;
                self.in_name = Some(Vec::new());
            }
            b')' => {}
            _ if is_whitespace(b) || is_token_byte(b) => {}
            // No token holds this byte: every parse between tokens ends here.
            _ => self.between = 0,
        }
    }

    fn open(&mut self) {
        self.between += 1;
        self.deepest = self.deepest.max(self.between);
    }

    fn end_name(&mut self) {
        let Some(raw) = self.in_name.take() else {
            return;
        };
        self.between = self.between.max(self.name);
        self.name = 0;
        match decode_name(&raw).as_slice() {
            b"Encrypt" => self.encrypted = true,
            b"LZWDecode" | b"ASCII85Decode" => self.old_filter = true,
            _ => {}
        }
    }

    /// Ends the pass (a name running to the end counts).
    pub(crate) fn finish(&mut self) {
        self.end_name();
    }

    /// Refuses what a lexical pass found: encryption, nesting, refused filters.
    pub(crate) fn judge(&self) -> Result<(), BookFileError> {
        if self.encrypted {
            return Err(BookFileError::Unreadable(ENCRYPTED.to_owned()));
        }
        if self.too_deep() {
            return Err(BookFileError::unreadable(
                "pdf",
                format!("its objects are nested more than {MAX_NESTING} levels deep"),
            ));
        }
        if self.old_filter {
            return Err(BookFileError::Unsupported(
                "The pdf uses an old compression (LZW or ASCII85) that is not accepted: save or \
                 print it again as a new pdf and upload that"
                    .to_owned(),
            ));
        }
        Ok(())
    }
}

/// A name with its `#xx` escapes decoded.
fn decode_name(raw: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(raw.len());
    let mut i = 0;
    while i < raw.len() {
        if raw[i] == b'#'
            && let Some(hex) = raw.get(i + 1..i + 3)
            && let Ok(hex) = std::str::from_utf8(hex)
            && let Ok(byte) = u8::from_str_radix(hex, 16)
        {
            out.push(byte);
            i += 3;
            continue;
        }
        out.push(raw[i]);
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scan(bytes: &[u8]) -> Scan {
        let mut s = Scan::default();
        s.feed(bytes);
        s.finish();
        s
    }

    #[test]
    fn nesting_is_bounded_from_above() {
        assert_eq!(scan(b"<< /A [1 [2] << /B [3] >>] >>").deepest, 4);
        assert_eq!(scan(&b"[".repeat(5000)).deepest, 5000);
        // Tokens, strings, comments and names in between keep a parse going...
        let mut chain = Vec::new();
        for _ in 0..100 {
            chain.extend_from_slice(b"[ 1 0 R (a \xff ) %\xfe\n /N\xfd ");
        }
        assert_eq!(scan(&chain).deepest, 100);
        // ...split across feeds too.
        let mut s = Scan::default();
        for piece in chain.chunks(7) {
            s.feed(piece);
        }
        assert_eq!(s.deepest, 100);
        // Bytes no token holds end it: image data is not nesting.
        let office_blue = b"\x5b\x9b\xd5".repeat(10_000);
        assert!(scan(&office_blue).deepest <= 1);
        // Closing brackets and pairs of > close levels.
        assert_eq!(scan(&b"[]".repeat(5000)).deepest, 1);
        assert_eq!(scan(&b"<<>>".repeat(5000)).deepest, 1);
    }

    #[test]
    fn a_parse_starting_inside_a_string_is_counted() {
        // A parse starting after "(" sees the brackets the string holds.
        let mut s = b"(".to_vec();
        s.extend(b"[".repeat(3000));
        s.push(b')');
        assert!(scan(&s).too_deep());
    }

    #[test]
    fn refused_names_are_found_however_written() {
        assert!(scan(b"trailer << /Encrypt 5 0 R >>").encrypted);
        assert!(scan(b"<< /En#63rypt 5 0 R >>").encrypted);
        assert!(!scan(b"<< /EncryptMetadata false >>").encrypted);
        assert!(scan(b"/Filter [/LZW#44ecode]").old_filter);
        assert!(scan(b"/Filter/ASCII85Decode").old_filter);
        assert!(!scan(b"/Filter /FlateDecode").old_filter);
    }
}
