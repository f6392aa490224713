//! A stream's (or trailer's) dictionary read the way lopdf 0.38 reads it, for the entries
//! the guard acts on (`KEPT`): names with their `#xx` escapes decoded, integers that must
//! fit an i64, the last of two equal keys winning. Other entries are skipped, not kept,
//! and values nested deeper than the guard looks are kept as `Other`, so what is held
//! stays small whatever the dictionary holds.

use crate::common::pdf::syntax::{ObjectId, is_delimiter, is_whitespace, skip_space, skip_value};

/// Nesting read into values; deeper ones are skipped (a stream dictionary is shallow).
const READ_DEPTH: usize = 4;
/// The entries read: of stream dictionaries, their DecodeParms, and trailers.
const KEPT: &[&[u8]] = &[
    b"Filter",
    b"DecodeParms",
    b"Length",
    b"Type",
    b"N",
    b"First",
    b"W",
    b"Index",
    b"Size",
    b"Prev",
    b"XRefStm",
    b"Predictor",
    b"Colors",
    b"BitsPerComponent",
    b"Columns",
];

/// A value of a stream dictionary.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Value {
    Integer(i64),
    Name(Vec<u8>),
    Reference(ObjectId),
    Array(Vec<Value>),
    Dictionary(Dict),
    /// A real, string, boolean, null, or a container nested too deep to read.
    Other,
}

impl Value {
    pub(crate) fn as_integer(&self) -> Option<i64> {
        match self {
            Value::Integer(n) => Some(*n),
            _ => None,
        }
    }

    pub(crate) fn as_name(&self) -> Option<&[u8]> {
        match self {
            Value::Name(n) => Some(n),
            _ => None,
        }
    }
}

/// A dictionary's entries in file order.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Dict(Vec<(Vec<u8>, Value)>);

