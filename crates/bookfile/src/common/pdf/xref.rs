//! Where lopdf 0.38 reads objects: the entries of cross-reference tables (found anywhere
//! in the raw file, a superset of the sections lopdf follows), the offsets it starts
//! reading cross-reference data at (`startxref`, and `Prev` and `XRefStm` in trailers and
//! cross-reference streams), and the entries of cross-reference streams, whose field
//! widths and counts are checked first: lopdf allocates each field as wide as `W` says,
//! and loops over every entry `Index` claims when the fields are zero bytes wide.

use crate::common::error::BookFileError;
use crate::common::pdf::census::MAX_OBJECTS;
use crate::common::pdf::dict::Dict;
use crate::common::pdf::syntax::{skip_space, unsigned};

/// Widest cross-reference stream field accepted (lopdf reads at most four bytes of one).
const MAX_FIELD: i64 = 8;

/// The offsets of the in-use entries (`0000012345 00000 n`) of every cross-reference
/// table in the file, as lopdf reads an entry: offset, space, generation, space, `n`,
/// then a space and a line end, or CR LF.
pub(crate) fn table_entries(data: &[u8]) -> Vec<u32> {
    let mut offsets = Vec::new();
    for i in 2..data.len().saturating_sub(2) {
        let eol = matches!(&data[i + 1..i + 3], b" \r" | b" \n" | b"\r\n");
        if data[i] != b'n' || data[i - 1] != b' ' || !eol {
            continue;
        }
        let generation = digits_before(data, i - 1);
        if generation == 0 || i < generation + 2 || data[i - 2 - generation] != b' ' {
            continue;
        }
        let end = i - 2 - generation;
        let start = end - digits_before(data, end);
        if let Some((offset, _)) = unsigned::<u32>(data, start)
            && start < end
        {
            offsets.push(offset);
        }
    }
    offsets
}

fn digits_before(data: &[u8], end: usize) -> usize {
    data[..end]
        .iter()
        .rev()
        .take_while(|b| b.is_ascii_digit())
        .count()
}

/// Where lopdf starts reading cross-reference data: every `startxref` value (offsets from
/// the file's `%PDF-`).
pub(crate) fn startxrefs(data: &[u8]) -> Vec<u64> {
    keywords(data, b"startxref")
        .filter_map(|at| unsigned::<u64>(data, skip_space(data, at + b"startxref".len())))
        .map(|(n, _)| n)
        .collect()
}

/// Where every `trailer` keyword's dictionary starts (its `Prev` and `XRefStm` are
/// where lopdf reads more cross-reference data).
pub(crate) fn trailers(data: &[u8]) -> Vec<usize> {
    keywords(data, b"trailer")
        .map(|at| skip_space(data, at + b"trailer".len()))
        .collect()
}

/// `Prev` and `XRefStm` of a trailer or cross-reference stream dictionary.
pub(crate) fn chained(dict: &Dict) -> impl Iterator<Item = u64> + '_ {
    [b"Prev".as_slice(), b"XRefStm"]
        .into_iter()
        .filter_map(|key| u64::try_from(dict.integer(key)?).ok())
}

fn keywords<'a>(data: &'a [u8], word: &'a [u8]) -> impl Iterator<Item = usize> + 'a {
    data.windows(word.len())
        .enumerate()
        .filter(move |(_, w)| *w == word)
        .map(|(i, _)| i)
}

/// A cross-reference stream's entries as lopdf reads them.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct StreamEntries {
    /// Entries lopdf can insert before its data runs out.
    pub(crate) possible: u64,
    /// Offsets of the in-use (type 1) entries.
    pub(crate) offsets: Vec<u32>,
}

