//! Decompression-bomb check for pdf files, run before lopdf (which inflates object streams
//! on load and content streams on text extraction, without any bound). Every zlib stream in
//! the raw file is inflated into a counting sink, never past the unpacked budget.

use std::io::{self, Read};

use flate2::read::ZlibDecoder;

use crate::{BookFileError, Limits};

/// Legitimate pdfs (Flate images of scanned books) inflate to a few times their size; bombs
/// to hundreds or thousands of times.
const LEGIT_RATIO: u64 = 20;

/// Refuses a pdf whose zlib streams together inflate past the unpacked limit, or past
/// twenty times the file's size when that is more.
pub(crate) fn check_streams(data: &[u8], limits: &Limits) -> Result<(), BookFileError> {
    let allowed = limits
        .max_unpacked_bytes
        .max((data.len() as u64).saturating_mul(LEGIT_RATIO));
    let mut budget = allowed;
    let mut from = 0usize;
    while let Some(start) = find(data, b"stream", from) {
        let mut body = start + b"stream".len();
        // "endstream" also contains "stream": skip it.
        if start >= 3 && &data[start - 3..start] == b"end" {
            from = body;
            continue;
        }
        if data.get(body) == Some(&b'\r') {
            body += 1;
        }
        if data.get(body) != Some(&b'\n') {
            from = body;
            continue;
        }
        body += 1;
        let end = find(data, b"endstream", body).unwrap_or(data.len());
        let inflated = inflated_len(&data[body..end], budget.saturating_add(1));
        if inflated > budget {
            return Err(BookFileError::TooLarge(format!(
                "The pdf is too large once unpacked: its streams inflate past {allowed} bytes"
            )));
        }
        budget -= inflated;
        from = end;
    }
    Ok(())
}

/// Bytes `raw` inflates to, reading at most `cap`; 0 when it is not a zlib stream.
fn inflated_len(raw: &[u8], cap: u64) -> u64 {
    // A zlib header: deflate method, and a header checksum that divides by 31.
    let is_zlib = raw.len() >= 2
        && raw[0] & 0x0f == 8
        && (u16::from(raw[0]) << 8 | u16::from(raw[1])) % 31 == 0;
    if !is_zlib {
        return 0;
    }
    let mut decoder = ZlibDecoder::new(raw).take(cap);
    // A damaged stream counts for what it produced before the damage.
    let mut sink = CountingSink(0);
    let _ = io::copy(&mut decoder, &mut sink);
    sink.0
}

struct CountingSink(u64);

impl io::Write for CountingSink {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0 += buf.len() as u64;
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
    use flate2::write::ZlibEncoder;

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
