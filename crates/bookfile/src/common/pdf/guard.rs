//! The checks a pdf passes before lopdf sees it (lopdf inflates object streams on load and
//! content streams on text extraction without any bound, and its parser recurses once per
//! nesting level): every zlib stream is inflated into a counting sink, never past the
//! unpacked budget; the raw file and every inflated stream are scanned (`scan`) for
//! nesting too deep for the parser, encryption, and filters whose output is not checked.

use std::io::{self, Read};

use flate2::read::ZlibDecoder;

use crate::common::error::BookFileError;
use crate::common::limits::Limits;
use crate::common::pdf::load::ENCRYPTED;
use crate::common::pdf::scan::{MAX_NESTING, Scan};

/// Legitimate pdfs (Flate images of scanned books) inflate to a few times their size; bombs
/// to hundreds or thousands of times.
const LEGIT_RATIO: u64 = 20;

/// Refuses a pdf whose zlib streams together inflate past the unpacked limit (or past
/// twenty times the file's size when that is more), that nests objects deeper than
/// `MAX_NESTING`, is encrypted, or uses the LZW or ASCII85 filters.
pub(crate) fn check_streams(data: &[u8], limits: &Limits) -> Result<(), BookFileError> {
    let allowed = limits
        .max_unpacked_bytes
        .max((data.len() as u64).saturating_mul(LEGIT_RATIO));
    let mut scan = Scan::default();
    scan.feed(data);
    scan.finish();
    judge(&scan)?;
    let mut budget = allowed;
    let mut from = 0usize;
    while let Some(start) = find(data, b"stream", from) {
        from = start + b"stream".len();
        // "endstream" also contains "stream": skip it.
        if start >= 3 && &data[start - 3..start] == b"end" {
            continue;
        }
        let Some(body) = stream_data_start(data, from) else {
            continue;
        };
        let mut sink = ScanningSink::default();
        let consumed = inflate(&data[body..], budget.saturating_add(1), &mut sink);
        if sink.bytes > budget {
            return Err(BookFileError::TooLarge(format!(
                "The pdf is too large once unpacked: its streams inflate past {allowed} bytes"
            )));
        }
        sink.scan.finish();
        judge(&sink.scan)?;
        budget -= sink.bytes;
        from = body + consumed;
    }
    Ok(())
}

fn judge(scan: &Scan) -> Result<(), BookFileError> {
    if scan.encrypted {
        return Err(BookFileError::Unreadable(ENCRYPTED.to_owned()));
    }
    if scan.too_deep() {
        return Err(BookFileError::unreadable(
            "pdf",
            format!("its objects are nested more than {MAX_NESTING} levels deep"),
        ));
    }
    if scan.old_filter {
        return Err(BookFileError::Unsupported(
            "The pdf uses an old compression (LZW or ASCII85) that is not accepted: save or \
             print it again as a new pdf and upload that"
                .to_owned(),
        ));
    }
    Ok(())
}

