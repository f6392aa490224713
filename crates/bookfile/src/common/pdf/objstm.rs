//! The objects of an object stream (`/Type /ObjStm`) as lopdf 0.38 expands them on load,
//! counted and checked before it does: it parses one object at every offset the stream's
//! index lists, so an index listing offsets inside other objects (or one offset many
//! times) makes it parse, and keep a copy of, the same bytes again and again. The spec
//! stores the objects one after the other; here their extents together may not exceed
//! the stream. Streams are never stored in object streams, so they do not nest.

use crate::common::error::BookFileError;
use crate::common::pdf::census::MAX_OBJECTS;
use crate::common::pdf::dict::Dict;
use crate::common::pdf::syntax::skip_value;

/// What lopdf makes of one object stream.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Expanded {
    pub(crate) objects: u64,
    pub(crate) values: u64,
}

/// The objects lopdf expands from an object stream with dictionary `dict` and content
/// `content` (as lopdf holds it: decoded, or raw when its decoding failed). Nothing when
/// lopdf would refuse the stream (no integer `First` or `N`, an index that is not text).
pub(crate) fn expand(dict: &Dict, content: &[u8]) -> Result<Expanded, BookFileError> {
    let first = dict.integer(b"First").and_then(|f| usize::try_from(f).ok());
    let (Some(first), Some(_)) = (first, dict.integer(b"N")) else {
        return Ok(Expanded::default());
    };
    let Some(index) = content
        .get(..first)
        .and_then(|i| std::str::from_utf8(i).ok())
    else {
        return Ok(Expanded::default());
    };
    let room = (content.len() - first) as u64;
    let mut expanded = Expanded::default();
    let mut extents = 0u64;
    let mut numbers = index.split_whitespace().map(|n| n.parse::<u32>().ok());
    // lopdf pairs the numbers in order; a pair with one that is not a number is skipped.
    while let (Some(id), Some(offset)) = (numbers.next(), numbers.next()) {
        let (Some(_), Some(offset)) = (id, offset) else {
            continue;
        };
        let at = first + offset as usize;
        if at >= content.len() {
            continue;
        }
        let skipped = skip_value(content, at);
        extents += (skipped.end - at) as u64;
        if extents > room {
            return Err(BookFileError::unreadable(
                "pdf",
                "an object stream lists objects that overlap",
            ));
        }
        expanded.objects += 1;
        expanded.values += skipped.values;
        // Past the limit the file is refused: no need to read on.
        if expanded.objects > MAX_OBJECTS {
            break;
        }
    }
    Ok(expanded)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::common::pdf::dict::{Value, read_value};

    fn dict(first: usize) -> Dict {
        let text = format!("<< /Type /ObjStm /N 2 /First {first} >>");
        match read_value(text.as_bytes(), 0) {
            Some((Value::Dictionary(d), _)) => d,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn objects_are_counted_and_overlaps_refused() {
        let content = b"10 0 11 6 [1 2] << /A [3] >>";
        let e = expand(&dict(10), content).unwrap();
        assert_eq!(
            e,
            Expanded {
                objects: 2,
                values: 7
            }
        );
        // The same offset listed again, and an offset inside the first object.
        for index in ["10 0 11 0 ", "10 0 11 1 "] {
            let content = format!("{index}[1 2 3 4]");
            let err = expand(&dict(10), content.as_bytes()).unwrap_err();
            assert!(err.to_string().contains("overlap"), "{err}");
        }
        // lopdf refuses an index that is not text: nothing is expanded.
        assert_eq!(
            expand(&dict(4), b"\xff\xfe 0 [1]").unwrap(),
            Expanded::default()
        );
        assert_eq!(expand(&dict(99), b"1 0 null").unwrap(), Expanded::default());
    }
}
