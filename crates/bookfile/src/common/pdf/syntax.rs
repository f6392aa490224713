//! Pdf syntax as lopdf 0.38's parser reads it, for the guard's structure checks: white
//! space and comments, object headers (`12 0 obj`), where a stream's data starts and
//! which bytes lopdf takes as its content, and one value skipped without building it:
//! where lopdf's parse of it would end and how many objects it would make.
//!
//! Skipping is lenient where lopdf is strict (an integer too long for i64, a name with a
//! stray `#`, a string nested past 100 levels all read on here), so an extent is never
//! shorter than the bytes lopdf's parser would look at. It never recurses: nesting is held
//! on a small stack of its own.

/// lopdf's white space: space, tab, line ends, NUL and form feed.
pub(crate) fn is_whitespace(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b'\0' | b'\x0c')
}

pub(crate) fn is_delimiter(b: u8) -> bool {
    matches!(
        b,
        b'(' | b')' | b'<' | b'>' | b'[' | b']' | b'{' | b'}' | b'/' | b'%'
    )
}

fn is_regular(b: u8) -> bool {
    !is_whitespace(b) && !is_delimiter(b)
}

/// Where the white space and comments starting at `i` end (lopdf's `space`: a comment
/// counts only when a line end closes it).
pub(crate) fn skip_space(data: &[u8], mut i: usize) -> usize {
    loop {
        match data.get(i) {
            Some(&b) if is_whitespace(b) => i += 1,
            Some(b'%') => match data[i..].iter().position(|&c| c == b'\r' || c == b'\n') {
                Some(end) => i += end,
                None => return i,
            },
            _ => return i,
        }
    }
}

/// The unsigned integer whose digits start at `i`, and where they end.
pub(crate) fn unsigned<T: std::str::FromStr>(data: &[u8], i: usize) -> Option<(T, usize)> {
    let digits = data
        .get(i..)?
        .iter()
        .take_while(|b| b.is_ascii_digit())
        .count();
    if digits == 0 {
        return None;
    }
    let text = std::str::from_utf8(&data[i..i + digits]).ok()?;
    Some((text.parse().ok()?, i + digits))
}

/// An object's number and generation, as lopdf's references and headers hold them.
pub(crate) type ObjectId = (u32, u16);

/// The object header at `i` (white space first, then `id gen obj`, as lopdf reads one at
/// an offset the cross-reference table gives): its id and where its value starts; else
/// how far the bytes were read.
pub(crate) fn header(data: &[u8], i: usize) -> Result<(ObjectId, usize), usize> {
    let i = skip_space(data, i);
    let (id, i) = unsigned::<u32>(data, i).ok_or(i)?;
    let i = skip_space(data, i);
    let (generation, i) = unsigned::<u16>(data, i).ok_or(i)?;
    let i = skip_space(data, i);
    match data.get(i..i + 3) {
        Some(b"obj") => Ok(((id, generation), skip_space(data, i + 3))),
        _ => Err(i),
    }
}

/// A value skipped: where it ends (or where a parse of it fails), and how many objects
/// lopdf would make of it (every scalar, container and dictionary key counts).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Skipped {
    pub(crate) end: usize,
    pub(crate) values: u64,
    pub(crate) complete: bool,
}

/// Skips the value starting at `start` (no white space before it).
pub(crate) fn skip_value(data: &[u8], start: usize) -> Skipped {
    // true: an array, false: a dictionary.
    let mut open: Vec<bool> = Vec::new();
    let mut i = start;
    let mut values = 0u64;
    loop {
        if !open.is_empty() {
            i = skip_space(data, i);
        }
        let fail = |i| Skipped {
            end: i,
            values,
            complete: false,
        };
        let Some(&b) = data.get(i) else {
            return fail(i);
        };
        let next = data.get(i + 1).copied();
        i = match b {
            b'[' => {
                open.push(true);
                values += 1;
                i + 1
            }
            b'<' if next == Some(b'<') => {
                open.push(false);
                values += 1;
                i + 2
            }
            b']' if open.last() == Some(&true) => {
                open.pop();
                i + 1
            }
            b'>' if next == Some(b'>') && open.last() == Some(&false) => {
                open.pop();
                i + 2
            }
            _ => match token_end(data, i) {
                Some(end) => {
                    values += 1;
                    end
                }
                None => return fail(i),
            },
        };
        if open.is_empty() {
            return Skipped {
                end: i,
                values,
                complete: true,
            };
        }
    }
}

/// Where the scalar starting at `i` ends: a number or reference, a name, a string, or
/// one of `true`, `false`, `null`. None when no scalar starts there.
fn token_end(data: &[u8], i: usize) -> Option<usize> {
    let b = *data.get(i)?;
    match b {
        b'/' => Some(i + 1 + data[i + 1..].iter().take_while(|&&c| is_regular(c)).count()),
        b'(' => literal_string_end(data, i),
        b'<' => data[i..].iter().position(|&c| c == b'>').map(|p| i + p + 1),
        b'0'..=b'9' | b'+' | b'-' | b'.' => {
            Some(reference_end(data, i).unwrap_or(number_end(data, i)?))
        }
        _ => [b"true".as_slice(), b"false", b"null"]
            .into_iter()
            .find(|k| data[i..].starts_with(k))
            .map(|k| i + k.len()),
    }
}

