//! The checks a pdf passes before lopdf sees it. lopdf 0.38 unpacks object and
//! cross-reference streams on load and content streams on text extraction without any
//! bound, whole filter chains included; its parser recurses once per nesting level; and
//! its load costs the objects times the file's size. So, first:
//! - the raw file is scanned (`scan`) for nesting too deep for the parser, encryption, and
//!   filters whose output is not checked (LZW, ASCII85);
//! - every stream is decoded here (`walk`, `chain`): every level of its filter chain
//!   counted against one budget per stream and one per file (`budget`), before anything
//!   past them is made, and every level's output scanned like the raw file;
//! - what lopdf will parse is counted (`census`): objects, values, the bytes it re-reads
//!   and parses, object streams unpacked; past a limit the file is refused.

use crate::common::error::BookFileError;
use crate::common::limits::Limits;
use crate::common::pdf::budget::Budget;
use crate::common::pdf::scan::Scan;
use crate::common::pdf::walk::Walk;

/// Refuses a pdf whose streams inflate past the unpacked limit (one stream, every level
/// of its chain counted) or together past it (or twenty times the file's size when that
/// is more), whose structure costs lopdf's loader more than `census` accepts, that nests
/// objects deeper than `MAX_NESTING`, is encrypted, or uses the LZW or ASCII85 filters.
pub(crate) fn check(data: &[u8], limits: &Limits) -> Result<(), BookFileError> {
    let mut scan = Scan::default();
    scan.feed(data);
    scan.finish();
    scan.judge()?;
    let mut walk = Walk::new(data, Budget::new(limits, data.len()));
    walk.laid_out()?;
    walk.referenced()?;
    walk.leftovers()?;
    walk.finish()
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use flate2::Compression;
    use flate2::write::{DeflateEncoder, ZlibEncoder};

    use super::*;
    use crate::common::pdf::load::ENCRYPTED;
    use crate::common::pdf::scan::MAX_NESTING;

    fn deflated(bytes: &[u8]) -> Vec<u8> {
        let mut enc = ZlibEncoder::new(Vec::new(), Compression::best());
        enc.write_all(bytes).unwrap();
        enc.finish().unwrap()
    }

    fn pdf_with_stream(dict: &str, data: &[u8]) -> Vec<u8> {
        let mut pdf = format!("%PDF-1.5\n1 0 obj\n<< {dict} >>\nstream\n").into_bytes();
        pdf.extend_from_slice(data);
        pdf.extend_from_slice(b"\nendstream\nendobj\n");
        pdf
    }

    fn small_limits() -> Limits {
        Limits {
            max_unpacked_bytes: 1024 * 1024,
            ..Limits::default()
        }
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
            // Two levels down.
            pdf_with_stream(
                "/Filter [/FlateDecode /FlateDecode]",
                &deflated(&deflated(&deep)),
            ),
        ] {
            let err = check(&data, &limits).unwrap_err();
            assert!(err.to_string().contains("nested more than"), "{err}");
        }
        let hidden = [
            b"%PDF-1.5\n1 0 obj << >>stream\n".as_slice(),
            &deflated(b"<< /Encrypt 4 0 R >>"),
        ]
        .concat();
        let err = check(&hidden, &limits).unwrap_err();
        assert_eq!(err.to_string(), ENCRYPTED);
        let lzw = b"%PDF-1.5\n1 0 obj << /Filter /LZWDecode >> stream\n...";
        assert!(matches!(
            check(lzw, &limits),
            Err(BookFileError::Unsupported(_))
        ));
    }

    #[test]
    fn a_bomb_hiding_endstream_in_its_bytes_is_still_measured() {
        // A zlib header, a stored block holding "endstream" as it is, then a deflated bomb.
        let mut z = vec![0x78, 0x01, 0x00, 9, 0, !9, 0xff];
        z.extend_from_slice(b"endstream");
        let mut bomb = DeflateEncoder::new(Vec::new(), Compression::best());
        bomb.write_all(&vec![b' '; 8 * 1024 * 1024]).unwrap();
        z.extend_from_slice(&bomb.finish().unwrap());
        let mut pdf = b"%PDF-1.5\n1 0 obj\n<< /Length 9 >>\nstream\n".to_vec();
        pdf.extend_from_slice(&z);
        let err = check(&pdf, &small_limits()).unwrap_err();
        assert!(matches!(err, BookFileError::TooLarge(_)), "{err:?}");
    }

    #[test]
    fn streams_inflating_past_the_budget_are_refused() {
        let limits = small_limits();
        let stream = |n| pdf_with_stream("/Filter /FlateDecode", &deflated(&vec![b' '; n]));
        assert!(check(&stream(1000), &limits).is_ok());
        let err = check(&stream(8 * 1024 * 1024), &limits).unwrap_err();
        assert_eq!(
            err,
            BookFileError::TooLarge(
                "The pdf is too large once unpacked: one of its streams inflates past 1048576 \
                 bytes"
                    .into()
            )
        );
    }

    #[test]
    fn every_level_of_a_chain_counts_and_its_length_is_bounded() {
        let limits = small_limits();
        // 2 MiB in the second level: the first level alone is a few KB.
        let twice = deflated(&deflated(&vec![0; 2 << 20]));
        for dict in [
            "/Filter [/FlateDecode /FlateDecode]",
            "/Filter /FlateDecode",
            "",
        ] {
            let err = check(&pdf_with_stream(dict, &twice), &limits).unwrap_err();
            assert!(
                err.to_string().contains("compressed 2 times over"),
                "{dict}: {err}"
            );
        }
        // Bytes after the second level's zlib data still count (lopdf inflates it whole).
        let mut padded = deflated(b"tiny");
        padded.extend(vec![0; 2 << 20]);
        let err = check(&pdf_with_stream("", &deflated(&padded)), &limits).unwrap_err();
        assert!(matches!(err, BookFileError::TooLarge(_)), "{err}");
        // Five levels: refused whatever the size.
        let mut five = b"x".to_vec();
        for _ in 0..5 {
            five = deflated(&five);
        }
        let err = check(&pdf_with_stream("", &five), &limits).unwrap_err();
        assert!(err.to_string().contains("more than 4 times"), "{err}");
        let chain = "/Filter [/FlateDecode /DCTDecode /JPXDecode /CCITTFaxDecode /RunLengthDecode]";
        let err = check(&pdf_with_stream(chain, b"x"), &limits).unwrap_err();
        assert!(err.to_string().contains("through 5 filters"), "{err}");
        // Filters lopdf does not decode end the chain: fine.
        let image = pdf_with_stream("/Filter [/FlateDecode /DCTDecode]", &deflated(b"jpeg"));
        assert!(check(&image, &limits).is_ok());
    }

    #[test]
    fn predictors_are_bounded_and_not_allowed_between_two_inflations() {
        let limits = Limits::default();
        let wide = "/Filter /FlateDecode /DecodeParms << /Predictor 12 /Columns 99999999 >>";
        let err = check(&pdf_with_stream(wide, &deflated(b"\0")), &limits).unwrap_err();
        assert!(err.to_string().contains("predictor rows"), "{err}");
        let between = "/Filter [/FlateDecode /FlateDecode] /DecodeParms << /Predictor 12 >>";
        let err = check(&pdf_with_stream(between, &deflated(b"\0")), &limits).unwrap_err();
        assert!(err.to_string().contains("predictor in between"), "{err}");
        // Nesting that only the undone predictor shows (rows of one byte, "Up" filter).
        let mut rows = [2u8, 0].repeat(MAX_NESTING + 1);
        rows[1] = b'[';
        let up = "/Filter /FlateDecode /DecodeParms << /Predictor 12 /Columns 1 >>";
        let err = check(&pdf_with_stream(up, &deflated(&rows)), &limits).unwrap_err();
        assert!(err.to_string().contains("nested more than"), "{err}");
    }

    #[test]
    fn the_file_budget_spans_its_streams() {
        let limits = small_limits();
        let part = deflated(&vec![b' '; 600 * 1024]);
        let mut pdf = pdf_with_stream("/Filter /FlateDecode", &part);
        assert!(check(&pdf, &limits).is_ok());
        pdf.extend(pdf_with_stream("/Filter /FlateDecode", &part));
        let err = check(&pdf, &limits).unwrap_err();
        assert!(
            err.to_string().contains("its streams inflate past"),
            "{err}"
        );
    }
}