/// Where a stream's data starts after the `stream` keyword ending at `at`: after spaces or
/// tabs and one end of line (CR LF, LF or CR), as lopdf reads it.
fn stream_data_start(data: &[u8], at: usize) -> Option<usize> {
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

/// Inflates the zlib stream `raw` starts with (nothing when it does not start with one)
/// into `sink`, at most `cap` bytes; returns the compressed bytes consumed. The stream runs
/// to its own end, not to an "endstream" that its compressed bytes may hold.
fn inflate(raw: &[u8], cap: u64, sink: &mut ScanningSink) -> usize {
    // A zlib header: deflate method, and a header checksum that divides by 31.
    let is_zlib = raw.len() >= 2
        && raw[0] & 0x0f == 8
        && (u16::from(raw[0]) << 8 | u16::from(raw[1])) % 31 == 0;
    if !is_zlib {
        return 0;
    }
    let mut decoder = ZlibDecoder::new(raw);
    // A damaged stream counts for what it produced before the damage.
    let _ = io::copy(&mut (&mut decoder).take(cap), sink);
    usize::try_from(decoder.total_in()).unwrap_or(raw.len())
}

/// Counts and scans what a stream inflates to.
#[derive(Default)]
struct ScanningSink {
    bytes: u64,
    scan: Scan,
}

impl io::Write for ScanningSink {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.bytes += buf.len() as u64;
        self.scan.feed(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

fn find(haystack: &[u8], needle: &[u8], from: usize) -> Option<usize> {
    haystack
        .get(from..)?
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|i| from + i)
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use flate2::Compression;
    use flate2::write::{DeflateEncoder, ZlibEncoder};

    use super::*;

    fn pdf_with_stream(inflated: usize) -> Vec<u8> {
        let mut enc = ZlibEncoder::new(Vec::new(), Compression::best());
        enc.write_all(&vec![b' '; inflated]).unwrap();
        let z = enc.finish().unwrap();
        let mut pdf = b"%PDF-1.5\n1 0 obj\n<< /Length 9 /Filter /FlateDecode >>\nstream\n".to_vec();
        pdf.extend_from_slice(&z);
        pdf.extend_from_slice(b"\nendstream\nendobj\n");
        pdf
    }

    fn deflated(bytes: &[u8]) -> Vec<u8> {
        let mut enc = ZlibEncoder::new(Vec::new(), Compression::best());
        enc.write_all(bytes).unwrap();
        enc.finish().unwrap()
    }

    #[test]
    fn nesting_encryption_and_old_filters_are_refused_raw_or_inflated() {
        let limits = Limits::default();
        let deep = b"[".repeat(MAX_NESTING + 1);
        for data in [
            [b"%PDF-1.5\n1 0 obj ".as_slice(), &deep].concat(),
            [
                b"%PDF-1.5\n1 0 obj << >> stream \r".as_slice(),
                &deflated(&deep),
            ]
            .concat(),
        ] {
            let err = check_streams(&data, &limits).unwrap_err();
            assert!(err.to_string().contains("nested more than"), "{err}");
        }
        let hidden = [
            b"%PDF-1.5\n1 0 obj << >>stream\n".as_slice(),
            &deflated(b"<< /Encrypt 4 0 R >>"),
        ]
        .concat();
        let err = check_streams(&hidden, &limits).unwrap_err();
        assert_eq!(err.to_string(), ENCRYPTED);
        let lzw = b"%PDF-1.5\n1 0 obj << /Filter /LZWDecode >> stream\n...";
        assert!(matches!(
            check_streams(lzw, &limits),
            Err(BookFileError::Unsupported(_))
        ));
    }

    #[test]
    fn a_bomb_hiding_endstream_in_its_bytes_is_still_measured() {
        let limits = Limits {
            max_unpacked_bytes: 1024 * 1024,
            ..Limits::default()
        };
        // A zlib header, a stored block holding "endstream" as it is, then a deflated bomb.
        let mut z = vec![0x78, 0x01, 0x00, 9, 0, !9, 0xff];
        z.extend_from_slice(b"endstream");
        let mut bomb = DeflateEncoder::new(Vec::new(), Compression::best());
        bomb.write_all(&vec![b' '; 8 * 1024 * 1024]).unwrap();
        z.extend_from_slice(&bomb.finish().unwrap());
        let mut pdf = b"%PDF-1.5\n1 0 obj\n<< /Length 9 >>\nstream\n".to_vec();
        pdf.extend_from_slice(&z);
        let err = check_streams(&pdf, &limits).unwrap_err();
        assert!(matches!(err, BookFileError::TooLarge(_)), "{err:?}");
    }

    #[test]
    fn streams_inflating_past_the_budget_are_refused() {
        let limits = Limits {
            max_unpacked_bytes: 1024 * 1024,
            ..Limits::default()
        };
        assert!(check_streams(&pdf_with_stream(1000), &limits).is_ok());
        let err = check_streams(&pdf_with_stream(8 * 1024 * 1024), &limits).unwrap_err();
        assert!(matches!(err, BookFileError::TooLarge(_)), "{err:?}");
    }
}