/// The entries of a cross-reference stream with dictionary `dict` whose decoded data
/// begins with `data` and is `total` bytes long. Nothing when lopdf would refuse the
/// dictionary (no integer `Size`, `W` not three integers at least zero).
pub(crate) fn stream_entries(
    dict: &Dict,
    data: &[u8],
    total: u64,
) -> Result<StreamEntries, BookFileError> {
    let (Some(size), Some(w)) = (dict.integer(b"Size"), dict.integers(b"W")) else {
        return Ok(StreamEntries::default());
    };
    if w.len() < 3 || w[..3].iter().any(|w| *w < 0) {
        return Ok(StreamEntries::default());
    }
    let w = [w[0], w[1], w[2]];
    if w.iter().any(|w| *w > MAX_FIELD) {
        return Err(BookFileError::unreadable(
            "pdf",
            format!("its cross-reference stream has fields {w:?} bytes wide"),
        ));
    }
    let index = dict.integers(b"Index").unwrap_or_else(|| vec![0, size]);
    let claimed: u64 = index
        .chunks_exact(2)
        .map(|pair| u64::try_from(pair[1]).unwrap_or(0))
        .fold(0, u64::saturating_add);
    let row = w.iter().sum::<i64>() as u64;
    // Zero-width fields read nothing: lopdf loops over every entry claimed.
    let possible = total
        .checked_div(row)
        .map_or(claimed, |rows| claimed.min(rows));
    // Past the limit the file is refused: the offsets are not needed.
    let read = possible.min(MAX_OBJECTS + 1);
    let mut offsets = Vec::new();
    if row == 0 {
        // Every entry is in use, at offset 0 (lopdf reads the file's first object there).
        offsets.resize(read as usize, 0);
        return Ok(StreamEntries { possible, offsets });
    }
    for entry in data.chunks_exact(row as usize).take(read as usize) {
        let (kind, rest) = entry.split_at(w[0] as usize);
        let offset = &rest[..w[1] as usize];
        let kind = if kind.is_empty() { 1 } else { big_endian(kind) };
        if kind == 1 {
            offsets.push(big_endian(offset));
        }
    }
    Ok(StreamEntries { possible, offsets })
}

/// A field as lopdf reads it: big-endian into a u32, the high bytes of a wider one lost.
fn big_endian(bytes: &[u8]) -> u32 {
    bytes
        .iter()
        .fold(0u32, |v, b| (v << 8).wrapping_add(u32::from(*b)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::common::pdf::dict::{Value, read_value};

    fn dict(text: &[u8]) -> Dict {
        match read_value(text, 0) {
            Some((Value::Dictionary(d), _)) => d,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn table_entries_and_section_starts_are_found() {
        let pdf = b"xref\n0 3\n0000000000 65535 f \n0000000015 00000 n \n0000000123 00000 n\r\n\
                    trailer\n<< /Size 3 /Pr#65v 77 >>\nstartxref\n400\n%%EOF";
        assert_eq!(table_entries(pdf), [15, 123]);
        assert_eq!(startxrefs(pdf), [400]);
        let trailer = trailers(pdf)[0];
        assert!(pdf[trailer..].starts_with(b"<< /Size 3"));
        let Some((Value::Dictionary(d), _)) = read_value(pdf, trailer) else {
            panic!()
        };
        assert_eq!(chained(&d).collect::<Vec<_>>(), [77]);
        assert!(table_entries(b"a 1 0 n\tx").is_empty());
    }

    #[test]
    fn stream_entries_are_read_and_bounded() {
        let d = dict(b"<< /Type /XRef /Size 3 /W [1 2 1] >>");
        let rows = [0, 0, 0, 0, 1, 0, 15, 0, 2, 0, 7, 1];
        let e = stream_entries(&d, &rows, rows.len() as u64).unwrap();
        assert_eq!(
            e,
            StreamEntries {
                possible: 3,
                offsets: vec![15]
            }
        );
        // Zero-width fields: lopdf loops over every entry Index claims, without data.
        let d = dict(b"<< /Size 1 /W [0 0 0] /Index [0 4000000000] >>");
        let e = stream_entries(&d, &[], 0).unwrap();
        assert_eq!(e.possible, 4_000_000_000);
        assert_eq!(e.offsets.len() as u64, MAX_OBJECTS + 1);
        let d = dict(b"<< /Size 1 /W [1 99999999999 1] >>");
        assert!(matches!(
            stream_entries(&d, &[], 0),
            Err(BookFileError::Unreadable(_))
        ));
        let d = dict(b"<< /Size 1 /W [1 2] >>");
        assert_eq!(
            stream_entries(&d, &rows, 12).unwrap(),
            StreamEntries::default()
        );
    }
}