impl Dict {
    /// The value of `key` (the last one when the key repeats, as in lopdf).
    pub(crate) fn get(&self, key: &[u8]) -> Option<&Value> {
        self.0.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    pub(crate) fn integer(&self, key: &[u8]) -> Option<i64> {
        self.get(key).and_then(Value::as_integer)
    }

    /// True when `Type` is the name `kind`.
    pub(crate) fn has_type(&self, kind: &[u8]) -> bool {
        self.get(b"Type").and_then(Value::as_name) == Some(kind)
    }

    /// An array of integers (lopdf reads `W` and `Index` only when every entry is one).
    pub(crate) fn integers(&self, key: &[u8]) -> Option<Vec<i64>> {
        match self.get(key)? {
            Value::Array(items) => items.iter().map(Value::as_integer).collect(),
            _ => None,
        }
    }
}

/// Reads the value at `i` (no white space before it): the value and where it ends. None
/// where lopdf's parser would fail.
pub(crate) fn read_value(data: &[u8], i: usize) -> Option<(Value, usize)> {
    read(data, i, 0)
}

fn read(data: &[u8], i: usize, depth: usize) -> Option<(Value, usize)> {
    let b = *data.get(i)?;
    let container = b == b'[' || data[i..].starts_with(b"<<");
    if container && depth >= READ_DEPTH {
        let skipped = skip_value(data, i);
        return skipped.complete.then_some((Value::Other, skipped.end));
    }
    match b {
        b'[' => {
            let mut items = Vec::new();
            let mut j = skip_space(data, i + 1);
            while data.get(j) != Some(&b']') {
                let (item, end) = read(data, j, depth + 1)?;
                items.push(item);
                j = skip_space(data, end);
            }
            Some((Value::Array(items), j + 1))
        }
        b'<' if data.get(i + 1) == Some(&b'<') => {
            let mut entries = Vec::new();
            let mut j = skip_space(data, i + 2);
            while !data[j..].starts_with(b">>") {
                let (key, end) = name(data, j)?;
                let at = skip_space(data, end);
                let end = if KEPT.contains(&key.as_slice()) {
                    let (value, end) = read(data, at, depth + 1)?;
                    entries.push((key, value));
                    end
                } else {
                    let skipped = skip_value(data, at);
                    if !skipped.complete {
                        return None;
                    }
                    skipped.end
                };
                j = skip_space(data, end);
            }
            Some((Value::Dictionary(Dict(entries)), j + 2))
        }
        b'/' => name(data, i).map(|(n, end)| (Value::Name(n), end)),
        b'0'..=b'9' | b'+' | b'-' | b'.' => number(data, i),
        _ => {
            let skipped = skip_value(data, i);
            skipped.complete.then_some((Value::Other, skipped.end))
        }
    }
}

/// A name at `i` with its `#xx` escapes decoded; lopdf's name ends at a `#` that is not
/// followed by two hex digits.
fn name(data: &[u8], i: usize) -> Option<(Vec<u8>, usize)> {
    if data.get(i) != Some(&b'/') {
        return None;
    }
    let mut out = Vec::new();
    let mut j = i + 1;
    while let Some(&b) = data.get(j) {
        if b == b'#' {
            let hex = data
                .get(j + 1..j + 3)
                .and_then(|h| std::str::from_utf8(h).ok());
            match hex.and_then(|h| u8::from_str_radix(h, 16).ok()) {
                Some(byte) => {
                    out.push(byte);
                    j += 3;
                    continue;
                }
                None => break,
            }
        }
        if is_whitespace(b) || is_delimiter(b) {
            break;
        }
        out.push(b);
        j += 1;
    }
    Some((out, j))
}

/// A reference, an integer or a real, tried in lopdf's order.
fn number(data: &[u8], i: usize) -> Option<(Value, usize)> {
    if let Some((id, end)) = reference(data, i) {
        return Some((Value::Reference(id), end));
    }
    let sign = usize::from(matches!(data.get(i), Some(b'+' | b'-')));
    let digits = data[i + sign..]
        .iter()
        .take_while(|c| c.is_ascii_digit())
        .count();
    if data.get(i + sign + digits) == Some(&b'.') {
        let fraction = data[i + sign + digits + 1..]
            .iter()
            .take_while(|c| c.is_ascii_digit())
            .count();
        let end = i + sign + digits + 1 + fraction;
        return (digits + fraction > 0).then_some((Value::Other, end));
    }
    let text = std::str::from_utf8(&data[i..i + sign + digits]).ok()?;
    let n: i64 = text.parse().ok()?;
    Some((Value::Integer(n), i + sign + digits))
}

fn reference(data: &[u8], i: usize) -> Option<(ObjectId, usize)> {
    use crate::common::pdf::syntax::unsigned;
    let (id, j) = unsigned::<u32>(data, i)?;
    let (generation, j) = unsigned::<u16>(data, skip_space(data, j))?;
    let j = skip_space(data, j);
    (data.get(j) == Some(&b'R')).then_some(((id, generation), j + 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dict(text: &[u8]) -> Dict {
        match read_value(text, 0) {
            Some((Value::Dictionary(d), _)) => d,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn stream_dictionaries_are_read_as_lopdf_reads_them() {
        let d = dict(
            b"<< /Length 5 0 R /Fil#74er [/FlateDecode %x\n /Flate#44ecode] \
              /DecodeParms << /Predictor 12 /Columns 5 >> /N 3 /N 4 /X (a) /First -1.5 >>",
        );
        assert_eq!(d.get(b"Length"), Some(&Value::Reference((5, 0))));
        let filters: Vec<_> = match d.get(b"Filter") {
            Some(Value::Array(f)) => f.iter().filter_map(Value::as_name).collect(),
            other => panic!("{other:?}"),
        };
        assert_eq!(filters, [b"FlateDecode", b"FlateDecode"]);
        assert_eq!(d.integer(b"N"), Some(4));
        match d.get(b"DecodeParms") {
            Some(Value::Dictionary(p)) => assert_eq!(p.integer(b"Columns"), Some(5)),
            other => panic!("{other:?}"),
        }
        assert_eq!(d.get(b"First"), Some(&Value::Other));
        // Entries the guard does not act on are skipped, not kept.
        assert_eq!(d.get(b"X"), None);
        assert!(dict(b"<< /Type /XRef >>").has_type(b"XRef"));
        // Deep values are skipped, not read; what lopdf cannot parse is not read either.
        assert_eq!(
            dict(b"<< /W [[[[[1]]]]] >>").get(b"W"),
            Some(&Value::Array(vec![Value::Array(vec![Value::Array(vec![
                Value::Other
            ])])]))
        );
        assert_eq!(read_value(b"<< /N 99999999999999999999 >>", 0), None);
        assert_eq!(read_value(b"<< 1 2 >>", 0), None);
        assert_eq!(read_value(b"<< /Type /B#4 >>", 0), None);
    }
}