fn number_end(data: &[u8], i: usize) -> Option<usize> {
    let sign = usize::from(matches!(data.get(i), Some(b'+' | b'-')));
    let body = data[i + sign..]
        .iter()
        .take_while(|c| c.is_ascii_digit() || **c == b'.')
        .count();
    let digits = data[i + sign..i + sign + body]
        .iter()
        .any(u8::is_ascii_digit);
    digits.then_some(i + sign + body)
}

/// `id gen R`, which lopdf reads before any number.
fn reference_end(data: &[u8], i: usize) -> Option<usize> {
    let (_, j) = unsigned::<u32>(data, i)?;
    let (_, j) = unsigned::<u16>(data, skip_space(data, j))?;
    let j = skip_space(data, j);
    (data.get(j) == Some(&b'R')).then_some(j + 1)
}

/// A literal string: balanced parentheses, a backslash escaping the byte after it.
fn literal_string_end(data: &[u8], start: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut i = start;
    while let Some(&b) = data.get(i) {
        match b {
            b'\\' => i += 1,
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// Where a stream's data starts when the `stream` keyword follows the dictionary ending at
/// `end` (lopdf: space, `stream`, spaces or tabs, one end of line).
pub(crate) fn stream_keyword(data: &[u8], end: usize) -> Option<usize> {
    let at = skip_space(data, end);
    data.get(at..)?
        .starts_with(b"stream")
        .then(|| stream_data_start(data, at + b"stream".len()))?
}

/// Where a stream's data starts after the `stream` keyword ending at `at`: after spaces or
/// tabs and one end of line (CR LF, LF or CR), as lopdf reads it.
pub(crate) fn stream_data_start(data: &[u8], at: usize) -> Option<usize> {
    let mut i = at;
    while matches!(data.get(i), Some(b' ' | b'\t')) {
        i += 1;
    }
    match (data.get(i), data.get(i + 1)) {
        (Some(b'\r'), Some(b'\n')) => Some(i + 2),
        (Some(b'\n' | b'\r'), _) => Some(i + 1),
        _ => None,
    }
}

/// The `length` bytes of stream data at `body`, when lopdf takes them: an end of line at
/// most, then `endstream`, must follow (else lopdf reads no stream there).
pub(crate) fn raw_content(data: &[u8], body: usize, length: i64) -> Option<&[u8]> {
    let end = body.checked_add(usize::try_from(length).ok()?)?;
    let raw = data.get(body..end)?;
    let rest = &data[end..];
    let rest = rest
        .strip_prefix(b"\r\n")
        .or_else(|| rest.strip_prefix(b"\n"))
        .or_else(|| rest.strip_prefix(b"\r"))
        .unwrap_or(rest);
    rest.starts_with(b"endstream").then_some(raw)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn skip(text: &[u8]) -> Skipped {
        skip_value(text, 0)
    }

    #[test]
    fn values_end_where_lopdf_ends_them_and_are_counted() {
        let s = skip(b"<< /Type /Page /Kids [3 0 R 4 0 R] /N 1.5 /S (a(b)\\)c) /H <0a> >> rest");
        assert_eq!((s.end, s.values, s.complete), (65, 13, true));
        assert_eq!(skip(b"12 0 R more").end, 6);
        assert_eq!(skip(b"-3.25]").end, 5);
        assert_eq!(skip(b"nulltrue").end, 4);
        let deep = [b"[".repeat(5000), b"]".repeat(5000)].concat();
        assert_eq!(skip(&deep).values, 5000);
        assert!(skip(&deep).complete);
        // A parse that fails says where.
        let broken = skip(b"[1 2 obj]");
        assert_eq!((broken.end, broken.complete), (5, false));
        assert!(!skip(b"[1 2 3").complete);
        assert!(!skip(b"<< /A 1 ]").complete);
    }

    #[test]
    fn headers_and_spaces_are_read_as_lopdf_reads_them() {
        assert_eq!(header(b"  12 0 obj\n<<", 0), Ok(((12, 0), 11)));
        assert_eq!(header(b"12 %c\n0 obj<<", 0), Ok(((12, 0), 11)));
        assert_eq!(header(b"12 0obj", 0), Ok(((12, 0), 7)));
        assert_eq!(header(b"12 70000 obj", 0), Err(3));
        assert_eq!(header(b"12      0 R", 0), Err(10));
        assert_eq!(skip_space(b" %x\n\t%y", 0), 5);
        assert_eq!(unsigned::<u32>(b"4294967296", 0), None);
    }
}
